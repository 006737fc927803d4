"""``ddzrules conformance``: generate suites from a spec and run them against engines."""

from __future__ import annotations

import click

from .cli import main


@main.group()
def conformance() -> None:
    """Conformance suites: test vectors generated from a spec, run against any engine."""
