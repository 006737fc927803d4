"""The built-in ddzrules plugins.

Each module holds plugin classes registered under the ``ddzrules`` entry-point
group in ``pyproject.toml`` — exactly as a third-party package would register
its own; the runtime has no private way to reach them. The hook contracts are in
:mod:`ddzrules.hookspecs`.
"""
