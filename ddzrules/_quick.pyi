"""Types of the C kernels in _quick.c (built only by the compiled build)."""

from typing import Any, TypeVar

_T = TypeVar("_T", bound=tuple[Any, ...])

def hand_counts(hand: object, limits: bytes, /) -> bytes | None: ...
def legal_tuple(cls: type[_T], order: list[int], moves: tuple[Any, ...], /) -> _T: ...
