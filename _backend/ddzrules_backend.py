"""The build backend: setuptools' own, plus mypy in the build environment when the
compiled build is asked for (``DDZRULES_COMPILE``: see setup.py and docs/compiled.md).
Without it the build, its requirements and the wheel are setuptools' unchanged."""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every hook setuptools defines, re-exported

#: what the compiled build needs at build time (mypyc ships in mypy's wheel)
COMPILE_REQUIRES = ["mypy>=1.13"]


def _requires(hook, config_settings):
    """setuptools' requirements (asked with the compiled build off: setup.py would import
    mypyc, not installed yet), plus mypy when the compiled build is on."""
    wanted = os.environ.get("DDZRULES_COMPILE")
    if (wanted or "").strip().lower() in ("", "0", "no", "false"):
        return hook(config_settings)
    del os.environ["DDZRULES_COMPILE"]
    try:
        base = hook(config_settings)
    finally:
        os.environ["DDZRULES_COMPILE"] = wanted
    return [*base, *COMPILE_REQUIRES]


def get_requires_for_build_wheel(config_settings=None):
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings=None):
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)
