"""``Spec``: a loaded spec, its merged data beside the positions its values were written at
(``spec.problem(path, message)`` makes a message that points at the file), and ``spec.rule_spec``,
the same data parsed once into the typed :class:`~ddzrules.spec.model.RuleSpec`."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ddzrules.errors import (
    Location,
    Problem,
    SpecError,
)
from ddzrules.spec.model import RuleSpec
from ddzrules.spec.reading import read_yaml
from ddzrules.spec.source import Path_, ScalarSource, SourceText, dotted, position_inside


class Spec:
    """A resolved spec: merged data (parents applied), with source positions.

    ``positions`` and ``key_positions`` map each key path to where it was written; a
    spec served whole from the cache (see :func:`load_spec`) works them out from the
    texts it was loaded from the first time they are asked for (only an error needs them).
    """

    def __init__(self, name: str, data: dict[str, Any], file: str, chain: list[str],
                 positions: dict[Path_, ScalarSource] | None = None,
                 key_positions: dict[Path_, ScalarSource] | None = None,
                 unmarked: list[str] | None = None) -> None:
        self.name = name
        self.data = data
        self.file = file
        self.chain = chain  # files from this spec up to its root ancestor
        self._positions = positions
        self._key_positions = key_positions
        #: digests of the chain's file texts checked in full by this load and not yet in the
        #: cache (see :func:`mark_checked`)
        self.unmarked: list[str] = list(unmarked or [])
        #: the chain's files as read, this spec's first (empty for a spec given as data)
        self.sources: list[SourceText] = []
        #: the resolved-spec cache entry this spec was served from (None: read from YAML)
        self.served: str | None = None
        #: what that entry holds for later stages (the compiler's parsed patterns, ...)
        self.cached: dict[str, Any] = {}
        #: what the compiler leaves for the entry once the spec compiled (None: nothing)
        self.extras: dict[str, Any] | None = None
        self._rule_spec: RuleSpec | None = None

    @property
    def rule_spec(self) -> RuleSpec:
        """The spec's rules, typed (:class:`~ddzrules.spec.model.RuleSpec`): parsed from
        :attr:`data` once, when first asked for. Every stage reads the rules here; ``data``,
        the merged dict, is kept for what is a format (a record's ``spec_resolved``, cache
        keys) and must not be changed once this was read."""
        rule_spec = self._rule_spec
        if rule_spec is None:
            rule_spec = self._rule_spec = RuleSpec.from_data(self.data)
        return rule_spec

    def __repr__(self) -> str:
        return f"Spec(name={self.name!r}, file={self.file!r}, chain={self.chain!r})"

    @property
    def files(self) -> list[str]:
        """The files of its ``extends:`` chain, this spec's first, as absolute paths with
        symbolic links followed (none for a spec given as data): what a command that
        writes a file must not overwrite."""
        return [s.real for s in self.sources]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Spec):
            return NotImplemented
        return (self.name, self.data, self.file, self.chain, self.positions, self.key_positions) == \
            (other.name, other.data, other.file, other.chain, other.positions, other.key_positions)

    # unhashable, as its data is mutable: Python's idiom, which mypy refuses against
    # object.__hash__'s declared method
    __hash__ = None  # type: ignore[assignment]

    def _sources_read(self) -> tuple[dict[Path_, ScalarSource], dict[Path_, ScalarSource]]:
        if self._positions is None or self._key_positions is None:
            self._read_positions()
        assert self._positions is not None and self._key_positions is not None
        return self._positions, self._key_positions

    @property
    def positions(self) -> dict[Path_, ScalarSource]:
        """Where each key path's value was written."""
        return self._sources_read()[0]

    @property
    def key_positions(self) -> dict[Path_, ScalarSource]:
        """Where each key path's key was written."""
        return self._sources_read()[1]

    def _read_positions(self) -> None:
        """Positions from the chain's texts, root first, each file over its parents (as
        :func:`load_spec` merges them). The texts passed their checks when the spec was
        cached, so libyaml composes them (same positions as the pure-Python loader)."""
        pos: dict[Path_, ScalarSource] = {}
        kpos: dict[Path_, ScalarSource] = {}
        for src in reversed(self.sources):
            try:
                _, p, k = read_yaml(src.text, src.file, check_events=False)
            except SpecError:  # not expected of a text that was read before: no positions then
                continue
            pos.update(p)
            kpos.update(k)
        self._positions, self._key_positions = pos, kpos

    @property
    def content_hash(self) -> str:
        """SHA-256 of the merged spec; any change to the rules changes it."""
        text = json.dumps(self.data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def locate(self, path: Path_) -> ScalarSource | None:
        """Source of ``path`` or of its nearest ancestor that has one."""
        p = tuple(path)
        while True:
            if p in self.positions:
                return self.positions[p]
            if not p:
                return None
            p = p[:-1]

    def problem(self, path: Path_, message: str, offset: tuple[int, int] | None = None) -> Problem:
        """A :class:`Problem` at ``path``; ``offset`` is a 1-based (line, column) inside the value."""
        src = self.locate(path)
        if src is None:
            return Problem(Location(self.file, 1, 1), dotted(path), message)
        loc = src.location
        line_text = src.source_line
        if offset is not None:
            loc, line_text = position_inside(src, offset)
        excerpt = f"  {line_text}\n  {' ' * (loc.column - 1)}^" if line_text else ""
        return Problem(loc, dotted(path), message, excerpt)
