"""``load_spec``: a spec's ``extends:`` chain read, merged (a child's keys over its
parent's, ``null`` removing one) and checked, or served whole from the cache; a spec made
from data; and the YAML a spec is written back as (``dump_yaml``, a new spec's starter text)."""

from __future__ import annotations

import copy
import difflib
import re
from pathlib import Path
from typing import Any

from ddzrules.errors import (
    DdzError,
    Location,
    Problem,
    SpecError,
    brief,
)
from ddzrules.spec import reading
from ddzrules.spec.loaded import Spec
from ddzrules.spec.names import display_name, resolve_name
from ddzrules.spec.reading import check_spec_data, read_yaml
from ddzrules.spec.schema_check import schema, validate_data
from ddzrules.spec.source import Path_, SourceText
from ddzrules.spec.stored import checked_before, load_resolved, text_digest

# --------------------------------------------------------------------------- merge


def merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """Child over parent: mappings merge key by key, ``null`` deletes, the rest replaces.

    A plugin entry (a mapping with ``plugin:``) that names another plugin replaces
    the parent's entry whole: the parent's parameters belong to the parent's plugin.

    >>> merge({"combos": {"a": "1", "b": "2"}}, {"combos": {"b": None, "c": "3"}})
    {'combos': {'a': '1', 'c': '3'}}
    >>> merge({"x": {"plugin": "p", "params": {"a": 1}}}, {"x": {"plugin": "q", "params": {"b": 2}}})
    {'x': {'plugin': 'q', 'params': {'b': 2}}}
    """
    out = copy.deepcopy(parent)
    for key, value in child.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict) and \
                value.get("plugin", out[key].get("plugin")) == out[key].get("plugin"):
            out[key] = merge(out[key], value)
        else:
            out[key] = _strip_nulls(copy.deepcopy(value))
    return out


def _strip_nulls(value: Any) -> Any:
    """A replaced entry keeps no ``null``: there is nothing below it to remove."""
    if isinstance(value, dict):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    return value


def dangling_removals(parent: Any, child: dict[str, Any], path: Path_ = ()) -> list[tuple[Path_, list[str]]]:
    """Keys a child sets to ``null`` inside a mapping where the parent has no such key
    (a misspelt removal would otherwise do nothing), with the parent's keys there."""
    out: list[tuple[Path_, list[str]]] = []
    if not isinstance(parent, dict):
        return out
    for key, value in child.items():
        if value is None and path and key not in parent:
            out.append((path + (key,), list(parent)))
        elif isinstance(value, dict) and isinstance(parent.get(key), dict) and \
                value.get("plugin", parent[key].get("plugin")) == parent[key].get("plugin"):
            out.extend(dangling_removals(parent[key], value, path + (key,)))
    return out


def load_spec(name_or_path: str | Path, _seen: tuple[str, ...] = (), _relative_to: Path | None = None) -> Spec:
    """Load, validate and resolve a spec (following ``extends:``).

    Raises :class:`SpecError` listing every problem with its ``file:line:column``.
    """
    path = resolve_name(str(name_or_path), _relative_to)
    resolved = path.resolve()
    real = str(resolved)
    file = display_name(path, resolved)
    if real in _seen:
        chain = " -> ".join(list(_seen) + [real])
        raise SpecError([Problem(Location(file, 1, 1), "extends", f"extends loop: {chain}")])
    text = reading.read_spec_text(path, file)
    digest = text_digest(text)
    if not _seen:  # the spec asked for (not a parent): served whole when the cache has it
        served = load_resolved(path, real, file, text, digest)
        if served is not None:
            return served
    checked = checked_before(digest)
    data, positions, key_positions = read_yaml(text, file, check_events=not checked)
    if not isinstance(data, dict):
        raise SpecError([Problem(Location(file, 1, 1), "", "a spec is a YAML mapping (key: value lines)")])
    problems = [] if checked else validate_data(data, file, positions, key_positions)
    if problems:
        raise SpecError(problems)
    unmarked = [] if checked else [digest]
    parent_name = data.get("extends")
    child_clean = {k: v for k, v in data.items() if k != "extends"}
    if parent_name:
        try:
            parent = load_spec(parent_name, _seen + (real,), path.parent)
        except SpecError as e:
            src = positions.get(("extends",))
            loc = src.location if src else Location(file, 1, 1)
            raise SpecError([Problem(loc, "extends", f"in parent {parent_name!r}: {p}") for p in e.problems]) \
                from None
        dangling = dangling_removals(parent.data, child_clean)
        if dangling:
            spec = Spec(data["name"], child_clean, file, [file], positions, key_positions)
            raise SpecError([spec.problem(p, f"removes {p[-1]!r}, which {parent_name!r} does not have"
                                             + (f" (did you mean {hint[0]!r}?)"
                                                if (hint := difflib.get_close_matches(str(p[-1]), keys, n=1))
                                                else ""))
                             for p, keys in dangling])
        merged = merge(parent.data, child_clean)
        pos = {k: v for k, v in parent.positions.items()}
        kpos = {k: v for k, v in parent.key_positions.items()}
        pos.update(positions)
        kpos.update(key_positions)
        spec = Spec(data["name"], merged, file, [file] + parent.chain, pos, kpos, unmarked + parent.unmarked)
        spec.sources = [SourceText(path, real, file, text, str(parent_name), digest)] + parent.sources
        return spec
    spec = Spec(data["name"], child_clean, file, [file], positions, key_positions, unmarked)
    spec.sources = [SourceText(path, real, file, text, None, digest)]
    return spec


def spec_from_data(data: Any, file: str) -> Spec:
    """A resolved spec given as data (a conformance suite carries one, parents applied):
    validated by the schema like a file, without ``extends:`` (it is already resolved)."""
    if not isinstance(data, dict):
        raise SpecError([Problem(Location(file, 1, 1), "", "a spec is a mapping")])
    check_spec_data(data, file)  # the bounds of a spec file, before the schema walks it
    if "extends" in data:
        raise SpecError([Problem(Location(file, 1, 1), "extends",
                                 "a resolved spec has no extends: (its parents are merged in)")])
    problems = validate_data(data, file, {}, {})
    if problems:
        raise SpecError(problems)
    return Spec(str(data["name"]), copy.deepcopy(data), file, [file])


def dump_yaml(data: dict[str, Any]) -> str:
    """The resolved spec as YAML, keys in the schema's order."""
    import yaml

    order = list(schema()["properties"])
    ordered = {k: data[k] for k in order if k in data}
    ordered.update({k: v for k, v in data.items() if k not in ordered})
    text: str = yaml.safe_dump(ordered, allow_unicode=True, sort_keys=False, width=100)
    return text


#: what a spec's name may be (``ddzrules new``, the playground's "new spec")
SPEC_NAME = re.compile(r"[a-z0-9][a-z0-9/_-]*")


def starter_text(name: str, parent: str, extends: str | None = None) -> str:
    """A commented starting spec named ``name`` that extends ``parent`` and validates as it
    is (what ``ddzrules new`` writes and the playground's "new spec" starts from);
    ``extends`` is how its ``extends:`` names the parent, when not as ``parent`` (a parent's
    path relative to where the new file goes)."""
    if not SPEC_NAME.fullmatch(name):  # it is written into the YAML: no line break, no quote
        raise DdzError(f"a spec name is lower case letters, digits, '/', '_' and '-', not {brief(name, 60)}")
    base = load_spec(parent)
    parent = extends or parent
    combos = [k for k, v in (base.data.get("combos") or {}).items() if v is not None]
    example = next((c for c in ("straight", "single") if c in combos), combos[0] if combos else "single")
    entry = (base.data.get("combos") or {}).get(example)
    pattern = entry.get("pattern") if isinstance(entry, dict) else entry
    plugins = []
    for role, value in (base.data.get("game") or {}).items():
        for e in value if isinstance(value, list) else [value]:
            if isinstance(e, dict) and e.get("plugin"):
                plugins.append(f"#   {role}: {e['plugin']}")
    plugin_lines = "\n".join(plugins) or "#   (none: the parent has no game: section)"
    return f"""# yaml-language-server: $schema=ddzrules-spec.schema.json
# {name}: house rules on top of {parent} (check with `ddzrules validate FILE`).
# The schema for editors: `ddzrules schema > ddzrules-spec.schema.json`.
name: {name}
extends: {parent}
title:
  zh: {name}
  en: {name}
# readings: the reading this spec takes where the rules are ambiguous; name the id in a
# comment next to the rule it governs (# reading: my-reading).
readings: {{}}
#   my-reading: >-
#     What the rule text says and how this spec reads it.
combos: {{}}
# Override a combo by its inherited name (long form keeps its zh:), remove one with null:
#   {example}: {{pattern: "{pattern}"}}     # reading: my-reading
#   four_with_two: null       # a removed bomb class must also leave bombs: (restate it)
# game: plugins; a child names a role to replace or merge it. The parent's plugins:
{plugin_lines}
"""
