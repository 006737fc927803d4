"""Every fact a rule sheet states is this spec's own (issue 43): a house rule made with
``new x --extends hubei-3p`` is not 湖北's text, so its parent's region and source are
said as the parent's; and each sentence follows the spec's actual value — a child that
changes the value changes the sentence (a spec without a kitty has no sentence about
taking it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import ddzrules.cli.sheet  # noqa: F401 - registers the sheet command on main
from ddzrules import sheets as S
from ddzrules.cli import main

PARENT_SOURCE = "seeds/000_0f7a6a14bea7caec.txt"


def sheet_of(tmp_path: Path, body: str, lang: str = "en", name: str = "child") -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: hubei-3p\n{body}", encoding="utf-8")
    return S.render_sheet(S.build_sheet(path), lang, "md")


def row(text: str, key: str) -> str | None:
    """The value of the first table row ``| key | value |`` (None: no such row)."""
    m = re.search(rf"^\| {re.escape(key)} \| (.*) \|$", text, re.MULTILINE)
    return m[1] if m else None


def test_new_house_rule_does_not_claim_its_parents_provenance(tmp_path: Path) -> None:
    """The spec `new x --extends hubei-3p` writes, as a user gets it."""
    result = CliRunner().invoke(main, ["new", "x", "--extends", "hubei-3p", "-o", str(tmp_path / "x.yaml")])
    assert result.exit_code == 0, result.output
    text = S.render_sheet(S.build_sheet(tmp_path / "x.yaml"), "en", "md")
    assert row(text, "region") == "—"
    assert row(text, "source") is None
    extends = row(text, "extends")
    assert extends is not None and extends.startswith("`hubei-3p` (湖北 Hubei, source ")
    assert PARENT_SOURCE in extends
    zh = S.render_sheet(S.build_sheet(tmp_path / "x.yaml"), "zh", "md")
    assert row(zh, "地区") == "—" and row(zh, "出处") is None
    assert "湖北 Hubei" in (row(zh, "继承") or "")


def test_own_provenance_is_stated_as_its_own(tmp_path: Path) -> None:
    text = sheet_of(tmp_path, "region: 广东 Guangdong\nsource: {document: club-rules.txt}\n")
    assert row(text, "region") == "广东 Guangdong"
    assert row(text, "source") == "`club-rules.txt`"
    assert row(text, "extends") == "`hubei-3p`"  # replaced, the parent's are not this spec's facts
    # a section alone cites the parent's document: the source is this spec's, whole
    text = sheet_of(tmp_path, "source: {section: 我们的规矩}\n")
    assert row(text, "source") == f"`{PARENT_SOURCE}` — 我们的规矩"
    assert row(text, "extends") == "`hubei-3p` (湖北 Hubei)"


#: (a child's change, what its sheet must then say, what the parent's sheet said that it must not)
CHANGES = [
    ("deal: {hand: 18, kitty: 0}\n", ["| kitty (底牌) | none |", "| hand | 18 cards each |",
                                      "The landlord leads the first trick with any combo (there is no kitty)."],
     ["takes the kitty", "17 cards each"]),
    ("deal: {kitty_shown: false}\n", ["given to the landlord unseen by the farmers", "(unseen by the farmers)"],
     ["shown to everyone"]),
    ("table: {must_beat: true}\n", ["Must beat (有大必压)", "| must beat (有大必压) | yes"],
     ["| must beat (有大必压) | no"]),
    ("direction: clockwise\n", ["3, playing clockwise", "In turn (clockwise)"],
     ["3, playing counter-clockwise", "In turn (counter-clockwise)"]),
    ("region: 四川 Sichuan\n", ["| region | 四川 Sichuan |"], ["| region | — |"]),
    ("chain_ranks: 3..K\n", ["| chain ranks | `3..K` |"], ["| chain ranks | `3..A` |"]),
    ("players: 3\ndeal: {hand: 16, kitty: 6}\n", ["| hand | 16 cards each |", "6 cards, shown to everyone"],
     ["| hand | 17 cards each |", "3 cards, shown to everyone"]),
]


@pytest.mark.parametrize(("body", "says", "not_says"), CHANGES, ids=[c[0].split(":")[0] for c in CHANGES])
def test_a_child_that_changes_a_value_changes_the_fact(tmp_path: Path, body: str, says: list[str],
                                                         not_says: list[str]) -> None:
    parent = sheet_of(tmp_path, "", name="same")
    child = sheet_of(tmp_path, body)
    for text in says:
        assert text not in parent and text in child, text
    for text in not_says:
        assert text in parent and text not in child, text


def test_no_kitty_sentence_in_either_language(tmp_path: Path) -> None:
    for lang, words in (("en", ("kitty", "底牌")), ("zh", ("底牌",))):
        text = sheet_of(tmp_path, "deal: {hand: 18, kitty: 0}\n", lang)
        lines = [line for line in text.splitlines() if any(w in line for w in words)]
        # the kitty row saying there is none, and the sentence saying so; no other
        assert len(lines) == 2, lines
        assert all(("none" in line or "无" in line or "no kitty" in line or "没有底牌" in line) for line in lines)
