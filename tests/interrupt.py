"""Run a ``ddzrules`` command in a child process and press Ctrl-C once it waits.

A run started in the background inherits SIGINT ignored, and Python then raises no
KeyboardInterrupt: the child sets Python's own handler, as it has at a terminal."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Callable
from typing import IO

START = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
         "from ddzrules.cli import main; main(prog_name='ddzrules')")


def interrupt(args: list[str], ready: Callable[[IO[str], IO[str]], None]) -> tuple[int, str, str]:
    """Start ``ddzrules ARGS``, call ``ready(stdin, stdout)`` until it returns (it reads
    what says the command now waits), send SIGINT; the status, the rest of stdout, stderr."""
    proc = subprocess.Popen([sys.executable, "-c", START, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        ready(proc.stdin, proc.stdout)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out, err
