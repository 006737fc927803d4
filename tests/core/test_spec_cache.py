"""The spec-level cache entries (the resolved spec; parsed patterns, "this file text
passed its checks" marks): untrusted like the table cache, keyed by content, and never
written for a broken spec. See docs/security.md."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import ddzrules
from ddzrules import spec as spec_module
from ddzrules.errors import SpecError
from ddzrules.speed.cache import CacheWarning, _digest
from ddzrules.speed.memo import LastUsed

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


def drop_resolved(cache: Path) -> None:
    """Remove the resolved-spec entries, so that the next load reads the per-file entries
    (as when the spec asked for changed but its parents and patterns did not)."""
    for path in entries(cache, "resolved"):
        path.unlink()


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
    assert len(entries(cache, "resolved")) == 1  # the spec asked for, parents merged
    assert answers(load_quietly(specs)) == first
    drop_resolved(cache)
    assert answers(load_quietly(specs)) == first  # from the marks and the patterns
    assert len(entries(cache, "resolved")) == 1  # written again


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
    drop_resolved(cache)
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
    drop_resolved(cache)
    assert answers(load_quietly(specs)) == first  # rewritten good


@pytest.mark.parametrize("body", [b"", b"0" * 64, b"not json", b"[]", b'{"texts": [], "asts": []}'])
def test_corrupted_pattern_entry_is_rebuilt(cache: Path, specs: Path, body: bytes) -> None:
    first = answers(ddzrules.load_variant(specs))
    drop_resolved(cache)
    (path,) = entries(cache, "patterns")
    path.write_bytes(path.read_bytes()[:64] + b"\n" + body)  # the old digest: refused
    with pytest.warns(CacheWarning):
        assert answers(ddzrules.load_variant(specs)) == first
    drop_resolved(cache)
    resign(path, body)  # a digest that checks: the structure check refuses it
    with pytest.warns(CacheWarning):
        assert answers(ddzrules.load_variant(specs)) == first


def test_tampered_mark_is_refused(cache: Path, specs: Path) -> None:
    first = answers(ddzrules.load_variant(specs))
    drop_resolved(cache)
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
    assert entries(cache, "patterns") == [] and entries(cache, "spec") == [] and entries(cache, "resolved") == []


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
    slow = spec_module.read_yaml(text, "f.yaml")
    fast = spec_module.read_yaml(text, "f.yaml", check_events=False)
    assert fast == slow
    for i in (1, 2):
        for path, src in slow[i].items():
            assert (src.raw, src.value, src.lines) == (fast[i][path].raw, fast[i][path].value, fast[i][path].lines)


# ---------------------------------------------------------------- the resolved spec


def resolved_entry(cache: Path) -> Path:
    (path,) = entries(cache, "resolved")
    return path


def same_positions(a: spec_module.Spec, b: spec_module.Spec) -> None:
    assert a.positions == b.positions and a.key_positions == b.key_positions
    for mine, theirs in ((a.positions, b.positions), (a.key_positions, b.key_positions)):
        for path, src in mine.items():
            assert (src.raw, src.value, src.lines) == (theirs[path].raw, theirs[path].value, theirs[path].lines)


@pytest.mark.parametrize("name", ["hubei-3p", "laizi", "crown-3p", "compat/douzero"])
def test_served_spec_is_the_loaded_one(cache: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A warm load reads no YAML; the spec it gives has the data, chain and (worked out
    when first asked for) positions of a load from the files."""
    cold = ddzrules.load_variant(name)
    assert len(entries(cache, "resolved")) == 1

    def no_yaml(*args: object, **kwargs: object) -> None:
        raise AssertionError("a warm load read YAML")

    with monkeypatch.context() as m:
        m.setattr(spec_module, "read_yaml", no_yaml)
        warm = load_quietly(name)
        assert warm.spec.served is not None
        assert (warm.spec.name, warm.spec.data, warm.spec.file, warm.spec.chain) == \
            (cold.spec.name, cold.spec.data, cold.spec.file, cold.spec.chain)
        assert list(warm.spec.data) == list(cold.spec.data)  # key order: combos keep their order
        assert warm.rules.content_hash == cold.rules.content_hash and warm.combo_names == cold.combo_names
        assert answers(warm) == answers(cold)
    same_positions(warm.spec, cold.spec)
    path = ("combos", cold.combo_names[-1])
    assert warm.spec.problem(path, "x") == cold.spec.problem(path, "x")
    assert spec_module.load_spec(name).served is not None  # load_spec alone is served too


def test_warm_load_skips_the_cost_checks_under_the_same_limit(cache: Path, specs: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The cost bounds are a function of the resolved data and the limit: a spec served
    from the cache was checked under the limit its entry names, so they are not worked out
    again, and a lower limit checks them (and refuses, with the position)."""
    from ddzrules.rules.compiler import _Compiler

    cold_error = None
    monkeypatch.setenv("DDZRULES_MAX_ENUMERATION", "100")
    with pytest.raises(SpecError) as e:
        ddzrules.load_variant(specs)
    cold_error = str(e.value)
    assert "too large to enumerate" in cold_error and "base.yaml:" in cold_error
    monkeypatch.delenv("DDZRULES_MAX_ENUMERATION")
    first = answers(ddzrules.load_variant(specs))
    checked = []
    real = _Compiler.check_costs
    monkeypatch.setattr(_Compiler, "check_costs", lambda self, *a: checked.append(1) or real(self, *a))
    assert answers(load_quietly(specs)) == first
    assert checked == []
    monkeypatch.setenv("DDZRULES_MAX_ENUMERATION", "100")
    with pytest.raises(SpecError) as e:
        load_quietly(specs)
    assert checked == [1] and str(e.value) == cold_error
    monkeypatch.setenv("DDZRULES_MAX_ENUMERATION", "2000000")
    assert answers(load_quietly(specs)) == first  # checked, then the entry says so
    assert answers(load_quietly(specs)) == first
    assert checked == [1, 1]


def test_lower_depth_limit_refuses_a_served_spec(cache: Path, specs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ddzrules.load_variant(specs)
    monkeypatch.setenv("DDZRULES_MAX_SPEC_DEPTH", "1")
    with pytest.raises(SpecError, match="nested more than 1 levels deep"):
        load_quietly(specs)


def test_moved_parent_is_not_served(cache: Path, specs: Path, tmp_path: Path) -> None:
    """The entry names each parent's file and text: a parent found elsewhere now (or
    gone) is another chain, loaded from the files with no warning."""
    first = answers(ddzrules.load_variant(specs))
    other = tmp_path / "other"
    other.mkdir()
    write(other / "base.yaml", PARENT.replace('pair: "2"', 'pair: "2 + 1"'))
    moved = other / "child.yaml"
    moved.write_text(specs.read_text())
    v = load_quietly(moved)
    assert [m.combo for m in v.classify("334")] == ["pair"]
    (specs.parent / "base.yaml").unlink()
    with pytest.raises(SpecError, match="base.yaml"):
        load_quietly(specs)
    write(specs.parent / "base.yaml", PARENT)
    assert answers(load_quietly(specs)) == first


def _deep(n: int) -> object:
    value: object = 1
    for _ in range(n):
        value = {"x": value}
    return value


RESOLVED_EDITS = {
    "chain of another file": lambda d: d["chain"][0].__setitem__(0, "/elsewhere/child.yaml"),
    "digest of another text": lambda d: d["chain"][0].__setitem__(2, "0" * 64),
    "chain cut short": lambda d: d["chain"].pop(),
    "chain link not a list": lambda d: d["chain"].__setitem__(1, "base.yaml"),
    "chain link too short": lambda d: d["chain"][1].pop(),
    "no chain": lambda d: d.__setitem__("chain", []),
    "name not a string": lambda d: d["data"].__setitem__("name", 3),
    "extends left in": lambda d: d["data"].__setitem__("extends", "base.yaml"),
    "data nested too deeply": lambda d: d["data"].__setitem__("deal", _deep(40)),
    "data not a mapping": lambda d: d.__setitem__("data", ["name"]),
    "a key more": lambda d: d.__setitem__("more", 1),
    "extras of another kind": lambda d: d["extras"].__setitem__("more", 1),
    "costs not a number": lambda d: d["extras"].__setitem__("costs", "1000000"),
    "no costs": lambda d: d["extras"].pop("costs"),
    "pattern AST edited": lambda d: d["extras"]["patterns"]["asts"][1][0][0].__setitem__(1, 3),
    "pattern kicker dropped": lambda d: d["extras"]["patterns"]["asts"][2][0][1].clear(),
    "pattern texts reordered": lambda d: d["extras"]["patterns"]["texts"].reverse(),
    "patterns not a mapping": lambda d: d["extras"].__setitem__("patterns", "x"),
}


@pytest.mark.parametrize("name", list(RESOLVED_EDITS))
def test_tampered_resolved_entry_is_rebuilt(cache: Path, specs: Path, name: str) -> None:
    """Edits the structure checks refuse even under a digest that checks (as if the key
    had leaked): a warning, the spec loaded from its files, the entry written good again."""
    first = answers(ddzrules.load_variant(specs))
    path = resolved_entry(cache)
    data = json.loads(payload(path))
    RESOLVED_EDITS[name](data)
    resign(path, json.dumps(data).encode())
    with pytest.warns(CacheWarning, match="rebuilding"):
        assert answers(ddzrules.load_variant(specs)) == first
    v = load_quietly(specs)
    assert answers(v) == first and v.spec.served is not None


@pytest.mark.parametrize("damage", ["flip", "cut", "old digest", "not json", "deep json"])
def test_damaged_resolved_entry_is_rebuilt(cache: Path, specs: Path, damage: str) -> None:
    first = answers(ddzrules.load_variant(specs))
    path = resolved_entry(cache)
    raw = bytearray(path.read_bytes())
    if damage == "flip":
        raw[len(raw) // 2] ^= 0x20
    elif damage == "cut":
        del raw[len(raw) // 2:]
    elif damage == "old digest":
        raw[65:] = json.dumps({"chain": [], "data": {}, "extras": {}}).encode()
    path.write_bytes(bytes(raw))
    if damage == "not json":
        resign(path, b"\xff not json")
    elif damage == "deep json":
        resign(path, b"[" * 100000 + b"]" * 100000)
    with pytest.warns(CacheWarning, match="rebuilding"):
        assert answers(ddzrules.load_variant(specs)) == first
    assert answers(load_quietly(specs)) == first


def test_an_error_after_a_warm_load_has_its_position(cache: Path, specs: Path) -> None:
    """Positions are worked out from the texts the spec was served for: a problem found
    later (a game rule, a plugin parameter) points into the right file."""
    cold = ddzrules.load_variant(specs)
    warm = load_quietly(specs)
    assert warm.spec.served is not None
    for path in [("combos", "pair_chain"), ("combos", "pair"), ("deal", "hand"), ("bombs", 1), ("nothing",)]:
        assert str(warm.spec.problem(path, "x", (1, 2))) == str(cold.spec.problem(path, "x", (1, 2)))
    assert "child.yaml:4:" in str(warm.spec.problem(("combos", "pair_chain"), "x"))
    assert "base.yaml:" in str(warm.spec.problem(("combos", "pair"), "x"))


def test_with_the_cache_off_a_table_is_kept_in_memory_by_what_it_is_made_of(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The playground validates drafts with the disk cache off: a draft whose combos did
    not change reads its universe table from memory; a changed combo, deck or limit makes
    a new one; nothing is written to disk."""
    from ddzrules.rules import variant as variant_module
    from ddzrules.speed import cache as cache_module

    built: list[str] = []
    real = variant_module.Variant._universe_idents

    def counted(self: variant_module.Variant) -> object:
        built.append(self.name)
        return real(self)

    monkeypatch.setattr(variant_module.Variant, "_universe_idents", counted)
    monkeypatch.setattr(variant_module, "_TABLES", LastUsed(variant_module.TABLES_KEPT))
    (tmp_path / "base.yaml").write_text(PARENT, "utf-8")
    drafts = {
        "a": "name: a\nextends: base.yaml\n",
        "b": "name: b\nextends: base.yaml\ntitle: {en: B}\n",  # other words, the same combos
        "c": "name: c\nextends: base.yaml\ncombos:\n  pairs: \"2{3..} in 3..A\"\n",  # one combo more
    }
    with cache_module.disabled():
        answers = {}
        for name, text in drafts.items():
            (tmp_path / f"{name}.yaml").write_text(text, "utf-8")
            v = ddzrules.load_variant(tmp_path / f"{name}.yaml")
            answers[name] = (v.census().total, [m.cards for m in v.legal_moves("334455XD")])
        monkeypatch.setattr(variant_module, "TABLE_LIMIT", 10)  # a limit is part of the key
        assert ddzrules.load_variant(tmp_path / "a.yaml").census().total == answers["a"][0]
    assert built == ["a", "c", "a"]
    assert answers["a"] == answers["b"] and answers["c"][0] > answers["a"][0]
    assert "334455" in answers["c"][1] and "334455" not in answers["a"][1]
    assert not any(tmp_path.glob("**/*.bin"))


@pytest.mark.parametrize("edit", ["twice", "nan"])
@pytest.mark.parametrize("kind", ["resolved", "patterns"])
def test_entries_are_read_as_strict_json(cache: Path, specs: Path, edit: str, kind: str) -> None:
    """An entry is read under the one strict-JSON policy (ddzrules.untrusted): a key given
    twice (the plain reader takes the last) or a NaN, under a digest that checks, is
    refused with the policy's reason, and the spec loaded from its files."""
    first = answers(ddzrules.load_variant(specs))
    if kind == "patterns":
        drop_resolved(cache)  # else the resolved entry is served and the pattern entry never read
    (path,) = entries(cache, kind)
    body = payload(path)
    bad = re.sub(rb'^\{("\w+"):', rb"{\1: 0, \1:", body) if edit == "twice" else body.replace(b"[1,", b"[NaN,", 1)
    assert bad != body
    resign(path, bad)
    with pytest.warns(CacheWarning, match="appears twice" if edit == "twice" else "NaN is not a JSON number"):
        assert answers(ddzrules.load_variant(specs)) == first


def test_a_resolved_entry_holds_any_integer_a_spec_does(cache: Path, tmp_path: Path) -> None:
    """A spec's YAML reads integers longer than other untrusted JSON may hold: its entry is
    still served, without a warning."""
    path = write(tmp_path / "big.yaml", """
        extends: hubei-3p
        name: big
        game:
          settlement: {plugin: stake-settlement, params: {per_farmer: 123456789012345678901234567890}}
        """)
    ddzrules.load_variant(path)
    v = load_quietly(path)
    assert v.spec.served is not None
    assert v.spec.data["game"]["settlement"]["params"]["per_farmer"] == 123456789012345678901234567890
