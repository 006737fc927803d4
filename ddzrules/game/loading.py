"""Finding and loading plugins: the entry points of the group ``ddzrules`` (the built-in
plugins are registered there like any other) and ``module:Class`` or ``file.py:Class``
targets named on the command line."""

from __future__ import annotations

from importlib import metadata
from typing import Any, ClassVar

import jsonschema

from ddzrules import hookspecs
from ddzrules.errors import STOPS, DdzError

# ====================================================================== plugins


def import_class(target: str, option: str = "--plugin") -> type:
    """Import the class named ``module:Class`` or ``path/to/file.py:Class`` for a command-line
    option (``--plugin``, ``--engine``): a module is found as ``python -m`` finds it (the current
    folder included), a file is imported from its path (once per path). Any failure (no such
    module, file or class, an exception while importing, not a class) is a :class:`DdzError`
    beginning ``{option} {target!r}:``."""
    import importlib
    import importlib.util
    import os
    import sys

    module_name, sep, attr = target.rpartition(":")
    if not sep or not module_name or not attr:
        raise DdzError(f"{option} {target!r}: expected module:Class (or path/to/file.py:Class)")
    try:
        if module_name.endswith(".py") or "/" in module_name or os.sep in module_name:
            path = os.path.abspath(module_name)
            if not os.path.isfile(path):
                raise DdzError(f"{option} {target!r}: no file {module_name}")
            key = "ddzrules_user_plugin_" + "".join(c if c.isalnum() else "_" for c in path)
            module = sys.modules.get(key)
            if module is None:
                spec = importlib.util.spec_from_file_location(key, path)
                if spec is None or spec.loader is None:
                    raise DdzError(f"{option} {target!r}: cannot import {module_name}")
                module = importlib.util.module_from_spec(spec)
                sys.modules[key] = module
                try:
                    spec.loader.exec_module(module)
                except BaseException:
                    del sys.modules[key]
                    raise
        else:
            if os.getcwd() not in sys.path and "" not in sys.path:
                sys.path.append(os.getcwd())  # a module next to the user, as `python -m` finds it
            module = importlib.import_module(module_name)
    except DdzError:
        raise
    except ModuleNotFoundError as e:
        raise DdzError(f"{option} {target!r}: no module named {e.name!r}") from None
    except STOPS:
        raise
    except BaseException as e:  # noqa: BLE001 - user code: any failure is reported (SystemExit …)
        raise DdzError(f"{option} {target!r}: importing {module_name} raised "
                       f"{type(e).__name__}: {e}") from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise DdzError(f"{option} {target!r}: {module_name} has no {attr!r}")
    if not isinstance(cls, type):
        raise DdzError(f"{option} {target!r}: {attr} is not a class")
    return cls


def load_plugin_class(target: str) -> tuple[str, type]:
    """Import a plugin class named ``module:Class`` (or ``path/to/file.py:Class``) for
    ``--plugin``; returns ``(name, class)``, the name being the class's ``name`` attribute or
    else the class name. Any failure (no such module or class, an exception while importing,
    not a class, no hook, an exception when built with no parameters) is a :class:`DdzError`."""
    cls = import_class(target, "--plugin")
    attr = target.rpartition(":")[2]
    if not implemented_hooks(cls):
        raise DdzError(f"--plugin {target!r}: {attr} implements no ddzrules hook "
                       "(methods marked with ddzrules.hookspecs.hookimpl)")
    name = getattr(cls, "name", None)
    name = name if isinstance(name, str) and name else cls.__name__
    schema = getattr(cls, "params_schema", {"type": "object", "additionalProperties": False})
    try:
        defaults_ok = jsonschema.Draft202012Validator(schema).is_valid({})
    except Exception as e:  # noqa: BLE001 - any malformed schema
        raise DdzError(f"--plugin {target!r}: its params_schema is not a JSON Schema: {e}") from None
    if defaults_ok:  # a plugin that cannot even be built with its defaults fails here, plainly
        try:
            cls({})
        except STOPS:
            raise
        except BaseException as e:  # noqa: BLE001 - user code (SystemExit …)
            raise DdzError(f"--plugin {target!r}: {attr}({{}}) raised {type(e).__name__}: {e}") from None
    return name, cls


class PluginRegistry:
    """Plugin classes by name: the ``ddzrules`` entry points plus explicit registrations.

    Classes given as ``module:Class`` in the environment variable :attr:`ENV`
    (comma-separated; the CLI's ``--plugin`` sets it, so that simulate's worker processes
    see them too) come before the entry points; explicit registrations come first.
    """

    ENV: ClassVar[str] = "DDZRULES_PLUGINS"  # ClassVar: compiled, a class attribute still

    def __init__(self, discover: bool = True) -> None:
        self._classes: dict[str, type] = {}
        self._sources: dict[str, str] = {}
        self._lazy: dict[str, metadata.EntryPoint] = {}
        self._loaded: dict[str, type] = {}  # entry points already imported
        self._discover = discover
        self._env: tuple[str, dict[str, tuple[type, str]]] = ("", {})
        if discover:
            for ep in metadata.entry_points(group=hookspecs.PROJECT):
                self._lazy[ep.name] = ep
                self._sources[ep.name] = f"entry point {ep.value} ({ep.dist.name if ep.dist else '?'})"

    def register(self, name: str, plugin_class: type, source: str = "registered explicitly") -> None:
        """Make a plugin class available under ``name`` (for tests and embedding)."""
        self._classes[name] = plugin_class
        self._sources[name] = source

    def _from_env(self) -> dict[str, tuple[type, str]]:
        """The ``--plugin`` classes named in :attr:`ENV` (imported once per value)."""
        import os

        value = os.environ.get(self.ENV, "") if self._discover else ""
        if value != self._env[0]:
            found: dict[str, tuple[type, str]] = {}
            for target in filter(None, (t.strip() for t in value.split(","))):
                name, cls = load_plugin_class(target)
                found[name] = (cls, f"--plugin {target}")
            self._env = (value, found)
        return self._env[1]

    def names(self) -> list[str]:
        return sorted(set(self._classes) | set(self._lazy) | set(self._from_env()))

    def source(self, name: str) -> str:
        if name not in self._classes and name in self._from_env():
            return self._from_env()[name][1]
        return self._sources.get(name, "")

    def get(self, name: str) -> type | None:
        if name in self._classes:
            return self._classes[name]
        env = self._from_env()
        if name in env:
            return env[name][0]
        if name in self._loaded:
            return self._loaded[name]
        ep = self._lazy.get(name)
        if ep is None:
            return None
        cls: type = ep.load()
        self._loaded[name] = cls
        return cls


_default_registry: PluginRegistry | None = None


def default_registry() -> PluginRegistry:
    global _default_registry
    if _default_registry is None:
        _default_registry = PluginRegistry()
    return _default_registry


def implemented_hooks(plugin: Any) -> list[str]:
    """The names of the hooks a plugin class or instance implements."""
    names = []
    for attr in dir(plugin):
        if attr.startswith("ddzrules_") and hasattr(getattr(plugin, attr), "ddzrules_impl"):
            names.append(attr)
    return names
