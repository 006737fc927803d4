"""The optional compiled build (docs/compiled.md); everything else is in pyproject.toml.

A plain ``pip install .`` or ``pip install -e .`` builds nothing: the package is pure
Python and needs no compiler. With ``DDZRULES_COMPILE=1`` in the environment the hot
modules of ``COMPILED_MODULES`` are compiled with mypyc into extension modules, which
Python imports in place of the ``.py`` files beside them::

    DDZRULES_COMPILE=1 pip install .                          # mypy fetched into the build env
    DDZRULES_COMPILE=1 pip install --no-build-isolation .     # mypy already installed here
    DDZRULES_COMPILE=1 python setup.py build_ext --inplace    # developers: in the source tree
    python setup.py clean_compiled                            # ... and gone again

``DDZRULES_COMPILE`` may also name the modules itself (``DDZRULES_COMPILE=cards,moves``),
which is how the modules were chosen by measurement.
"""

from __future__ import annotations

import glob
import os
import shutil
from typing import ClassVar

import setuptools
from setuptools import Command, Extension, setup

if int(setuptools.__version__.split(".")[0]) < 77:  # pyproject.toml's license is an SPDX string
    raise SystemExit(f"ddzrules' setup.py needs setuptools>=77, found {setuptools.__version__}: "
                     "pip install -U 'setuptools>=77'")

#: the modules compiled (chosen by measurement: docs/compiled.md): ``name.py`` with mypyc,
#: ``name.c`` (hand-written C kernels, used when built) with the C compiler; a subpackage
#: (``runtime``, ``env``: its ``batch``) is its modules but ``__init__``, all compiled with mypyc;
#: ``wild`` (the wild-card walk) since 2026-12-05: laizi games in a short run 1.17x faster
COMPILED_MODULES = ("runtime", "env", "wild", "_quick")
HERE = os.path.dirname(os.path.abspath(__file__))


def _wanted() -> tuple[str, ...]:
    """The modules ``DDZRULES_COMPILE`` asks for: none when unset, empty or 0."""
    value = os.environ.get("DDZRULES_COMPILE", "").strip()
    if value.lower() in ("", "0", "no", "false"):
        return ()
    if value.lower() in ("1", "yes", "true"):
        return COMPILED_MODULES
    return tuple(name.strip().removesuffix(".py") for name in value.split(",") if name.strip())


def _extensions() -> list:
    modules = _wanted()
    if not modules:
        return []

    def source(name: str, suffix: str) -> str | None:
        path = os.path.join("ddzrules", *name.split(".")) + suffix
        return path if os.path.isfile(os.path.join(HERE, path)) else None

    python: list[str] = []  # compiled with mypyc
    native = []  # hand-written C
    for name in modules:
        package = os.path.join("ddzrules", *name.split("."))
        if os.path.isfile(os.path.join(HERE, package, "__init__.py")):  # a subpackage: its modules
            python += sorted(p for p in glob.glob(os.path.join(package, "*.py"))
                             if os.path.basename(p) != "__init__.py")
        elif (path := source(name, ".py")) is not None:
            python.append(path)
        elif (path := source(name, ".c")) is not None:
            native.append(Extension(f"ddzrules.{name}", [path]))
        else:
            raise SystemExit(f"DDZRULES_COMPILE: no module or package ddzrules/{name.replace('.', '/')}(.py, .c)")
    if not python:
        return native
    try:
        from mypyc.build import mypycify  # only here: the pure build needs no mypy
    except ImportError:
        raise SystemExit("DDZRULES_COMPILE: the compiled build needs mypy, which ships mypyc: "
                         "`pip install mypy` (or let `DDZRULES_COMPILE=1 pip install .` fetch it)") from None
    # the modules the compiled ones import are type-checked, not compiled; their own
    # type errors (if any) are not the build's business
    # group_name: the shared library of the compiled modules (there is one when several are
    # compiled) sits inside the package, ddzrules/compiled__mypyc.*.so, not at the top level
    # where mypyc puts it by default: found wherever ddzrules is, an in-place build too
    return native + mypycify(["--follow-imports=silent", "--ignore-missing-imports", *python],
                             opt_level=os.environ.get("DDZRULES_COMPILE_OPT", "3"), group_name="ddzrules.compiled")


def _drop_stale_extensions() -> None:
    """setuptools packs all of build/lib into the wheel, and build/lib keeps what an earlier
    build put there: without this, a pure build after a compiled one (or a compiled one of
    other modules) would ship the old extension modules."""
    for pattern in ("build/lib*/ddzrules/*.so", "build/lib*/ddzrules/*.pyd",
                    "build/lib*/ddzrules/*/*.so", "build/lib*/ddzrules/*/*.pyd",
                    "build/lib*/*__mypyc*.so", "build/lib*/*__mypyc*.pyd"):
        for path in glob.glob(os.path.join(HERE, pattern)):
            os.remove(path)


class CleanCompiled(Command):
    """``python setup.py clean_compiled``: remove an in-place compiled build (the
    extension modules and mypyc's shared library in the tree, and build/)."""

    description = "remove the compiled modules of an in-place build"
    user_options: ClassVar[list] = []

    def initialize_options(self) -> None:
        pass

    def finalize_options(self) -> None:
        pass

    def run(self) -> None:
        found = [*glob.glob(os.path.join(HERE, "ddzrules", "*.so")),
                 *glob.glob(os.path.join(HERE, "ddzrules", "*.pyd")),
                 *glob.glob(os.path.join(HERE, "ddzrules", "*", "*.so")),
                 *glob.glob(os.path.join(HERE, "ddzrules", "*", "*.pyd")),
                 *glob.glob(os.path.join(HERE, "*__mypyc*.so")),
                 *glob.glob(os.path.join(HERE, "*__mypyc*.pyd"))]
        for path in found:
            os.remove(path)
            print(f"removed {os.path.relpath(path, HERE)}")
        build = os.path.join(HERE, "build")
        if os.path.isdir(build):
            shutil.rmtree(build)
            print("removed build/")
        if not found:
            print("no compiled modules in the tree")


_drop_stale_extensions()
setup(ext_modules=_extensions(), cmdclass={"clean_compiled": CleanCompiled})
