"""Run ddzrules commands under the hardening issue's limits and report how each ended.

    python tests/cli_under_limits.py CASES.json [--max-file-bytes N]

CASES.json maps a case name to ``{"argv": [...], "env": {...}}``. The whole process runs
under a 2 GiB address-space limit and each command under a 20 s alarm; each is run with
click's test runner (so one interpreter serves every case) and reported as
``{"exit": int, "output": str, "exception": str | None, "seconds": float}`` in a JSON
object on stdout. Used by tests/uses/test_limits.py. With ``--max-file-bytes N`` no file
may grow past N bytes (RLIMIT_FSIZE, SIGXFSZ ignored: a write past it fails with EFBIG, as
on a full disk), for tests/uses/test_output_commands.py.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import time
from typing import Any

ADDRESS_SPACE = 2 * 2**30
CALL_SECONDS = 20


class Expired(Exception):
    pass


def _expire(signum: int, frame: Any) -> None:
    raise Expired(f"ran past {CALL_SECONDS} s")


def run(cases: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    from click.testing import CliRunner

    from ddzrules.cli import main

    signal.signal(signal.SIGALRM, _expire)
    out: dict[str, dict[str, Any]] = {}
    for name, case in cases.items():
        saved = {k: os.environ.get(k) for k in case.get("env", {})}
        os.environ.update(case.get("env", {}))
        start = time.monotonic()
        signal.alarm(CALL_SECONDS)
        try:
            result = CliRunner().invoke(main, case["argv"])
            exception = result.exception
            if isinstance(exception, SystemExit):
                exception = None
            out[name] = {"exit": result.exit_code, "output": result.output[-2000:],
                         "exception": None if exception is None else f"{type(exception).__name__}: {exception}"}
        except (Expired, MemoryError) as e:
            out[name] = {"exit": None, "output": "", "exception": f"{type(e).__name__}: {e}"}
        finally:
            signal.alarm(0)
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        out[name]["seconds"] = round(time.monotonic() - start, 2)
    return out


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    if sys.argv[2:3] == ["--max-file-bytes"]:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails (EFBIG) instead of the process
        limit = int(sys.argv[3])
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    with open(sys.argv[1], encoding="utf-8") as f:
        print(json.dumps(run(json.load(f))))
