"""The C kernels and the optional compiled build (docs/compiled.md); everything else is in
pyproject.toml.

A plain ``pip install .`` or ``pip install -e .`` builds the C kernels of
``ddzrules/speed/_quick.c`` (legal moves 2.5-3x faster) as an *optional* extension, as PyYAML and
MarkupSafe build theirs: where no C compiler or no Python headers exist, the build says so
in one line and the install goes on in pure Python, which answers the same. With
``DDZRULES_PURE=1`` in the environment nothing is built at all. With ``DDZRULES_COMPILE=1``
the hot modules of ``COMPILED_MODULES`` are compiled with mypyc into extension modules
too, which Python imports in place of the ``.py`` files beside them::

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
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

if int(setuptools.__version__.split(".")[0]) < 77:  # pyproject.toml's license is an SPDX string
    raise SystemExit(f"ddzrules' setup.py needs setuptools>=77, found {setuptools.__version__}: "
                     "pip install -U 'setuptools>=77'")

#: the modules compiled (chosen by measurement: docs/compiled.md): ``name.py`` with mypyc,
#: ``name.c`` (hand-written C kernels, used when built) with the C compiler; a subpackage
#: (``runtime``, ``env``: its ``batch``) is its modules but ``__init__``, all compiled with mypyc;
#: ``wild`` (the wild-card walk) since 2026-12-05: laizi games in a short run 1.17x faster
COMPILED_MODULES = ("game", "env", "rules.wild", "rules.wild_store", "rules.wild_walk", "speed._quick")
#: built by default, optionally (a failure to compile is not a failure to install)
DEFAULT_KERNELS = ("speed._quick",)
HERE = os.path.dirname(os.path.abspath(__file__))


def _off(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("", "0", "no", "false")


def _wanted() -> tuple[str, ...]:
    """The modules ``DDZRULES_COMPILE`` asks for: none when unset, empty or 0."""
    value = os.environ.get("DDZRULES_COMPILE", "").strip()
    if _off("DDZRULES_COMPILE"):
        return ()
    if value.lower() in ("1", "yes", "true"):
        return COMPILED_MODULES
    return tuple(name.strip().removesuffix(".py") for name in value.split(",") if name.strip())


def _kernels(asked: tuple[str, ...]) -> list[Extension]:
    """The default build's C kernels that ``DDZRULES_COMPILE`` did not ask for (asked
    for, a failure is an error), optional: ``BuildExt`` installs pure Python without them
    when they fail to compile. None with ``DDZRULES_PURE`` set."""
    if not _off("DDZRULES_PURE"):
        return []
    return [Extension(f"ddzrules.{name}", [os.path.join("ddzrules", *name.split(".")) + ".c"], optional=True)
            for name in DEFAULT_KERNELS if name not in asked]


def _extensions() -> list:
    modules = _wanted()
    if not modules:
        return _kernels(modules)

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
    native += _kernels(modules)
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


class BuildExt(build_ext):
    """setuptools' build_ext, but an optional extension that fails to build (no compiler,
    no Python headers) costs one line, not a page of compiler output, and no failure."""

    def build_extension(self, ext: Extension) -> None:
        if not getattr(ext, "optional", False):
            super().build_extension(ext)
            return
        try:
            super().build_extension(ext)
        except (CCompilerError, BaseError, OSError) as error:  # compile, link, exec, platform
            print(f"ddzrules: the C kernels ({ext.name}) could not be compiled "
                  f"({type(error).__name__}: no C compiler or Python headers?): installing pure "
                  "Python, which answers the same, legal moves about 2.5x slower", flush=True)


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
setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt, "clean_compiled": CleanCompiled})
