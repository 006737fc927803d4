"""Conformance suites: generation (complete, deterministic, schema-valid), runs against the
ddzrules engine (its own spec passes, another spec fails exactly where the rules differ),
broken adapters caught with the right witness, perft by hand, and bad suites."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ddzrules import cards as C
from ddzrules import load_variant
from ddzrules.cli import main
from ddzrules.conformance import (
    CATEGORIES,
    Position,
    SuiteError,
    generate,
    load_manifest,
    perft,
    read_vectors,
    write_suite,
)
from ddzrules.conformance.run import junit_xml, run_suite
from ddzrules.engines import MovesAnswer
from ddzrules.engines.native import NativeEngine


@pytest.fixture(scope="module")
def hubei_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("hubei-suite")
    write_suite(generate(load_variant("hubei-3p"), level="standard", seed=3), d)
    return d


@pytest.fixture(scope="module")
def smoke_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("smoke-suite")
    write_suite(generate(load_variant("hubei-3p"), level="smoke", seed=1), d)
    return d


def vectors(d: Path, category: str) -> list[dict[str, Any]]:
    return read_vectors(d, load_manifest(d), category)


# ---------------------------------------------------------------- generation


def test_same_spec_seed_level_give_byte_identical_files(tmp_path: Path) -> None:
    v = load_variant("laizi")
    a, b = tmp_path / "a", tmp_path / "b"
    write_suite(generate(v, level="smoke", seed=5), a)
    write_suite(generate(load_variant("laizi"), level="smoke", seed=5), b)
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    assert len(names) == 1 + len(CATEGORIES)
    for n in names:
        assert (a / n).read_bytes() == (b / n).read_bytes(), n
    c = tmp_path / "c"
    write_suite(generate(v, level="smoke", seed=6), c)
    assert (a / "moves.jsonl").read_bytes() != (c / "moves.jsonl").read_bytes()


def test_manifest_carries_the_resolved_spec(hubei_suite: Path) -> None:
    m = load_manifest(hubei_suite)
    v = load_variant("hubei-3p")
    assert m["spec"] == "hubei-3p" and m["spec_hash"] == v.spec.content_hash
    assert m["spec_resolved"] == v.spec.data
    assert m["level"] == "standard" and m["seed"] == 3
    for c in CATEGORIES:
        assert m["counts"][c] == len(vectors(hubei_suite, c))


def test_classify_covers_every_combo_at_its_boundaries(hubei_suite: Path) -> None:
    v = load_variant("hubei-3p")
    vs = vectors(hubei_suite, "classify")
    covers = {c for x in vs for c in x["covers"].split(", ")}
    for name in v.combo_names:
        assert any(c.startswith(name + "/") for c in covers), name
    # chains: shortest and longest, lowest and highest, ending at A, running into 2
    for tag in ("straight/shortest-lowest", "straight/longest-highest", "pair_chain/shortest-ends-at-A",
                "straight/shortest-runs-into-2", "plane_wings/near-miss"):
        assert tag in covers, tag
    by_cover = {c: x for x in vs for c in x["covers"].split(", ")}
    assert by_cover["straight/shortest-lowest"]["cards"] == "34567"
    assert by_cover["straight/longest-highest"]["cards"] == "3456789TJQKA"
    into_two = by_cover["straight/shortest-runs-into-2"]
    assert into_two["cards"] == "JQKA2" and into_two["expect"] == {"play": False, "readings": []}
    # every expectation is what the spec says, and near misses are no plays
    for x in vs:
        readings = v.classify(x["cards"])
        assert x["expect"]["play"] == bool(readings)
        if x["covers"].endswith("near-miss"):
            assert not readings


def test_card_sets_with_several_readings_list_all_of_them() -> None:
    v = load_variant("compat/douzero")  # 333444555666: a plane, and a plane with single wings
    vs = generate(v, level="smoke", seed=1).vectors["classify"]
    several = [x for x in vs if "readings/several" in x["covers"]]
    assert len(several) == 20
    for x in several:
        assert len(x["expect"]["readings"]) == len({(m.combo, m.rank, m.length)
                                                    for m in v.classify(x["cards"])}) > 1


def test_compare_covers_every_pair_of_combo_classes_and_bomb_tiers(hubei_suite: Path) -> None:
    v = load_variant("hubei-3p")
    vs = vectors(hubei_suite, "compare")
    pairs = {x["covers"].split("/")[0] for x in vs}
    for a in v.combo_names:
        for b in v.combo_names:
            if a != b:
                assert f"{a}-vs-{b}" in pairs, (a, b)
    assert any(x["covers"] == "bomb-vs-rocket/tier-0-vs-tier-1" and not x["expect"]["a_beats_b"]
               and x["expect"]["b_beats_a"] for x in vs)
    equal = [x for x in vs if x["covers"].endswith("/equal-rank")]
    assert equal and all(not x["expect"]["a_beats_b"] and not x["expect"]["b_beats_a"] for x in equal)
    for x in vs:
        assert x["expect"]["a_beats_b"] == v.beats(x["a"], x["b"])


def test_moves_hard_hands_and_wild_vectors(tmp_path: Path) -> None:
    suite = generate(load_variant("laizi"), level="smoke", seed=2)
    covers = [x["covers"] for x in suite.vectors["moves"]]
    for tag in ("hard/plane-heavy", "hard/many-bombs", "hard/both-jokers", "wild/lead", "wild/answer"):
        assert any(c.startswith(tag) for c in covers), tag
    wild = [x for x in suite.vectors["moves"] if "wild" in x]
    assert wild and all(x["hand"].count(x["wild"]) >= 1 for x in wild)
    assert any("wild" in x for x in suite.vectors["classify"])
    assert any("wild" in x for x in suite.vectors["compare"])


def test_vectors_with_two_wild_ranks(tmp_path: Path) -> None:
    # 天地癞子: every wild vector names both ranks, and the suite passes against ddzrules
    v = load_variant("tiandi-laizi")
    suite = generate(v, level="smoke", seed=1)
    wild = [x for c in ("classify", "compare", "moves") for x in suite.vectors[c] if "wild" in x]
    assert wild and all(len(x["wild"].split(",")) == 2 for x in wild)
    moves = [x for x in suite.vectors["moves"] if "wild" in x]
    # the hands hold cards of either wild rank, some of both
    assert all(any(r in x["hand"] for r in x["wild"].split(",")) for x in moves)
    assert any(all(r in x["hand"] for r in x["wild"].split(",")) for x in moves)
    for x in suite.vectors["classify"]:
        if "wild" in x:
            assert x["expect"]["play"] == bool(v.classify(x["cards"], wild=x["wild"]))
    write_suite(suite, tmp_path / "s")
    r = CliRunner().invoke(main, ["conformance", "run", str(tmp_path / "s"), "--engine", "ddzrules"])
    assert r.exit_code == 0 and "0 failed" in r.output, r.output


def test_census_vectors_equal_the_census(smoke_suite: Path) -> None:
    c = load_variant("hubei-3p").census()
    got = {x["combo"]: x["expect"]["plays"] for x in vectors(smoke_suite, "census")}
    assert got.pop(None) == c.total == 12654
    assert got == c.by_combo


# ---------------------------------------------------------------- perft


def position(*hands: str, to_act: int = 0) -> Position:
    return Position([C.counts_of(C.parse_ranks(h)) for h in hands], to_act)


def test_perft_by_hand_passes_and_a_new_lead() -> None:
    v = load_variant("hubei-3p")
    pos = position("34", "5", "6")
    # leads 3, 4; 5 ends seat 1's hand, 6 ends seat 2's: only the pass lines go on
    assert perft(v, pos, 1) == (2, {"3": 1, "4": 1})
    assert perft(v, pos, 2) == (4, {"3": 2, "4": 2})
    assert perft(v, pos, 3)[0] == 4  # 3/4, pass, then 6 or pass
    # after two passes seat 0 leads again with its last card, ending the game at depth 4
    assert perft(v, pos, 4) == (2, {"3": 1, "4": 1})


def test_perft_vectors_are_consistent(smoke_suite: Path) -> None:
    v = load_variant("hubei-3p")
    for x in vectors(smoke_suite, "perft"):
        assert sum(x["expect"]["divide"].values()) == x["expect"]["nodes"]
        if x["depth"] == 1:
            hand = x["position"]["hands"][x["position"]["to_act"]]
            assert x["expect"]["nodes"] == len(v.legal_moves(hand))


# ---------------------------------------------------------------- runs


def test_own_spec_passes_everything(hubei_suite: Path) -> None:
    report = run_suite(hubei_suite, "ddzrules")
    assert report.ok and not report.groups
    for c in CATEGORIES:
        assert report.counts[c]["failed"] == report.counts[c]["skipped"] == 0
        assert report.counts[c]["passed"] == load_manifest(hubei_suite)["counts"][c] > 0


def test_another_spec_fails_exactly_where_the_rules_differ(hubei_suite: Path) -> None:
    hubei, crown = load_variant("hubei-3p"), load_variant("crown-3p")
    report = run_suite(hubei_suite, "ddzrules", {"spec": "crown-3p"},
                       categories=["classify", "compare", "moves"])
    assert not report.ok
    failed = {o.vector_id: o for o in report.outcomes if o.status == "failed"}
    for x in vectors(hubei_suite, "moves"):
        a = {m.cards for m in hubei.legal_moves(x["hand"], after=x["after"])}
        b = {m.cards for m in crown.legal_moves(x["hand"], after=x["after"])}
        listed = {c.witness for c in failed[x["id"]].causes} if x["id"] in failed else set()
        assert listed == a ^ b, x["id"]
    for x in vectors(hubei_suite, "compare"):
        differs = crown.beats(x["a"], x["b"]) != hubei.beats(x["a"], x["b"]) or \
            crown.beats(x["b"], x["a"]) != hubei.beats(x["b"], x["a"])
        assert (x["id"] in failed) == differs
    for x in vectors(hubei_suite, "classify"):
        assert (x["id"] in failed) == (bool(crown.classify(x["cards"])) != bool(hubei.classify(x["cards"])))
    # crown-3p lets four take the two jokers: the group names it, with the smallest hand
    group = next(g for g in report.groups if g.category == "moves")
    assert group.kind == "a play the engine lists that is no combo"
    assert group.witness.startswith("6666XD from hand 6666XD") or group.witness.split(" ")[0].endswith("XD")


class DropsBombs(NativeEngine):
    """A broken engine: never lists or recognises a four-card bomb."""

    def moves(self, hand: str, after: str | None, wild: str | None) -> MovesAnswer:
        ans = super().moves(hand, after, wild)
        return MovesAnswer(frozenset(p for p in ans.plays if not (len(p) == 4 and len(set(p)) == 1)),
                           ans.can_pass)


class MisranksRocket(NativeEngine):
    """A broken engine: the rocket loses to the bomb of 2s."""

    def compare(self, a: str, b: str, wild: str | None) -> bool:
        if (a, b) == ("XD", "2222"):
            return False
        if (a, b) == ("2222", "XD"):
            return True
        return super().compare(a, b, wild)


class Raises(NativeEngine):
    def classify(self, cards: str, wild: str | None) -> Any:
        raise RuntimeError("adapter bug \x1b[31m")


def test_broken_adapter_that_drops_a_combo_is_caught(hubei_suite: Path) -> None:
    report = run_suite(hubei_suite, f"{__name__}:DropsBombs", categories=["moves"])
    assert not report.ok
    (group,) = report.groups
    assert (group.subject, group.kind) == ("bomb", "a legal play the engine does not list")
    play, _, rest = group.witness.partition(" from hand ")
    assert len(play) == 4 and len(set(play)) == 1
    assert rest.split(" ")[0] == play  # shrunk to the bomb itself


def test_broken_adapter_that_misranks_a_bomb_is_caught(tmp_path: Path) -> None:
    v = load_variant("hubei-3p")
    suite = generate(v, level="smoke", seed=1)
    suite.vectors["compare"].append({"id": "compare-999999", "a": "XD", "b": "2222",
                                     "expect": {"a_beats_b": True, "b_beats_a": False},
                                     "covers": "rocket-vs-bomb/tier-1-vs-tier-0"})
    write_suite(suite, tmp_path)
    report = run_suite(tmp_path, f"{__name__}:MisranksRocket", categories=["compare"])
    kinds = {(g.subject, g.kind, g.witness) for g in report.groups}
    assert ("rocket on bomb", "a beat the engine refuses", "XD on 2222") in kinds
    assert ("bomb on rocket", "a beat the engine allows", "2222 on XD") in kinds


def test_adapter_that_raises_fails_its_vectors_and_the_run_goes_on(smoke_suite: Path) -> None:
    report = run_suite(smoke_suite, f"{__name__}:Raises", categories=["classify", "census"])
    assert report.counts["classify"]["failed"] == report.counts["classify"]["passed"] + \
        report.counts["classify"]["failed"]
    assert report.counts["census"]["failed"] == 0
    (group,) = report.groups
    assert group.kind == "the engine raised an error" and "\x1b" not in group.detail


class OnlyClassify:
    """An adapter with one capability: the others must be reported as skipped."""

    name = "partial"
    classify = NativeEngine.classify

    def __init__(self, manifest: dict[str, Any], options: dict[str, str]) -> None:
        self.variant = load_variant("hubei-3p")


def test_missing_capability_is_skipped_not_passed(smoke_suite: Path) -> None:
    report = run_suite(smoke_suite, f"{__name__}:OnlyClassify")
    assert report.ok
    assert report.counts["classify"]["skipped"] == 0
    for c in ("compare", "moves", "census", "perft", "games"):
        assert report.counts[c]["passed"] == 0 and report.counts[c]["skipped"] > 0


def test_junit_and_json_reports(hubei_suite: Path) -> None:
    report = run_suite(hubei_suite, "ddzrules", {"spec": "crown-3p"}, categories=["moves", "census"])
    root = ET.fromstring(junit_xml(report))
    assert int(root.get("tests")) == len(report.outcomes)
    assert int(root.get("failures")) == sum(c["failed"] for c in report.counts.values()) > 0
    data = report.to_dict()
    json.dumps(data)
    assert data["ok"] is False and data["groups"] and data["failures"]


# ---------------------------------------------------------------- CLI and bad input


def test_cli_generate_and_run(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "s"
    r = runner.invoke(main, ["conformance", "generate", "compat/rlcard", "-o", str(out), "--level", "smoke"])
    assert r.exit_code == 0, r.output
    junit = tmp_path / "junit.xml"
    r = runner.invoke(main, ["conformance", "run", str(out), "--engine", "ddzrules", "--junit", str(junit)])
    assert r.exit_code == 0, r.output
    assert "PASS" in r.output and junit.exists()
    r = runner.invoke(main, ["conformance", "run", str(out), "--engine", "ddzrules", "--spec",
                             "compat/douzero", "--json"])
    assert r.exit_code == 1
    data = json.loads(r.output)
    subjects = {(g["category"], g["subject"]) for g in data["groups"]}
    assert ("census", "plane_solos") in subjects and ("census", "four_two") in subjects
    assert ("moves", "no combo of the spec") in subjects  # DouZero's extra plays, for RLCard's rules


def test_cli_schema_and_engines() -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["conformance", "schema", "manifest"])
    assert r.exit_code == 0 and json.loads(r.output)["properties"]["format"]["const"] == "ddzrules-suite/1"
    r = runner.invoke(main, ["conformance", "engines", "--json"])
    assert r.exit_code == 0
    assert {"ddzrules", "rlcard", "douzero", "openspiel"} <= {e["engine"] for e in json.loads(r.output)}


@pytest.mark.parametrize("damage, message", [
    ("missing", "not a suite directory"),
    ("no-manifest", "manifest.json: missing"),
    ("format", "suite format 'ddzrules-suite/99'"),
    ("tampered", "does not match the manifest's SHA-256"),
    ("bad-json", "not valid JSON"),
    ("bad-vector", "expect"),
    ("spec-edited", "does not match its spec_hash"),
])
def test_bad_suites_are_clear_errors(smoke_suite: Path, tmp_path: Path, damage: str, message: str) -> None:
    import hashlib
    import shutil

    d = tmp_path / "s"
    shutil.copytree(smoke_suite, d)
    manifest = json.loads((d / "manifest.json").read_text())

    def rewrite(name: str, data: bytes) -> None:
        (d / name).write_bytes(data)
        manifest["files"][name.split(".")[0]]["sha256"] = hashlib.sha256(data).hexdigest()

    if damage == "missing":
        shutil.rmtree(d)
    elif damage == "no-manifest":
        (d / "manifest.json").unlink()
    elif damage == "format":
        manifest["format"] = "ddzrules-suite/99"
    elif damage == "tampered":
        data = (d / "moves.jsonl").read_bytes()
        (d / "moves.jsonl").write_bytes(data.replace(b'"can_pass":false', b'"can_pass":true', 1))
    elif damage == "bad-json":
        rewrite("classify.jsonl", b'{"id": "classify-000001",\n')
    elif damage == "bad-vector":
        line = json.loads((d / "classify.jsonl").read_text().splitlines()[0])
        del line["expect"]
        rewrite("classify.jsonl", (json.dumps(line) + "\n").encode())
        manifest["files"]["classify"]["vectors"] = 1
    elif damage == "spec-edited":
        manifest["spec_resolved"]["deal"]["hand"] = 16
    if d.exists() and (d / "manifest.json").exists():
        (d / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SuiteError, match=message.replace("(", r"\(")) if damage != "spec-edited" \
            else pytest.raises(Exception, match=message):
        run_suite(d, "ddzrules")
    r = CliRunner().invoke(main, ["conformance", "run", str(d), "--engine", "ddzrules"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert message.split("'")[0] in r.output.replace("\n", " ") or message in r.output


@pytest.mark.parametrize("engine, message", [
    ("nosuchengine", "unknown engine 'nosuchengine'"),
    ("nosuchmodule_xyz:Engine", "--engine 'nosuchmodule_xyz:Engine': no module named 'nosuchmodule_xyz'"),
    ("ddzrules.cards:NoSuchClass", "ddzrules.cards has no 'NoSuchClass'"),
    ("ddzrules.cards:RANKS", "RANKS is not a class"),
    ("./no_such_file_xyz.py:Engine", "no file ./no_such_file_xyz.py"),
    # a class with no capability had every vector skipped, and the run passed
    ("ddzrules.errors:DdzError", "DdzError is not an engine adapter (it has none of the methods"),
    (f"{__name__}:NoArgs", "NoArgs is not an engine adapter (it is not built as Class(manifest, options))"),
])
def test_bad_engines_are_clear_errors(smoke_suite: Path, engine: str, message: str) -> None:
    r = CliRunner().invoke(main, ["conformance", "run", str(smoke_suite), "--engine", engine])
    assert r.exit_code == 1 and message in " ".join(r.output.split()) and "Traceback" not in r.output, r.output


@pytest.mark.parametrize("engine, args, message", [
    ("ddzrules", ["--option", "foo=bar"], "--option 'foo': the ddzrules engine has no such option (its options: spec)"),
    ("douzero", ["--option", "censu=deck"],
     "--option 'censu': the douzero engine has no such option (its options: census)"),
    ("rlcard", ["--option", "spec=x"], "--option 'spec': the rlcard engine has no such option (it takes no options)"),
    ("openspiel", ["--spec", "hubei-3p"],
     "--spec goes with --engine ddzrules: the openspiel engine answers by its own rules (it takes no options)"),
    ("ddzrules", ["--spec", "hubei-3p", "--option", "spec=laizi"],
     "--spec and --option spec=... both name the spec: give one"),
    # the last one won without a word
    ("ddzrules", ["--option", "spec=hubei-3p", "--option", "spec=laizi"], "--option 'spec' given twice: give it once"),
])
def test_an_option_the_engine_does_not_read_is_refused(smoke_suite: Path, engine: str, args: list[str],
                                                       message: str) -> None:
    # --option foo=bar was ignored, and the run passed as if it had been read
    r = CliRunner().invoke(main, ["conformance", "run", str(smoke_suite), "--engine", engine, *args])
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert r.output.strip() == f"error: {message}", r.output


def test_every_registered_engine_states_its_options() -> None:
    from ddzrules.engines import builtin_engines, engine_options, load_engine_class

    for name in builtin_engines():
        assert engine_options(load_engine_class(name)) is not None, name
    r = CliRunner().invoke(main, ["conformance", "run", "/nonexistent-suite", "--engine", "ddzrules",
                                  "--option", "spec=hubei-3p"])
    assert "option" not in r.output  # a known option passes the check (the missing suite fails)


class DeclaresOptions:
    """A third-party adapter that declares the one option it reads."""

    OPTIONS = ("depth",)

    def __init__(self, manifest: object, options: dict[str, str]) -> None:
        self.options = options

    def classify(self, cards: str, wild: str | None) -> None:
        raise AssertionError("not reached")


class DeclaresBadly(DeclaresOptions):
    OPTIONS = ["depth"]  # type: ignore[assignment]  # noqa: RUF012 - a list, not a tuple, on purpose


def test_a_third_party_adapter_declares_its_options() -> None:
    from ddzrules.engines import EngineError, open_engine

    name = f"{__name__}:DeclaresOptions"
    assert open_engine(name, {}, {"depth": "3"}).options == {"depth": "3"}
    with pytest.raises(EngineError, match=r"--option 'dpth': the .*DeclaresOptions engine has no such option "
                                          r"\(its options: depth\)"):
        open_engine(name, {}, {"dpth": "3"})
    with pytest.raises(EngineError, match="OPTIONS must be a tuple of option names"):
        open_engine(f"{__name__}:DeclaresBadly", {}, {})
    # a subclass that declares nothing of its own may read more than its base
    assert open_engine(f"{__name__}:ReadsMore", {}, {"depth": "3", "width": "2"}).options["width"] == "2"


class ReadsMore(DeclaresOptions):
    """A subclass reading an option its base does not, without declaring OPTIONS."""


class NoArgs:
    """Not an adapter: it has a capability but is built without (manifest, options)."""

    name = "no-args"

    def __init__(self) -> None:
        pass

    def classify(self, cards: str, wild: str | None) -> Any:
        raise AssertionError("never asked")


ADAPTER = """
from ddzrules.engines.native import NativeEngine

class Mine(NativeEngine):
    def __init__(self, manifest, options):
        super().__init__(manifest, options)
        self.name = "mine"
"""


def test_engine_from_a_module_of_the_current_folder_or_a_file(smoke_suite: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    (tmp_path / "my_adapter_mod_xyz.py").write_text(ADAPTER, encoding="utf-8")
    (tmp_path / "broken_adapter_xyz.py").write_text("raise RuntimeError('broken on import')\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    runner = CliRunner()
    for target in ("my_adapter_mod_xyz:Mine", "./my_adapter_mod_xyz.py:Mine",
                   str(tmp_path / "my_adapter_mod_xyz.py") + ":Mine"):
        r = runner.invoke(main, ["conformance", "run", str(smoke_suite), "--engine", target,
                                 "--category", "classify"])
        assert r.exit_code == 0 and "against mine" in r.output, (target, r.output)
    for target, message in (("./my_adapter_mod_xyz.py:Nothing", "has no 'Nothing'"),
                            ("broken_adapter_xyz:Engine", "importing broken_adapter_xyz raised RuntimeError"),
                            ("./broken_adapter_xyz.py:Engine", "raised RuntimeError: broken on import")):
        r = runner.invoke(main, ["conformance", "run", str(smoke_suite), "--engine", target])
        text = " ".join(r.output.split())
        assert r.exit_code == 1 and message in text and "Traceback" not in r.output, (target, r.output)


class ExitsOnStart:
    """An adapter whose constructor calls sys.exit: the run ended with status 5, silently."""

    def __init__(self, manifest: object, options: dict[str, str]) -> None:
        raise SystemExit(5)

    def classify(self, cards: str, wild: str | None) -> None: ...


class ExitsOnAQuestion:
    """An adapter calling sys.exit in a capability (status 7, no word) and answering
    findings() with a string (a traceback in the report)."""

    name = "exits"

    def __init__(self, manifest: object, options: dict[str, str]) -> None: ...

    def classify(self, cards: str, wild: str | None) -> None:
        raise SystemExit(7)

    def findings(self) -> str:
        return "not a list"


def test_an_adapter_that_exits_or_answers_badly_is_reported(smoke_suite: Path) -> None:
    r = CliRunner().invoke(main, ["conformance", "run", str(smoke_suite), "--engine", f"{__name__}:ExitsOnStart"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "could not start: it called sys.exit(5)" in " ".join(r.output.split()), r.output
    r = CliRunner().invoke(main, ["conformance", "run", str(smoke_suite), "--engine", f"{__name__}:ExitsOnAQuestion",
                                  "--category", "classify", "--json"])
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    report = json.loads(r.output)
    assert report["categories"]["classify"]["failed"] == vectors_in(smoke_suite, "classify")
    assert any("not a list of Finding" in f["title"] for f in report["findings"]), report["findings"]


def vectors_in(d: Path, category: str) -> int:
    return len(vectors(d, category))
