"""The line every benchmark prints first: which build of ddzrules it measures
(docs/speed.md: a figure means nothing without its build). On stderr under ``--json``,
so that the JSON on stdout stays whole."""

from __future__ import annotations

import os
import platform
import sys


def print_header(script: str, *, json_output: bool = False) -> None:
    import ddzrules

    name = os.path.basename(script)
    print(f"# {name}: ddzrules {ddzrules.__version__}, build: {ddzrules.BUILD}; "
          f"Python {platform.python_version()} on {platform.machine()}",
          file=sys.stderr if json_output else sys.stdout, flush=True)
