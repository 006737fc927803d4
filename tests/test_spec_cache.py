"""The spec-level cache entries (parsed patterns, "this file text passed its checks"
marks): untrusted like the table cache, keyed by content, and never written for a
broken spec. See docs/security.md."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import ddzrules
from ddzrules import spec as spec_module
from ddzrules.cache import CacheWarning, _digest
from ddzrules.errors import SpecError

PARENT = """
name: base
deal: {hand: 17, kitty: 3}
combos:
  single: "1"
  pair: "2"
  trio_single: "3 + 1"
  straight: "1{5..} in 3..A"
  bomb: "4"
  rocket: "<XD>"
bombs: [bomb, rocket]
"""

CHILD = """
name: child
extends: base.yaml
combos:
  pair_chain: "2{3..} in 3..A"
"""


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def answers(v: ddzrules.Variant) -> tuple[object, ...]:
    return (v.combo_names, v.census(), v.classify("33"), v.classify("334455"), v.classify("3334"),
            len(v.legal_moves("3344556789TJQKA2X")))


def entries(cache: Path, prefix: str) -> list[Path]:
    return sorted(cache.glob(f"{prefix}-*")) if cache.exists() else []


def resign(path: Path, body: bytes) -> None:
    """Write ``body`` into the entry with a digest that checks (an attacker holding the key)."""
    key = (path.parent / "key").read_bytes()
    path.write_bytes(_digest(key, path.name, body) + b"\n" + body)


def payload(path: Path) -> bytes:
    return path.read_bytes().partition(b"\n")[2]


def load_quietly(path: Path) -> ddzrules.Variant:
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        return ddzrules.load_variant(path)


@pytest.fixture()
def specs(tmp_path: Path) -> Path:
    write(tmp_path / "base.yaml", PARENT)
    return write(tmp_path / "child.yaml", CHILD)


def test_entries_written_and_served(cache: Path, specs: Path) -> None:
    first = answers(ddzrules.load_variant(specs))
    assert len(entries(cache, "patterns")) == 1
    assert len(entries(cache, "spec")) == 2  # one mark a file of the chain
    assert answers(load_quietly(specs)) == first


@pytest.mark.parametrize("edit", [
    lambda d: d["asts"][1][0][0].__setitem__(1, 3),                 # pair's count 2 -> 3
    lambda d: d["asts"][1][0][0].__setitem__(2, 3),                 # pair -> 2..3
    lambda d: d["asts"][3][0][0].__setitem__(4, ["3", "K", [1, 12], [1, 15]]),  # straight bound
    lambda d: d["asts"][2][0][1][0].__setitem__(0, 2),              # kicker 1 -> 2 cards
    lambda d: d["asts"][2][0][1].clear(),                           # kicker dropped
    lambda d: d["asts"][1].append(d["asts"][0][0]),                 # alternative added
    lambda d: d["asts"].__setitem__(0, None),                       # single left to parse
    lambda d: d["texts"].reverse(),
    lambda d: d.__setitem__("asts", "x"),
])
def test_tampered_pattern_entry_is_rebuilt(cache: Path, specs: Path, edit) -> None:
    first = answers(ddzrules.load_variant(specs))
    (path,) = entries(cache, "patterns")
    data = json.loads(payload(path))
    edit(data)
    resign(path, json.dumps(data).encode())
    if data["asts"] != "x" and data["asts"][0] is None and data["texts"][0] == "1":
        v = ddzrules.load_variant(specs)  # a null AST is parsed again: no warning needed
    else:
        with pytest.warns(CacheWarning):
            v = ddzrules.load_variant(specs)
    assert answers(v) == first
    assert answers(load_quietly(specs)) == first  # rewritten good


@pytest.mark.parametrize("body", [b"", b"0" * 64, b"not json", b"[]", b'{"texts": [], "asts": []}'])
def test_corrupted_pattern_entry_is_rebuilt(cache: Path, specs: Path, body: bytes) -> None:
    first = answers(ddzrules.load_variant(specs))
    (path,) = entries(cache, "patterns")
    path.write_bytes(path.read_bytes()[:64] + b"\n" + body)  # the old digest: refused
    with pytest.warns(CacheWarning):
        assert answers(ddzrules.load_variant(specs)) == first
    resign(path, body)  # a digest that checks: the structure check refuses it
    with pytest.warns(CacheWarning):
        assert answers(ddzrules.load_variant(specs)) == first


def test_tampered_mark_is_refused(cache: Path, specs: Path) -> None:
    first = answers(ddzrules.load_variant(specs))
    for path in entries(cache, "spec"):
        resign(path, b"0" * 64)  # a mark of another text
    with pytest.warns(CacheWarning):
        assert answers(ddzrules.load_variant(specs)) == first
    assert answers(load_quietly(specs)) == first


def test_changed_parent_is_checked_again(cache: Path, specs: Path) -> None:
    ddzrules.load_variant(specs)
    base = specs.parent / "base.yaml"
    text = base.read_text()
    base.write_text(text.replace("kitty: 3}", "kitty: 3, colour: red}"))
    with pytest.raises(SpecError) as e:
        load_quietly(specs)
    assert "unknown key 'colour'" in str(e.value)
    assert "base.yaml:2:" in str(e.value)
    base.write_text(text.replace('pair: "2"', 'pair: "2 + 1"'))
    v = load_quietly(specs)
    assert [m.combo for m in v.classify("334")] == ["pair"]


def test_changed_spec_is_checked_again(cache: Path, specs: Path) -> None:
    ddzrules.load_variant(specs)
    text = specs.read_text()
    specs.write_text(text.replace('"2{3..} in 3..A"', '"2{3..} in 3..A"\n  Pair: "2"'))
    with pytest.raises(SpecError) as e:
        load_quietly(specs)
    assert "combo name 'Pair' is not allowed" in str(e.value)
    assert "child.yaml:5:3" in str(e.value)
    specs.write_text(text.replace('"2{3..} in 3..A"', '"2{4..} in 3..A"'))
    v = load_quietly(specs)
    assert v.classify("334455") == ()
    assert [m.combo for m in v.classify("33445566")] == ["pair_chain"]


@pytest.mark.parametrize("broken, message", [
    ('pair_chain: "2{3..} in 3..Q"\n  bad: "2{"', "pattern syntax"),
    ('pair_chain: "2{3..} in 3..Z"', "Z"),
    ('pair_chain: "2{3..} in 3..A"\n  pairs: "2"', "identical"),
])
def test_broken_spec_is_never_cached(cache: Path, tmp_path: Path, broken: str, message: str) -> None:
    write(tmp_path / "base.yaml", PARENT)
    spec = write(tmp_path / "child.yaml", CHILD.replace('pair_chain: "2{3..} in 3..A"', broken))
    errors = []
    for _ in range(2):
        with pytest.raises(SpecError) as e:
            load_quietly(spec)
        errors.append(str(e.value))
    assert message in errors[0] and errors[0] == errors[1]
    assert "child.yaml:" in errors[0]
    assert entries(cache, "patterns") == [] and entries(cache, "spec") == []


def test_warm_load_imports_neither_lark_nor_jsonschema(cache: Path) -> None:
    code = ("import sys, ddzrules; v = ddzrules.load_variant('hubei-3p'); v.classify('33'); "
            "print(sorted({'lark', 'jsonschema'} & set(sys.modules)))")
    env = dict(os.environ, DDZRULES_CACHE_DIR=str(cache))
    env.pop("DDZRULES_NO_CACHE", None)
    run = [sys.executable, "-c", code]
    cold = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    warm = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    assert "lark" in cold
    assert warm.strip() == "[]"


def test_pattern_not_in_canonical_spelling_is_parsed_again(cache: Path, tmp_path: Path) -> None:
    """``3 + 1*1`` reads like ``3 + 1`` but is not written back the same: it is cached as
    null and parsed on every load, the other patterns still served."""
    spec = write(tmp_path / "s.yaml", PARENT.replace('"3 + 1"', '"3 + 1*1"'))
    first = answers(ddzrules.load_variant(spec))
    (path,) = entries(cache, "patterns")
    asts = json.loads(payload(path))["asts"]
    assert asts[2] is None and None not in asts[:2] + asts[3:]
    assert answers(load_quietly(spec)) == first


READER_SAMPLES = [
    'name: a\r\ncombos:\r\n  x: "1 +\r\n    2"\r\n  y: >\r\n    a b\r\n    c\r\n',
    "name: 中文\nzh: \"斗地主 \\u4e2d\"\ncombos: {a: 'it''s', b: [1, 2.5, null, true, 2001-01-01]}\n",
    "name: t\ncombos:\n  a: |2\n      indented\n    less\n  b: |-\n    x\n\n    y\n",
    '# c\n---\nname: "q\\\n  r"\nlist:\n- a\n-   - b\n    - c\n',
    "name: 𝔘nicode ☃\nx: \"𝔘𝔘 y\"\nz: 𝔘 plain 𝔘\n",
]


@pytest.mark.parametrize("text", READER_SAMPLES + [p.read_text(encoding="utf-8") for p in
                                                   sorted(Path(spec_module.bundled_root()).rglob("*.yaml"))])
def test_checked_text_reads_the_same(text: str) -> None:
    """A checked text is composed by libyaml: the same data and every position as the
    pure-Python loader (the positions later errors quote)."""
    slow = spec_module._read_yaml(text, "f.yaml")
    fast = spec_module._read_yaml(text, "f.yaml", check_events=False)
    assert fast == slow
    for i in (1, 2):
        for path, src in slow[i].items():
            assert (src.raw, src.value, src.lines) == (fast[i][path].raw, fast[i][path].value, fast[i][path].lines)
