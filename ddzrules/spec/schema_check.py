"""The JSON Schema of specs (``spec.schema.json``) and its findings in words: every problem
of a spec's data at the position it was written, with a hint where a word was misspelt."""

from __future__ import annotations

import difflib
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ddzrules.errors import (
    Problem,
    brief,
)
from ddzrules.spec.loaded import Spec
from ddzrules.spec.source import Path_, ScalarSource, dotted

# --------------------------------------------------------------------------- schema


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    text = resources.files("ddzrules.spec").joinpath("spec.schema.json").read_text(encoding="utf-8")
    return dict(json.loads(text))  # the package's own file, not input: the plain reader


def _schema_at(sch: dict[str, Any], path: Path_) -> dict[str, Any]:
    """The sub-schema describing the object at ``path`` (best effort, for hints)."""
    node = sch
    for part in path:
        props = node.get("properties", {})
        if isinstance(part, str) and part in props:
            node = props[part]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        elif isinstance(node.get("items"), dict):
            node = node["items"]
        else:
            return {}
        if "oneOf" in node:
            objs = [s for s in node["oneOf"] if s.get("type") == "object"]
            node = objs[0] if objs else node
    return node


def validate_data(data: Any, file: str, positions: dict[Path_, ScalarSource],
                  key_positions: dict[Path_, ScalarSource]) -> list[Problem]:
    """Every schema violation of one file's data, with positions and hints."""
    return [p for _, p in schema_problems(data, file, positions, key_positions)]


def schema_problems(data: Any, file: str, positions: dict[Path_, ScalarSource],
                    key_positions: dict[Path_, ScalarSource]) -> list[tuple[Path_, Problem]]:
    """:func:`validate_data`'s problems, each with the key path it is about as a tuple
    (a dotted path is ambiguous when a key holds a dot): ``validate`` leaves out exactly
    the broken parts and still checks the rest."""
    spec = Spec(name="", data={}, file=file, chain=[], positions=positions, key_positions=key_positions)
    import jsonschema  # here: most commands never validate a spec's schema

    validator = jsonschema.Draft202012Validator(schema())
    problems: list[tuple[Path_, Problem]] = []
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = tuple(err.absolute_path)
        if "propertyNames" in err.absolute_schema_path and isinstance(err.instance, str):
            # a bad key: point at the key itself, not at the mapping that holds it
            key = err.instance
            what = "combo name" if path == ("combos",) else "key"
            kp = key_positions.get(path + (key,))
            message = (f"{what} {key!r} is not allowed: names are lower case letters, digits and _, "
                       f"starting with a letter" if err.validator == "pattern" else
                       f"{what} {brief(key, 60)}: {_schema_message(err)}")
            if kp is not None:
                excerpt = f"  {kp.source_line}\n  {' ' * (kp.location.column - 1)}^"
                problems.append((path + (key,), Problem(kp.location, dotted(path + (key,)), message,
                                                        excerpt)))
            else:
                problems.append((path + (key,), spec.problem(path, message)))
            continue
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = list(err.schema.get("properties", {}))
            for key in err.instance:
                if key in allowed:
                    continue
                hint = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                more = f" (did you mean {hint[0]!r}?)" if hint else f"; allowed: {', '.join(allowed)}"
                kp = key_positions.get(path + (key,))
                if kp is not None:
                    excerpt = f"  {kp.source_line}\n  {' ' * (kp.location.column - 1)}^"
                    problems.append((path + (key,), Problem(kp.location, dotted(path + (key,)),
                                                            f"unknown key {key!r}{more}", excerpt)))
                else:
                    problems.append((path + (key,), spec.problem(path, f"unknown key {key!r}{more}")))
            continue
        if err.validator == "oneOf" and path and path[0] == "combos":
            message = ("a combo is a pattern string, a mapping with 'pattern' "
                       "(and zh, description, compare), or null to remove it")
            inst = err.instance
            if isinstance(inst, dict):
                sub = _schema_at(schema(), path)
                allowed = list(sub.get("properties", {}))
                extra = [k for k in inst if k not in allowed]
                for key in extra:
                    hint = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                    more = f" (did you mean {hint[0]!r}?)" if hint else f"; allowed: {', '.join(allowed)}"
                    kp = key_positions.get(path + (key,))
                    loc_problem = (Problem(kp.location, dotted(path + (key,)), f"unknown key {key!r}{more}",
                                           f"  {kp.source_line}\n  {' ' * (kp.location.column - 1)}^")
                                   if kp else spec.problem(path, f"unknown key {key!r}{more}"))
                    problems.append((path + (key,), loc_problem))
                if extra:
                    continue
                if "pattern" not in inst:
                    message = "a combo mapping needs a 'pattern'"
                else:  # a bad value inside the mapping (compare: [size, colour]): at that value
                    inner = innermost_error(err)
                    at = tuple(inner.absolute_path)
                    problems.append((at, spec.problem(at, schema_words(inner))))
                    continue
            problems.append((path, spec.problem(path, message)))
            continue
        inner = innermost_error(err)
        at = tuple(inner.absolute_path)
        problems.append((at, spec.problem(at, schema_words(inner))))
    return problems


#: a schema pattern in words (the regex itself never reaches a user): what a value of it is
PATTERN_WORDS: dict[str, str] = {
    r"^\s*(10|[3-9TJQKA2XD])+\s*$": "cards, one character a card: 3-9, T (or 10), J, Q, K, A, 2, X (small "
                                     "joker), D (big joker), e.g. \"222A\"",
    r"^(10|[3-9TJQKA2XD])$": "one rank: 3-9, T (or 10), J, Q, K, A, 2, X (small joker) or D (big joker)",
    r"^\s*\S+\s*\.\.\s*\S+\s*$": "a range of ranks, low..high, e.g. 3..A",
    r"^\s*\S{1,2}\s*$": "one rank, e.g. 3 or 10",
    r"^[a-z0-9][a-z0-9/_-]*$": "a name of lower case letters, digits, _, - and /, starting with a letter or digit",
    r"^[a-z][a-z0-9_]*$": "a name of lower case letters, digits and _, starting with a letter",
}
#: card suits, which no spec writes yet (a deck's cards are ranks): said so where one is met
SUITS = "♠♥♣♦♤♡♧♢"
_TYPE_WORDS = {"string": "a string", "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "object": "a mapping", "array": "a list", "null": "null"}


def _type_word(value: Any) -> str:
    kind = {bool: "boolean", int: "integer", float: "number", str: "string", dict: "object",
            list: "array", type(None): "null"}.get(type(value), "value")
    return _TYPE_WORDS.get(kind, kind)


def innermost_error(err: Any) -> Any:
    """The error a person must fix, from a ``oneOf``/``anyOf`` one: the branch whose type is
    the value's (a mapping's branch for a mapping), then that branch's deepest error, so that
    ``compare: [size, colour]`` is about ``colour``, not the combo's ``{``. An error with
    no such branch (the value is of no branch's type) stays what it is."""
    while err.validator in ("oneOf", "anyOf") and err.context:
        branches: dict[Any, list[Any]] = {}
        for sub in err.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        typed = [errs for errs in branches.values()
                 if not any(e.validator == "type" and not e.relative_path for e in errs)]
        if len(typed) != 1:
            return err
        err = max(typed[0], key=lambda e: len(e.absolute_path))
    return err


def schema_words(err: Any) -> str:
    """What is wrong with the value of one schema error, in words: the allowed values, the
    form a pattern stands for (:data:`PATTERN_WORDS`), the type wanted; never a regex.
    Values quoted are clipped (:func:`brief`)."""
    value, kind, expected = err.instance, err.validator, err.validator_value
    shown = brief(value, 60)
    if kind == "pattern":
        form = PATTERN_WORDS.get(str(expected), "")
        description = str(err.schema.get("description") or "")
        if isinstance(value, str) and any(ch in SUITS for ch in value):
            # what works today: the rank alone, and whatever the key's own description offers
            return (f"{shown}: a spec has no suits yet (ranks only): write the rank alone, e.g. "
                    f"{brief(''.join(ch for ch in value if ch not in SUITS), 60)}"
                    + "".join(f"; {t}" for t in (form, description) if t))
        return f"{shown} is not " + (form or description or "of the form this key takes")
    if kind == "enum":
        allowed = ", ".join(brief(v, 30) for v in expected)
        hint = difflib.get_close_matches(str(value), [str(v) for v in expected], n=1, cutoff=0.6)
        more = f" (did you mean {hint[0]!r}?)" if hint and isinstance(value, str) else ""
        return f"{shown} is not one of: {allowed}{more}"
    if kind == "const":
        return f"{shown}: only {brief(expected, 30)} is allowed here"
    if kind == "type":
        wanted = [expected] if isinstance(expected, str) else list(expected)
        return (("no value (null)" if value is None else f"{shown} is {_type_word(value)}") + "; this key takes "
                + " or ".join(_TYPE_WORDS.get(str(w), str(w)) for w in wanted))
    if kind in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        sign = {"minimum": "at least", "exclusiveMinimum": "more than", "maximum": "at most",
                "exclusiveMaximum": "less than"}[kind]
        return f"{shown} is out of range: it must be {sign} {expected}"
    if kind == "minItems":
        return f"{shown}: at least {expected} item{'s' if expected != 1 else ''} needed"
    if kind == "maxItems":
        return f"{shown}: at most {expected} item{'s' if expected != 1 else ''} allowed"
    if kind == "uniqueItems":
        return f"{shown}: an item is repeated; each may appear once"
    if kind == "minProperties":
        return f"{shown}: give at least {expected} key{'s' if expected != 1 else ''}"
    if kind == "minLength":
        return f"{shown}: too short (at least {expected} character{'s' if expected != 1 else ''})"
    if kind == "maxLength":
        return f"{shown}: too long (at most {expected} characters)"
    return _schema_message(err)


def _schema_message(err: Any) -> str:
    """A schema error's message with the value it quotes clipped (jsonschema quotes it
    whole: a list of 20,000 items made a message of 60,000 characters)."""
    message: str = err.message
    whole = brief(err.instance, 10**6)
    return message.replace(whole, brief(err.instance, 60), 1) if len(whole) > 60 else message
