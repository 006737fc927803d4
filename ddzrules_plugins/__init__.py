"""The old import path of the built-in plugins, kept working for one release.

The built-in plugins now live in :mod:`ddzrules.plugins`, inside the package, and the
entry points name them there. ``import ddzrules_plugins.bidding`` (or ``from
ddzrules_plugins.beans import Doubling``) still works: each submodule of
:mod:`ddzrules.plugins` is registered under its old name as well, so the classes are
the same objects either way, never copies. Importing this package warns once with a
:class:`DeprecationWarning`; write ``ddzrules.plugins`` instead.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import warnings

import ddzrules.plugins as _plugins

warnings.warn("ddzrules_plugins is now ddzrules.plugins; the old name goes in the next release",
              DeprecationWarning, stacklevel=2)

for _info in pkgutil.iter_modules(_plugins.__path__):
    sys.modules[f"{__name__}.{_info.name}"] = importlib.import_module(f"ddzrules.plugins.{_info.name}")
    globals()[_info.name] = sys.modules[f"{__name__}.{_info.name}"]

from ddzrules.plugins import Description, first_bidder_rule, times  # noqa: E402, F401 - their old names, after the warning
