"""The two cache entries of a loaded spec: the texts already checked in full (a second load
skips the schema), and a whole resolved spec (the merged data and what the compiler leaves
for itself), so that a warm load reads no YAML (docs/specs.md, "Caching")."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from ddzrules import untrusted
from ddzrules.errors import (
    SpecError,
)
from ddzrules.spec import reading
from ddzrules.spec.loaded import Spec
from ddzrules.spec.names import display_name, resolve_name
from ddzrules.spec.reading import max_spec_depth, max_spec_values
from ddzrules.spec.source import SourceText
from ddzrules.speed import cache

# --------------------------------------------------------------------------- cache
# Reading a spec file checks its YAML events (aliases, tags, depth) and validates it
# against the schema; jsonschema's import and the walk are a large part of a load. A
# file whose exact text passed both before (under the same depth limit and the same
# code and schema) is marked in the keyed cache, and the two checks are skipped for it.
# The mark holds nothing but the text's digest: it can only say "seen valid", never
# change what is read. Marks are written by the caller once the whole spec compiled.

#: bump when what a mark means changes
CHECKED_FORMAT = 1


def text_digest(text: str) -> str:
    # the limits are part of the digest: a lowered DDZRULES_MAX_SPEC_DEPTH (or _VALUES) re-checks
    limit = f"{CHECKED_FORMAT}\0{max_spec_depth()}\0{max_spec_values()}\0"
    return hashlib.sha256((limit + text).encode("utf-8")).hexdigest()


#: the modules that read, check and merge a spec's texts: a change to any of them is a new key
SPEC_MODULES = ("ddzrules.spec.source", "ddzrules.spec.reading", "ddzrules.spec.names", "ddzrules.spec.schema_check",
                "ddzrules.spec.loaded", "ddzrules.spec.stored", "ddzrules.spec.loading", "ddzrules.spec.model")
#: the compiler's modules (``ddzrules.rules.compiler.COMPILER_SOURCES``, which this stage, below
#: the rules, cannot import): a resolved entry carries the compiler's parsed patterns and cost checks
COMPILER_MODULES = ("ddzrules.rules.compiler", "ddzrules.rules.shapes", "ddzrules.rules.cost")


def _checked_name(digest: str) -> str:
    code = cache.code_hash(CHECKED_FORMAT, *SPEC_MODULES, ("ddzrules.spec", "spec.schema.json"))
    return f"spec-{digest[:32]}-{code}.ok"


def checked_before(digest: str) -> bool:
    def parse(body: bytes) -> bool:
        if body != digest.encode("ascii"):
            raise ValueError("it marks another text")
        return True

    return bool(cache.load(_checked_name(digest), parse, stacklevel=4))


def mark_checked(spec: Spec) -> None:
    """Remember that the files of ``spec`` passed the YAML and schema checks, and the
    resolved spec with what the compiler left in ``spec.extras`` (call only once the whole
    spec loaded and compiled: a broken spec is never marked or cached)."""
    if cache.enabled():
        for digest in spec.unmarked:
            cache.store(_checked_name(digest), digest.encode("ascii"))
        if spec.sources and spec.extras is not None and (spec.served is None or spec.extras != spec.cached):
            _store_resolved(spec)
    spec.unmarked = []


# The resolved spec: a warm load reads the chain's texts (their size and characters
# checked as always) and one entry, keyed by the path and text of the spec asked for,
# holding the merged data and, for each file of the chain, the parent it names and the
# digest of its text. Each parent is resolved again and its text read: a moved or edited
# parent is simply another chain (a miss, then the spec is loaded in full and the entry
# rewritten). The entry is written only after the spec compiled, so it also stands for
# "this chain passed every check"; positions are worked out from the texts when asked.

#: bump when the resolved entry's payload or meaning changes
RESOLVED_FORMAT = 1
#: the longest extends: chain an entry may describe (a longer one is loaded in full)
_MAX_CHAIN = 64


def _resolved_name(real: str, digest: str) -> str:
    key = hashlib.sha256(f"{RESOLVED_FORMAT}\0{real}\0{digest}".encode()).hexdigest()[:32]
    # the compiler's sources too: the entry carries its parsed patterns and cost checks
    code = cache.code_hash(RESOLVED_FORMAT, *SPEC_MODULES, ("ddzrules.spec", "spec.schema.json"), *COMPILER_MODULES,
                           "ddzrules.spec.patterns", ("ddzrules.spec", "pattern.lark"), "ddzrules.cards")
    return f"resolved-{key}-{code}.spec"


def load_resolved(path: Path, real: str, file: str, text: str, digest: str) -> Spec | None:
    if not cache.enabled():
        return None
    name = _resolved_name(real, digest)
    top = SourceText(path, real, file, text, None, digest)
    return cache.load(name, lambda body: _decode_resolved(name, body, top), stacklevel=4)


def _plain(value: Any, depth: int) -> None:
    """``value`` is data a YAML spec gives (JSON's types, string keys), at most ``depth``
    levels deep; ValueError otherwise."""
    kind = type(value)
    if kind is dict:
        if depth <= 0:
            raise ValueError("nested too deeply")
        for k, v in value.items():
            if type(k) is not str:
                raise ValueError("a key is not a string")
            _plain(v, depth - 1)
    elif kind is list:
        if depth <= 0:
            raise ValueError("nested too deeply")
        for v in value:
            _plain(v, depth - 1)
    elif kind not in (str, int, float, bool) and value is not None:
        raise ValueError(f"a value of type {kind.__name__}")


def _decode_resolved(name: str, body: bytes, top: SourceText) -> Spec | None:
    """The spec an entry holds, its structure checked (ValueError), or None when a parent
    is no longer the file it was (moved, edited, gone: the entry is of another chain)."""
    # the data may be as deep as a spec may be, under the payload, and hold an integer as
    # long as YAML reads (a spec is read, so cached, with Python's own bound on digits)
    payload: Any = cache.parse_json(body, max(untrusted.JSONPolicy.max_depth, max_spec_depth() + 1),
                                    sys.get_int_max_str_digits() or sys.maxsize)
    if type(payload) is not dict or sorted(payload) != ["chain", "data", "extras"]:
        raise ValueError("not a resolved spec")
    chain, data, extras = payload["chain"], payload["data"], payload["extras"]
    if type(chain) is not list or not 0 < len(chain) <= _MAX_CHAIN or type(extras) is not dict:
        raise ValueError("not a resolved spec")
    for i, link in enumerate(chain):
        if not (type(link) is list and len(link) == 3 and type(link[0]) is str
                and (type(link[1]) is str if i + 1 < len(chain) else link[1] is None)
                and type(link[2]) is str and len(link[2]) == 64):
            raise ValueError("its extends: chain is malformed")
    if chain[0][0] != top.real or chain[0][2] != top.digest:
        raise ValueError("it is the spec of another file")
    _plain(data, max_spec_depth())
    if type(data) is not dict or type(data.get("name")) is not str or "extends" in data:
        raise ValueError("its data is not a resolved spec")
    sources = [dataclasses.replace(top, extends=chain[0][1])]
    seen = {chain[0][0]}
    for link in chain[1:]:
        child = sources[-1]
        try:
            parent = resolve_name(str(child.extends), child.path.parent)
            resolved = parent.resolve()
            real = str(resolved)
            if real != link[0] or real in seen:
                return None
            seen.add(real)
            parent_file = display_name(parent, resolved)
            parent_text = reading.read_spec_text(parent, parent_file)
        except (SpecError, OSError):
            return None
        if text_digest(parent_text) != link[2]:
            return None
        sources.append(SourceText(parent, real, parent_file, parent_text, link[1], link[2]))
    spec = Spec(data["name"], data, top.file, [s.file for s in sources])
    spec.sources, spec.served, spec.cached = sources, name, extras
    return spec


def _store_resolved(spec: Spec) -> None:
    top = spec.sources[0]
    payload = {"chain": [[s.real, s.extends, s.digest] for s in spec.sources],
               "data": spec.data, "extras": spec.extras}
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    cache.store(_resolved_name(top.real, top.digest), body.encode("utf-8"))
