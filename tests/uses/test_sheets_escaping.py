"""Markdown rule sheets are safe to publish whatever a spec writes (issue 20).

mkdocs renders the sheets of docs/rules (Python-Markdown with the extensions of
mkdocs.yml) and GitHub renders the same files, so a spec's own texts — titles,
region, source, notes, readings and their ids, combo names and descriptions, plugin
parameters, the spec's file name — must come out of either as the text they are:
no raw HTML, no link, no code span closed early, no table cell split, no block
opened. A hostile spec (``extends:`` a bundled one, every string field it has
hostile) is checked without a renderer (CommonMark's code-span rule, no ``<`` in the
prose) and with each renderer that is importable; the escapers themselves are
checked by properties over random strings.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddzrules.cli.sheet  # noqa: F401 - registers the sheet command on main
from ddzrules import sheets as S
from ddzrules.cli import main
from ddzrules.sheets import document
from ddzrules.sheets import markdown as sheet_markdown
from tests.uses.test_sheets import check_html

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh")

#: what a hostile author writes: code spans of every fence, raw HTML, a javascript:
#: link and image, an attribute list, entities, emphasis, strike-through, a bare URL,
#: a cell break, newlines that would start a heading, a list and an admonition, and
#: control characters (YAML's "\x01" escapes are legal)
PAYLOAD = (
    "`` <script>alert(1)</script> `x` ``` |cell| [x](javascript:alert(1)) "
    "![i](javascript:alert(2)) <img src=x onerror=alert(3)> <!-- c --> {: onclick=alert(4)} "
    "&lt;b&gt; &amp; ~~s~~ *e* __u__ \\ http://evil.example/x www.evil.example <http://a.b>\n"
    "# h\n- item\n1. one\n!!! note\n??? x\n\x01\x1b"
)
#: the file name of the spec is the user's too (the sheet names the spec by it)
FILE_NAME = "ho`st<i>le|1.yaml"


def _hostile(n: int) -> str:
    """The payload, told apart per field so that each field can be found on the page."""
    return f"F{n:02d} {PAYLOAD}"


def hostile_spec() -> dict[str, Any]:
    """qiangdizhu (a landlord protocol, declarations, bombs, beans) with every string
    field the sheet shows made hostile; the patterns stay patterns (one with a ``|``)."""
    return {
        "name": "hostile",
        "extends": "qiangdizhu",
        "title": {"zh": _hostile(1), "en": _hostile(2)},
        "region": _hostile(3),
        "source": {"document": _hostile(4), "section": _hostile(5), "url": _hostile(6)},
        "notes": _hostile(7),
        "readings": {_hostile(8): _hostile(9), "plain-id": _hostile(10)},
        "combos": {
            "pair": {"pattern": "2", "zh": _hostile(11), "description": _hostile(12)},
            "trio_with_hand": {"pattern": "3 + 1 | 3 + 2", "zh": _hostile(13),
                               "description": _hostile(14)},
        },
        "game": {"declarations": [{"plugin": "show-hand",
                                   "params": {"factor": 2, "group": _hostile(15)}}]},
    }


#: the fields as a reader must see them: the payload with its whitespace collapsed and
#: its controls as U+FFFD (both titles are in the title row of either language), and the
#: spec's file name, which the sheet's command line names
FIELDS = [document.clean(_hostile(n)) for n in range(1, 16)] + [FILE_NAME]


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> S.Sheet:
    directory = tmp_path_factory.mktemp("hostile")
    (directory / FILE_NAME).write_text(
        yaml.safe_dump(hostile_spec(), allow_unicode=True), encoding="utf-8"
    )
    return S.build_sheet(directory / FILE_NAME)


# ====================================================================== without a renderer


def code_spans(line: str) -> tuple[list[str], list[str], list[str]]:
    """A line read by CommonMark's code-span rule: a run of n backticks not escaped by
    a backslash opens a span that the next run of exactly n closes (backslashes do
    not escape inside). Returns (prose pieces, span contents, unmatched runs)."""
    prose: list[str] = []
    spans: list[str] = []
    unmatched: list[str] = []
    i, start = 0, 0
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line[i] != "`":
            i += 1
            continue
        n = len(re.match(r"`+", line[i:]).group())  # type: ignore[union-attr]
        close = re.compile(rf"(?<!`)`{{{n}}}(?!`)").search(line, i + n)
        if close is None:
            unmatched.append(line[i : i + n])
            i += n
            continue
        prose.append(line[start:i])
        spans.append(line[i + n : close.start()])
        i = start = close.end()
    prose.append(line[start:])
    return prose, spans, unmatched


def _unescaped(prose: str) -> str:
    """Prose with its escapes undone (backslash escapes, then character references)."""
    return html.unescape(re.sub(r"\\(.)", r"\1", prose))


@pytest.mark.parametrize("lang", LANGS)
def test_the_hostile_markdown_has_no_raw_html_and_no_broken_code_span(
    sheet: S.Sheet, lang: str
) -> None:
    md = S.render_sheet(sheet, lang, "md")
    assert "\x01" not in md and "\x1b" not in md
    for line in md.splitlines():
        prose, spans, unmatched = code_spans(line)
        assert not unmatched, f"a backtick run opens no code span: {line}"
        text = "".join(prose)
        assert "<" not in text, f"raw < in the prose: {line}"
        # no ``](`` link, ``<`` autolink or ``{:`` attribute list can start in the prose
        assert not re.search(r"(?<!\\)[\[\]{}]", text), line
        for span in spans:
            assert "\n" not in span
    # every field is on the page, in prose or in code
    shown = "".join(
        _unescaped("".join(p)) + "".join(c) for p, c, _ in map(code_spans, md.splitlines())
    )
    assert all(f"F{n:02d}" in shown for n in range(1, 16)) and "ho`st<i>le" in shown
    # no line starts a block the sheet did not write
    for line in md.splitlines():
        assert not re.match(r"(#+ h\b|- item|1\. one|!!! |\?\?\? )", line), line


@pytest.mark.parametrize("lang", LANGS)
def test_the_hostile_html_is_well_formed_and_inert(sheet: S.Sheet, lang: str) -> None:
    page = S.render_sheet(sheet, lang, "html")
    check_html(page)  # well-formed XML (the control characters made it not), no link, no script
    assert "&lt;script&gt;" in page and "\ufffd" in page


def test_the_command_writes_the_hostile_sheet(sheet: S.Sheet, tmp_path: Path) -> None:
    spec = tmp_path / FILE_NAME
    spec.write_text(yaml.safe_dump(hostile_spec(), allow_unicode=True), encoding="utf-8")
    out = tmp_path / "sheet.md"
    result = CliRunner().invoke(main, ["sheet", str(spec), "--lang", "zh", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == S.render_sheet(sheet, "zh", "md")


# ====================================================================== rendered


#: elements inside a line of text (the others separate texts)
_INLINE = {"code", "strong", "a"}


class _Page(HTMLParser):
    """The elements, attributes and visible text of a rendered page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str]] = []
        self.chunks: list[str] = []
        self.rows: list[int] = []  # cells per table row
        self.skip = 0
        self.closing: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += [(k, v or "") for k, v in attrs]
        # the page's head, and the permalink the site's toc puts after each heading
        if tag in ("head", "style", "title") or ("class", "headerlink") in attrs:
            self.skip += 1
            self.closing.append(tag)
        if tag == "tr":
            self.rows.append(0)
        if tag in ("td", "th"):
            self.rows[-1] += 1
        if tag not in _INLINE:
            self.chunks.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.closing and self.closing[-1] == tag:
            self.closing.pop()
            self.skip -= 1
        if tag not in _INLINE:
            self.chunks.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.chunks.append(data)

    def handle_comment(self, data: str) -> None:
        self.tags.append("!--")

    @property
    def text(self) -> str:
        return _collapse("".join(self.chunks))


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def page(text: str) -> _Page:
    p = _Page()
    p.feed(text)
    p.close()
    return p


def _site() -> Callable[[str], str]:
    """Python-Markdown with the site's own extensions, read from mkdocs.yml."""
    markdown = pytest.importorskip("markdown")
    entries = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))[
        "markdown_extensions"
    ]
    names = [e if isinstance(e, str) else next(iter(e)) for e in entries]
    configs = {k: v for e in entries if isinstance(e, dict) for k, v in e.items()}
    for name in names:
        if name.startswith("pymdownx."):
            pytest.importorskip(name)
    return lambda text: markdown.markdown(text, extensions=names, extension_configs=configs)


def _github() -> Callable[[str], str]:
    """GitHub's renderer (cmark-gfm), raw HTML let through so that any would show."""
    cmarkgfm = pytest.importorskip("cmarkgfm")
    from cmarkgfm.cmark import Options

    return lambda text: cmarkgfm.github_flavored_markdown_to_html(
        text, options=Options.CMARK_OPT_UNSAFE
    )


RENDERERS = {"site": _site, "github": _github}
#: the elements a sheet is made of (and the permalinks the site's toc adds)
ELEMENTS = {"h1", "h2", "h3", "p", "ul", "li", "table", "thead", "tbody", "tr", "th", "td",
            "code", "strong", "a"}


def _inert(p: _Page) -> None:
    assert set(p.tags) <= ELEMENTS, set(p.tags) - ELEMENTS
    for key, value in p.attrs:
        assert not key.startswith("on"), (key, value)
        if key in ("href", "src"):
            # the site's heading permalinks only
            assert value.startswith("#"), (key, value)


@pytest.mark.parametrize("renderer", RENDERERS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_hostile_sheet_renders_as_its_text(sheet: S.Sheet, lang: str, renderer: str) -> None:
    render = RENDERERS[renderer]()
    md = S.render_sheet(sheet, lang, "md")
    p = page(render(md))
    _inert(p)
    assert "script" not in p.tags and "img" not in p.tags
    for field in FIELDS:
        assert _collapse(field) in p.text, field[:3]
    # the Markdown says what the HTML sheet says, character for character
    assert p.text == page(S.render_sheet(sheet, lang, "html")).text


@pytest.mark.parametrize("spec", ["hubei-3p", "laizi", "paodekuai"])
def test_the_site_shows_a_bundled_sheet_as_the_html_sheet_says_it(spec: str) -> None:
    """No escape shows through on the site (Python-Markdown kept the backslash of "\\<"
    and of a "\\|" inside a code span: the patterns' alternatives read ``3 + 1 \\| 3 + 2``)."""
    render = _site()
    from tests.uses.test_sheets import built

    for lang in LANGS:
        p = page(render(S.render_sheet(built(spec), lang, "md")))
        _inert(p)
        assert p.text == page(S.render_sheet(built(spec), lang, "html")).text
        assert "\\" not in p.text


# ====================================================================== the escapers

#: random texts made mostly of what Markdown reads as markup
_PIECES = list("`\\*_[](){}#|<>&~!?-+=.:;'\"/@ \n\t\u00a0\u2028\x00\x02\x7f") + [
    "``", "```", "<script>", "</script>", "&amp;", "&#60;", "{:", "!!!", "???", "1.", "2)",
    "javascript:", "http://x.y", "www.", "<!--", "-->", "<http://a.b>", "[x]", "(x)", "![i](x)",
    "\\`", "||", "- ", "# ", "> ", "    ",
]
TEXTS = st.lists(st.sampled_from(_PIECES) | st.text(max_size=3), max_size=12).map("".join)
PROPERTY = settings(max_examples=300, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _norm(text: str) -> str:
    return _collapse(document.clean(text))


@PROPERTY
@given(TEXTS)
def test_prose_escapes_are_undone_to_the_text_and_leave_no_markup(text: str) -> None:
    out = S.md_text(text)
    assert "\n" not in out and "<" not in out
    assert _unescaped(out) == document.clean(text)
    _, spans, unmatched = code_spans(out)
    assert spans == [] and unmatched == []
    # every metacharacter left is escaped by a backslash
    bare = re.sub(r"\\.|&(?:amp|lt|gt|#\d+);", "", out)
    assert not re.search(r"[\\`*_\[\]{}#|<>&~]", bare), out


@PROPERTY
@given(TEXTS, st.booleans())
def test_code_is_whole_code_spans_that_hold_the_text(text: str, in_table: bool) -> None:
    out = S.md_code(text, in_table)
    assert "\n" not in out
    prose, spans, unmatched = code_spans(out)
    assert unmatched == []
    if in_table:  # no | inside a span: the bars are escaped prose between them
        assert not any("|" in s for s in spans)
        assert re.fullmatch(r"[ ]*(\\\|[ ]*)*", "".join(prose)), prose
    else:
        assert len(spans) <= 1 and "".join(prose).strip(" ") in ("", document.clean(text).strip(" "))
    # the text is the spans' (one pad space off each side, as CommonMark strips it) and,
    # in a table, the bars between them
    shown = "".join(s[1:-1] if s[:1] == s[-1:] == " " and s.strip() else s for s in spans)
    want = document.clean(text)
    if in_table:
        assert "".join(prose).count("\\|") == want.count("|")
        want = want.replace("|", "")
    assert shown.replace(" ", "") == want.replace(" ", "")


@pytest.mark.parametrize("name", RENDERERS)
def test_prose_and_code_render_as_their_text(name: str) -> None:
    """On the site and on GitHub: a paragraph and a list item that start with hostile
    text and a two-cell table row stay one paragraph, one item and two cells, showing the
    texts (whitespace collapsed; a code span's edges may lose their spaces)."""
    render = RENDERERS[name]()  # skips when the renderer is not installed
    links = {"a"} if name == "github" else set()  # GitHub links a bare e-mail address

    @PROPERTY
    @given(TEXTS, TEXTS)
    def prop(a: str, b: str) -> None:
        if _norm(a):
            para = page(render(sheet_markdown.md_line((("", a), ("code", b), ("", " end")))))
            assert set(para.tags) <= {"p", "code"} | links, para.tags
            assert para.tags.count("p") == 1
            item = page(render("- " + sheet_markdown.md_line((("", a),)) + "\n- two"))
            assert item.tags.count("li") == 2 and item.tags.count("ul") == 1, item.tags
        row = f"| {sheet_markdown.md_inline((('', a),), True)} | {sheet_markdown.md_inline((('code', b),), True)} |"
        table = page(render("| h1 | h2 |\n| --- | --- |\n" + row))
        assert table.rows == [2, 2], (row, table.rows)
        assert set(table.tags) <= (ELEMENTS - {"a"}) | links
        assert table.text.replace(" ", "") == ("h1h2" + _norm(a) + _norm(b)).replace(" ", ""), row

    prop()
