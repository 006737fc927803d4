"""Rule sheets (``ddzrules sheet``): generated from the spec alone, the same in every
run, in both languages and both formats; the bundled sheets in docs/rules never drift
from their specs; every example a sheet shows is a play of its spec; the HTML is one
well-formed page without external resources; bad input exits 1 without a traceback.

Each bundled spec's sheet is built once (building compiles the universe and plays the
worked example's game) and rendered as often as needed.
"""

from __future__ import annotations

import functools
import html
import re
import textwrap
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar
from unittest import mock

import pytest
from click.testing import CliRunner

import ddzrules.cli.sheet  # noqa: F401 - registers the sheet command on main
from ddzrules import cards as C
from ddzrules import sheets as S
from ddzrules.bots import make_bot
from ddzrules.cli import main
from ddzrules.rules.variant import Variant, load_variant
from ddzrules.rules.wild import WildMoves
from ddzrules.runtime import GameRules
from ddzrules.sheets import facts
from ddzrules.sheets import render as sheet_render
from ddzrules.simulate import game_seed, play_game
from ddzrules.spec import bundled_names
from tests.game.test_tables import PARTNERS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
#: bundled specs whose page in docs/rules is written apart, without a generated block
NO_BLOCK: set[str] = set()
SPECS = bundled_names()
LANGS = ("en", "zh")
FORMATS = ("md", "html")


def _no_wild_census(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a sheet must not run the wildcard census")


@functools.cache
def variant(spec: str) -> Variant:
    """A bundled spec compiled once per test run (its universe table is built once)."""
    return load_variant(spec)


@functools.cache
def built(spec: str) -> S.Sheet:
    """The sheet of a bundled spec, built once per test run — and built without the
    wildcard census ever running (laizi's sheet uses the natural census)."""
    with mock.patch.object(WildMoves, "census", _no_wild_census):
        return S.build_sheet(variant(spec))


@functools.cache
def rendered(spec: str, lang: str, fmt: str) -> str:
    return S.render_sheet(built(spec), lang, fmt)


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["sheet", *args])


def fails(*args: str) -> str:
    """Exit 1, a message on stderr, no traceback; returns stderr."""
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert result.stderr.strip()
    return result.stderr


# ====================================================================== the bundled sheets


def _doc_blocks() -> list[tuple[Path, S.GeneratedBlock]]:
    out = []
    for path in sorted(DOCS.glob("*.md")):
        for block in S.generated_blocks(path.read_text(encoding="utf-8"), str(path)):
            out.append((path, block))
    return out


def test_every_bundled_spec_has_a_generated_sheet_in_docs() -> None:
    specs = {b.spec for _, b in _doc_blocks()}
    assert set(SPECS) - NO_BLOCK <= specs
    assert specs <= set(SPECS)
    # compat.md holds both engine profiles; every other page is named after its spec
    for path, block in _doc_blocks():
        assert block.lang == "en"
        assert path.stem in (block.spec, block.spec.replace("/", "-")) or (
            path.name == "compat.md" and block.spec.startswith("compat/")
        )


@pytest.mark.parametrize(
    "path,block", _doc_blocks(), ids=lambda x: getattr(x, "spec", None) or x.name
)
def test_a_committed_sheet_is_what_its_spec_generates(path: Path, block: S.GeneratedBlock) -> None:
    expected = rendered(block.spec, block.lang, "md")
    where = DOCS.relative_to(Path.cwd()) if DOCS.is_relative_to(Path.cwd()) else DOCS
    assert block.text == expected, (
        f"{path.name}: the generated block of {block.spec} differs from what the spec generates; "
        f"run `ddzrules sheet --update-docs {where}`"
    )


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> list[str]:
    out, fence = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,6} ", line):
            out.append(_slug(line.lstrip("#")))
    return out


@pytest.mark.parametrize("path", sorted({p for p, _ in _doc_blocks()}), ids=lambda p: p.name)
def test_generated_headings_leave_the_hand_written_anchors_alone(path: Path) -> None:
    # the generated sheet comes first in its page: a heading of the same text would take
    # the anchor that the commentary's own contents links to
    text = path.read_text(encoding="utf-8")
    blocks = S.generated_blocks(text, str(path))
    generated = {a for b in blocks for a in _anchors(b.text)}
    rest = text
    for b in reversed(blocks):
        rest = rest[: b.start] + rest[b.end :]
    assert not generated & set(_anchors(rest))
    for target in re.findall(r"\]\(#([^)]+)\)", rest):
        assert target in _anchors(rest), f"{path.name}: link to #{target} has no heading"


# ====================================================================== every spec, both ways


@pytest.mark.parametrize("spec", SPECS)
def test_the_sheet_of_every_bundled_spec(spec: str) -> None:
    sheet = built(spec)
    v = variant(spec)
    assert [c.name for c in sheet.combos] == v.combo_names
    census = v.census()
    assert sheet.census_total == census.total
    assert {c.name: c.plays for c in sheet.combos} == census.by_combo
    for lang in LANGS:
        for fmt in FORMATS:
            text = rendered(spec, lang, fmt)
            assert text == S.render_sheet(sheet, lang, fmt)  # rendering is pure
            assert spec in text
            for c in sheet.combos:
                pattern = c.pattern if fmt == "md" else html.escape(c.pattern, quote=True)
                assert c.name in text and pattern.split(" ")[0] in text
            for reading_id, _ in sheet.readings:
                assert reading_id in text
            if sheet.source.get("document"):
                assert sheet.source["document"] in text
            assert (sheet.example is not None) == bool(v.spec.data.get("game"))
    assert rendered(spec, "en", "md") != rendered(spec, "zh", "md")


@pytest.mark.parametrize("spec", ["laizi"])
def test_a_sheet_is_byte_identical_from_run_to_run(spec: str) -> None:
    again = S.build_sheet(spec)  # loaded and built afresh
    assert again == built(spec)
    for lang in LANGS:
        for fmt in FORMATS:
            assert S.render_sheet(again, lang, fmt) == rendered(spec, lang, fmt)


_ZH_HEADINGS = {zh for key, (_, zh) in S.TEXTS.items() if key.startswith(("h.", "role."))}


@pytest.mark.parametrize(
    "spec", ["qiangdizhu", "laizi", "compat/rlcard", "hubei-4p-2deck", "jiaofen"]
)
def test_every_fixed_text_of_the_chinese_sheet_is_translated(spec: str) -> None:
    zh = rendered(spec, "zh", "md")
    sheet = built(spec)
    for line in zh.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            assert title in _ZH_HEADINGS or title.startswith(f"{sheet.name}："), title
    # no English sentence of the sheet's own is left in the Chinese sheet
    own = " ".join(t for _, t in sheet.readings) + " ".join(sheet.source.values())
    for key, (en, zh_text) in S.TEXTS.items():
        head = re.split(r"[{`*]", en)[0].strip()
        if en != zh_text and len(head) >= 12 and head not in own:
            assert head not in zh, (key, head)
    for term in ("牌型", "炸弹", "底牌", "地主"):
        assert term in zh
    if built(spec).has_game:
        assert "农民" in zh
        multipliers = variant(spec).spec.data["game"].get("multipliers") or []
        if any(m.get("plugin") == "spring" for m in multipliers):
            assert "春天" in zh


def test_the_chinese_terms_of_the_game_rules() -> None:
    assert "叫分" in rendered("hubei-3p", "zh", "md")
    qdz = rendered("qiangdizhu", "zh", "md")
    for term in ("抢地主", "明牌", "加倍", "春天", "反春"):
        assert term in qdz
    assert "火箭" in rendered("compat/rlcard", "zh", "md")


# ====================================================================== the content is computed


def _plays(spec: str) -> list[S.Example]:
    sheet = built(spec)
    out = [e for c in sheet.combos for e in (c.smallest, c.largest) if e is not None]
    out += [e for cmp in sheet.comparisons for e in (cmp.a, cmp.b)]
    if sheet.wild is not None and sheet.wild.substitution is not None:
        out.append(sheet.wild.substitution)
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_every_example_is_a_play_of_the_spec(spec: str) -> None:
    v = variant(spec)
    sheet = built(spec)
    for ex in _plays(spec):
        readings = v.classify(ex.cards, wild=ex.wild)
        assert any(
            (m.combo, m.rank_name, m.length) == (ex.combo, ex.rank, ex.length) for m in readings
        ), ex
        assert f"`{ex.cards}`" in rendered(spec, "en", "md")
    for c in sheet.combos:
        assert (c.smallest is None) == (c.largest is None)
        if c.smallest is not None and c.largest is not None:
            small = (c.smallest.length, c.smallest.size)
            assert small <= (c.largest.length, c.largest.size)
    for cmp in sheet.comparisons:
        a = next(m for m in v.classify(cmp.a.cards) if m.combo == cmp.a.combo)
        b = next(m for m in v.classify(cmp.b.cards) if m.combo == cmp.b.combo)
        assert (a.beats(b), b.beats(a)) == (cmp.a_beats_b, cmp.b_beats_a)


def test_the_hubei_sheet_states_what_the_compiler_and_the_runtime_say() -> None:
    sheet = built("hubei-3p")
    combos = {c.name: c for c in sheet.combos}
    straight = combos["straight"]
    assert (
        straight.smallest and straight.smallest.cards,
        straight.largest and straight.largest.cards,
    ) == ("34567", "3456789TJQKA")
    assert straight.chain == S.ChainLimits(1, 5, 12, "3", "A")
    assert combos["trio_chain"].chain == S.ChainLimits(3, 2, 6, "3", "A")
    assert combos["plane_wings"].plays == 10_100 and sheet.census_total == 12_654
    assert [
        c.name for c in sorted(sheet.combos, key=lambda c: c.bomb_class) if c.bomb_class >= 0
    ] == ["bomb", "rocket"]
    assert sheet.parents == () and sheet.players == 3 and sheet.kitty_shown
    md = rendered("hubei-3p", "en", "md")
    assert "| `straight` | `34567` | `3456789TJQKA` | 5–12 singles, 3..A | 36 |" in md
    assert "| 1 | `bomb` | 炸弹 | rank | `3333` | `2222` |" in md
    # each plugin described with its parameters as the spec gives them
    roles = {p.name: p for p in sheet.plugins}
    assert set(roles) == {"point-bids", "bomb-doubling", "spring", "stake-settlement"}
    bids = {q.name: q for q in roles["point-bids"].params}
    assert bids["bids"].value == "[1, 2, 3]" and not bids["bids"].default
    assert bids["must_bid"].default
    assert any("effective bomb" in r for r in roles["bomb-doubling"].rules["en"])
    assert any("有效炸弹" in r for r in roles["bomb-doubling"].rules["zh"])


@pytest.mark.parametrize("spec", [s for s in SPECS if variant(s).spec.data.get("game")])
def test_the_worked_example_is_the_game_the_runtime_plays(spec: str) -> None:
    ex = built(spec).example
    assert ex is not None
    rules = GameRules(variant(spec))
    agents = [make_bot(S.EXAMPLE_BOT, game_seed(ex.seed, 1000 + i)) for i in range(rules.players)]
    game = play_game(rules, agents, ex.seed)  # as `ddzrules play SPEC --auto --seed S`
    assert (game.landlord, game.stake, game.multiple, tuple(game.scores or ())) == (
        ex.landlord,
        ex.stake,
        ex.multiple,
        ex.scores,
    )
    assert [(e.name, e.factor) for e in game.events] == [(e.name, e.factor) for e in ex.events]
    assert ex.hands == tuple(game.deals[-1]["hands"])
    md = rendered(spec, "en", "md")
    assert f"--seed {ex.seed}" in md
    for score in ex.scores:
        assert f"{score:+,}" in md


def test_the_laizi_sheet_finds_its_wild_bombs_without_the_wildcard_census() -> None:
    sheet = built("laizi")  # built with WildMoves.census forbidden
    combos = {c.name: c for c in sheet.combos}
    soft, pure, hard = combos["soft_bomb"], combos["pure_bomb"], combos["hard_bomb"]
    assert soft.wild_only and pure.wild_only and not hard.wild_only
    assert soft.plays == 0 and pure.plays == 0 and hard.plays == 13  # the natural census
    assert soft.smallest == S.Example("3334", "soft_bomb", "3", 1, 4, "4", (("4", "3"),))
    assert pure.smallest is not None and (pure.smallest.cards, pure.smallest.wild) == ("3333", "3")
    assert pure.largest is not None and (pure.largest.cards, pure.largest.wild) == ("2222", "2")
    assert sheet.wild is not None and sheet.wild.plugin == "wild-rank"
    assert sheet.wild.wild_only == ("soft_bomb", "pure_bomb")
    assert sheet.wild.natural_only == ("hard_bomb",)
    md = rendered("laizi", "en", "md")
    assert "`3334` (wild 4: 4→3)" in md and "## Wildcards" in md
    assert "癞子" in rendered("laizi", "zh", "md")


def test_a_spec_without_a_game_has_no_worked_example() -> None:
    sheet = built("compat/openspiel")
    assert not sheet.has_game and sheet.example is None and sheet.plugins == ()
    assert sheet.parents == ("compat/rlcard", "compat/douzero")
    md = rendered("compat/openspiel", "en", "md")
    assert "## Worked example" not in md and "has no `game:` section" in md


# ====================================================================== formats and escaping


class _Strict(HTMLParser):
    """Checks that every element is closed in order and collects the URLs referenced."""

    VOID: ClassVar[set[str]] = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [v or "" for k, v in attrs if k in ("src", "href")]
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [v or "" for k, v in attrs if k in ("src", "href")]

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-3:])
        self.stack.pop()


def check_html(text: str) -> ET.Element:
    root = ET.fromstring(text)  # well-formed XML: every tag closed, every & < > escaped
    parser = _Strict()
    parser.feed(text)
    parser.close()
    assert parser.stack == []
    assert not [u for u in parser.urls if "://" in u or u.startswith("//")]
    assert not re.search(r"""<[^>]*\s(src|href)\s*=""", text, re.IGNORECASE)  # no link at all
    assert "<script" not in text.lower()
    return root


@pytest.mark.parametrize("spec", SPECS)
def test_the_html_is_one_well_formed_page_without_external_resources(spec: str) -> None:
    for lang in LANGS:
        root = check_html(rendered(spec, lang, "html"))
        assert root.tag == "html" and root.get("lang") == ("en" if lang == "en" else "zh-CN")
        assert root.find("head/meta").get("charset") == "utf-8"  # type: ignore[union-attr]
        assert len(root.findall("body/table")) >= 4


def _md_cells(line: str) -> list[str]:
    return re.split(r"(?<!\\)\|", line.strip())[1:-1]


@pytest.mark.parametrize("spec", SPECS)
def test_every_markdown_table_row_has_as_many_cells_as_its_header(spec: str) -> None:
    for lang in LANGS:
        lines = rendered(spec, lang, "md").splitlines()
        for i, line in enumerate(lines):
            if line.startswith("| ") and i > 0 and not lines[i - 1].startswith("|"):
                width = len(_md_cells(line))
                j = i
                while j < len(lines) and lines[j].startswith("|"):
                    assert len(_md_cells(lines[j])) == width, lines[j]
                    j += 1


HOSTILE = textwrap.dedent("""\
    name: hostile
    extends: hubei-3p
    title: {zh: "敌意<b>", en: "A & B <script>alert(1)</script> | `x` **y**"}
    region: "<img src=http://evil.example/x.png>"
    source: {document: "doc|with|pipes", url: "http://evil.example/rules"}
    notes: "1. not a list\\n# not a heading"
    readings:
      first-bidder: "- not an item <a href='http://evil.example'>x</a> & back\\\\slash `tick`"
    combos:
      pair: {pattern: "2", zh: "对|牌", description: "two <of> a kind"}
    game: null
""")


def test_the_spec_s_own_texts_are_escaped(tmp_path: Path) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE, encoding="utf-8")
    sheet = S.build_sheet(path)
    for lang in LANGS:
        page = S.render_sheet(sheet, lang, "html")
        check_html(page)
        assert "&lt;script&gt;" in page and "A &amp; B" in page
        md = S.render_sheet(sheet, lang, "md")
        prose = re.sub(r"`[^`]*`", "", md)  # the code spans hold patterns such as <XD>
        assert not re.search(r"(?<!\\)[<>]", prose), "a < or > of the spec's texts is not escaped"
        # a < as a character reference (Python-Markdown shows the backslash of "\\<"); a |
        # of a code span in a table cell between the spans (GitHub would split the cell)
        assert "&lt;script&gt;" in md and "\\<" not in md
        assert "`doc`\\|`with`\\|`pipes`" in md and "对\\|牌" in md
        assert "\n# not a heading" not in md
        lines = md.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("| ") and not lines[i - 1].startswith("|"):
                width = len(_md_cells(line))
                for row in lines[i:]:
                    if not row.startswith("|"):
                        break
                    assert len(_md_cells(row)) == width, row
    assert sheet.parents == ("hubei-3p",)


# ====================================================================== the command


def test_the_command_prints_writes_and_translates(tmp_path: Path) -> None:
    with mock.patch.object(sheet_render, "build_sheet", lambda spec, seed=None: built(str(spec))):
        result = run("hubei-3p")
        assert result.exit_code == 0, result.output
        assert result.stdout == rendered("hubei-3p", "en", "md")
        out = tmp_path / "sheet.html"
        result = run("laizi", "--lang", "zh", "--format", "html", "-o", str(out))
        assert result.exit_code == 0, result.output
        assert out.read_text(encoding="utf-8") == rendered("laizi", "zh", "html")
        check_html(out.read_text(encoding="utf-8"))


def test_the_seed_option_fixes_the_worked_example() -> None:
    ex = built("hubei-3p").example
    assert ex is not None and ex.seed in S.EXAMPLE_SEEDS and ex.events  # chosen: a multiplied score
    text = S.render_sheet(S.build_sheet(variant("hubei-3p"), seed=1), "en", "md")
    assert "ddzrules sheet hubei-3p --seed 1" in text and "--auto --seed 1`" in text


@pytest.mark.parametrize(
    "args,message",
    [
        (("hubei3p",), "did you mean 'hubei-3p'"),
        (("hubei-3p", "--lang", "fr"), "--lang"),
        (("hubei-3p", "--format", "pdf"), "--format"),
        (("hubei-3p", "--bogus"), "--bogus"),
        ((), "missing SPEC"),
        (("hubei-3p", "--check"), "--update-docs"),
        (("hubei-3p", "--update-docs", "docs/rules"), "takes no SPEC"),
        (("--update-docs", "/nonexistent/dir"), "not a directory"),
    ],
)
def test_bad_input_exits_1_without_a_traceback(args: tuple[str, ...], message: str) -> None:
    assert message in fails(*args)


def test_a_broken_spec_exits_1_with_its_position(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text('name: broken\ncombos:\n  pair: "2 + wher"\n', encoding="utf-8")
    assert "broken.yaml:3" in fails(str(path))
    with mock.patch.object(sheet_render, "build_sheet", lambda spec, seed=None: built(str(spec))):
        # refused before the sheet is built: the directory is missing
        assert "the directory" in fails(
            "compat/rlcard", "-o", str(tmp_path / "no" / "such" / "dir.md")
        ) and "does not exist" in fails("compat/rlcard", "-o", str(tmp_path / "no" / "such" / "dir.md"))


# ====================================================================== regenerating the docs


def _stub(spec: str, lang: str) -> str:
    return f"sheet of {spec} in {lang}\n"


def test_update_docs_rewrites_only_the_generated_blocks(tmp_path: Path) -> None:
    begin = S.BEGIN.format(spec="hubei-3p", lang="en")
    page = tmp_path / "page.md"
    page.write_text(
        f"{begin}\nold sheet\n{S.END}\n\n# Commentary\n\nkept as written\n", encoding="utf-8"
    )
    (tmp_path / "plain.md").write_text("no markers\n", encoding="utf-8")
    status = S.update_docs(tmp_path, check=True, make=_stub)
    assert [(s.path.name, s.specs, s.stale) for s in status] == [("page.md", ("hubei-3p",), True)]
    assert "old sheet" in page.read_text(encoding="utf-8")  # --check writes nothing
    S.update_docs(tmp_path, make=_stub)
    assert page.read_text(encoding="utf-8") == (
        f"{begin}\nsheet of hubei-3p in en\n{S.END}\n\n# Commentary\n\nkept as written\n"
    )
    assert not S.update_docs(tmp_path, check=True, make=_stub)[0].stale
    assert (tmp_path / "plain.md").read_text(encoding="utf-8") == "no markers\n"


def test_a_marker_without_its_end_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_text(
        S.BEGIN.format(spec="hk", lang="en") + "\nno end\n", encoding="utf-8"
    )
    with pytest.raises(S.DdzError, match="no <!-- END GENERATED -->"):
        S.update_docs(tmp_path, make=_stub)


def test_the_command_checks_and_updates_a_docs_directory(tmp_path: Path) -> None:
    begin = S.BEGIN.format(spec="compat/rlcard", lang="en")
    page = tmp_path / "compat.md"
    page.write_text(f"{begin}\nstale\n{S.END}\n", encoding="utf-8")
    expected = f"{begin}\n{rendered('compat/rlcard', 'en', 'md')}{S.END}\n"
    # the command builds through sheets.render; the sheet built once per test run stands in
    with mock.patch.object(sheet_render, "build_sheet", lambda spec, seed=None: built(str(spec))):
        assert "1 file(s) differ" in fails("--update-docs", str(tmp_path), "--check")
        result = run("--update-docs", str(tmp_path))
        assert result.exit_code == 0, result.output
        assert "updated" in result.stdout
        assert page.read_text(encoding="utf-8") == expected
        assert run("--update-docs", str(tmp_path), "--check").exit_code == 0


# ====================================================================== plugins describe themselves


def _activated() -> list[tuple[str, str, Any, dict[str, Any]]]:
    out = []
    seen = set()
    for spec in SPECS:
        v = variant(spec)
        game = v.spec.data.get("game")
        if not game:
            continue
        for role, name, inst in GameRules(v).active:  # v: compiled only, no table yet
            entries = game[role] if isinstance(game[role], list) else [game[role]]
            params = next(e.get("params") or {} for e in entries if e["plugin"] == name)
            key = (name, repr(sorted(params.items())))
            if key not in seen:
                seen.add(key)
                out.append((spec, name, inst, params))
    return out


@pytest.mark.parametrize(
    "spec,name,inst,params", _activated(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_a_plugin_describes_itself_and_its_parameters_in_both_languages(
    spec: str, name: str, inst: Any, params: dict[str, Any]
) -> None:
    d = inst.ddzrules_describe()
    assert set(d["summary"]) == {"en", "zh"} and all(d["summary"].values())
    assert len(d["rules"]["en"]) == len(d["rules"]["zh"]) >= 1
    assert all(d["rules"]["en"]) and all(d["rules"]["zh"])
    assert all(re.search(r"[\u4e00-\u9fff]", r) for r in d["rules"]["zh"])
    names = [p["name"] for p in d["params"]]
    assert names == list(type(inst).params_schema["properties"])  # every parameter, in order
    for p in d["params"]:
        assert p["en"] and p["zh"]
    values = {p["name"]: p["value"] for p in d["params"]}
    for key, value in params.items():
        if key in ("show", "golden_eye", "must_bid", "ranks"):
            continue  # given in the spec's own shape, described in the plugin's
        if key == "per_unit":  # a set of combos: described in name order
            value = sorted(value)
        assert values[key] == value, (key, values[key], value)


def test_a_plugin_that_describes_itself_in_one_language_or_not_at_all() -> None:
    class Terse:
        """House rule: every trio doubles."""

        def ddzrules_describe(self) -> dict[str, Any]:
            return {"summary": "×2 per trio"}

    class Silent:
        """Silent house rule."""

    game = {"multipliers": [{"plugin": "terse", "params": {"factor": 3}}, {"plugin": "silent"}]}
    probe = GameRules.load("hubei-3p").new_game(0)  # the game describe is called for (not given it)
    terse = facts.plugin_entry("multipliers", "terse", Terse(), game, probe)
    assert terse.summary == {"en": "×2 per trio", "zh": "×2 per trio"}
    assert terse.params == (S.ParamEntry("factor", "3", False, {"en": "", "zh": ""}),)
    silent = facts.plugin_entry("multipliers", "silent", Silent(), game, probe)
    assert silent.summary["en"] == "Silent house rule." and silent.rules == {"en": (), "zh": ()}


# ====================================================================== deck shapes and tables without a landlord


def _section(text: str, heading: str) -> str:
    """The text under a heading, up to the next heading of the same or a higher level."""
    level = heading.split(" ")[0]
    start = text.index(f"\n{heading}\n")
    ends = [i for i in (text.find(f"\n{'#' * n} ", start + 1) for n in range(1, len(level) + 1)) if i >= 0]
    return text[start: min(ends, default=len(text))]


def _row(text: str, label: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"| {label} |"))


def _example_game(spec: str) -> Any:
    ex = built(spec).example
    assert ex is not None
    rules = GameRules(variant(spec))
    agents = [make_bot(S.EXAMPLE_BOT, game_seed(ex.seed, 1000 + i)) for i in range(rules.players)]
    return play_game(rules, agents, ex.seed)


def test_the_erren_sheet_tells_the_reduced_deck_and_the_undealt_cards() -> None:
    sheet, v = built("erren"), variant("erren")
    assert (sheet.undealt, sheet.removed_ranks, sheet.table_kind) == (9, "34", "landlord")
    en, zh = rendered("erren", "en", "md"), rendered("erren", "zh", "md")
    deck = _row(en, "deck")
    assert "0 of" not in deck and "less every 3 and 4" in deck
    assert f"{sum(v.rules.deck)} cards" in deck
    # each rank 5..2 has its four cards, said once as one run
    assert deck.count(" of each rank ") == 1 and "rank 5 to 2" in deck
    assert "9 cards" in _row(en, "undealt") and "nobody sees them" in _row(en, "undealt")
    assert "去掉所有的3和4" in _row(zh, "牌") and "9张" in _row(zh, "未发的牌")
    assert "one farmer" in _row(en, "table") and "no:" in _row(en, "must beat (有大必压)")
    # the worked example shows the undealt cards of its deal: what the hands and kitty leave
    game = _example_game("erren")
    ex = sheet.example
    assert ex is not None and ex.undealt == C.counts_to_string(game.undealt)
    together = "".join(ex.hands) + ex.kitty + ex.undealt
    assert C.counts_of(C.parse_ranks(together)) == list(v.rules.deck)
    assert f"`{ex.undealt}`" in _row(_section(en, "## Worked example"), "undealt")


def test_the_paodekuai_sheet_has_no_landlord_and_says_who_leads_and_must_beat() -> None:
    sheet, v = built("paodekuai"), variant("paodekuai")
    assert (sheet.table_kind, sheet.must_beat, sheet.removed_cards, sheet.undealt) == (
        "free-for-all", True, "222A", 0)
    leader = next(p for p in sheet.plugins if p.role == "leader")
    for lang, head, course_head, example_head, words in (
        ("en", "### First leader", "### Course of play", "## Worked example", ("landlord", "farmer")),
        ("zh", "### 首出", "### 出牌", "## 计分示例", ("地主", "农民")),
    ):
        text = rendered("paodekuai", lang, "md")
        assert leader.summary[lang] in _section(text, head)
        course = _section(text, course_head)
        assert "有大必压" in course
        assert leader.summary[lang][1:] in course  # the first trick's leader, in the course of play
        example = _section(text, example_head)
        for word in words:
            assert word not in example
        # a landlord appears only to say there is none (and in the settlement's general rule)
        assert all(w not in course.replace("no landlord", "").replace("没有地主", "") for w in words)
    en = rendered("paodekuai", "en", "md")
    deck = _row(en, "deck")
    assert "less the 4 cards 222A" in deck and "no jokers" in deck
    counts = {r: v.rules.deck[C.RANKS.index(r)] for r in "KA2"}
    assert f"{counts['A']} of rank A" in deck and f"{counts['2']} of rank 2" in deck
    assert "undealt" not in en.split("## Combos")[0]
    assert "everyone for himself" in _row(en, "table") and "yes:" in _row(en, "must beat (有大必压)")
    # the worked example: who led, who won and each seat's part, as the runtime played it
    game = _example_game("paodekuai")
    example = _section(en, "## Worked example")
    assert f"seat {game.first_leader}" in _row(example, "first leader")
    assert f"seat {game.winner} is out first and wins" in _row(example, "end")
    for seat in range(game.players):
        role = "winner" if seat in game.winners else "loser"
        assert _row(example, str(seat)).split(" | ")[1] == role


def test_a_partnership_sheet_names_the_teams(tmp_path: Path) -> None:
    spec = tmp_path / "partners.yaml"
    spec.write_text(PARTNERS, encoding="utf-8")  # the partnerships table of test_tables
    sheet = S.build_sheet(str(spec))
    en = S.render_sheet(sheet, "en", "md")
    assert "seats 0+2 against seats 1+3" in _row(en, "table")
    assert "seat 0 leads the first trick" in _section(en, "### Course of play")
    ex = sheet.example
    assert ex is not None and set(ex.winners) in ({0, 2}, {1, 3}) and ex.winner in ex.winners
    team = "+".join(map(str, ex.winners))
    assert f"seats {team} win" in _row(en, "end")
    assert "landlord" not in _section(en, "## Worked example")


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no FIFOs here")
def test_a_spec_file_that_became_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    """The sheet reads the files of the extends: chain again (for their own extends:): a
    file swapped for a FIFO since the spec was loaded blocked the sheet for ever; it is
    now read as the loader reads it, and refused by what it is."""
    import os

    from fuzzers import bounded

    from ddzrules.errors import SpecError

    spec = tmp_path / "house.yaml"
    spec.write_text("name: house\nextends: hubei-3p\n", encoding="utf-8")
    v = load_variant(str(spec))
    spec.unlink()
    os.mkfifo(spec)
    with bounded("a sheet of a spec whose file is now a FIFO", 30), pytest.raises(SpecError, match="FIFO"):
        S.build_sheet(v)
