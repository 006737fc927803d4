"""Helpers shared by the tests that compare a game's whole state before and after."""

from __future__ import annotations

from typing import Any


def jsonable(x: Any) -> Any:
    """``x`` as plain JSON values (Moves and Actions through ``to_dict``, sets sorted), so
    two states compare by content."""
    if hasattr(x, "to_dict"):
        return x.to_dict()
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple | set):
        return [jsonable(v) for v in (sorted(x) if isinstance(x, set) else x)]
    return x
