"""The generated blocks of the docs (ddzrules.generated, `ddzrules docs`): one mechanism
for the rule sheets, the plugins' parameters and the CLI and schema references; the
committed blocks are what their commands write."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ddzrules import generated
from ddzrules.cli import main
from ddzrules.cli.docs import GENERATORS
from ddzrules.errors import DdzError

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: click formats help by its own version's rules: the site's build writes this block again
#: from the installed commands, so the committed copy is not held to this machine's click
VERSION_DEPENDENT = {"ddzrules docs cli"}


def echo(args: list[str]) -> str:
    return " ".join(args) + "\n"


def block(source: str, body: str = "old\n") -> str:
    return f"{generated.BEGIN.format(source=source)}\n{body}{generated.END}\n"


def test_every_committed_block_is_what_its_command_writes() -> None:
    seen = set()
    for path in generated.markdown_files([DOCS]):
        text = path.read_text(encoding="utf-8")
        for b in generated.blocks(text, str(path)):
            found = generated.generator_for(b, GENERATORS)
            assert found is not None, f"{path}: no command writes the block {b.source!r}"
            make, args = found
            command = b.source[: len(b.source) - len(" ".join(args))].strip()
            seen.add(command)
            if command in VERSION_DEPENDENT:
                continue
            assert b.text == make(args), f"{path}: the block {b.source!r} is stale: run `ddzrules docs update docs`"
    assert seen == set(GENERATORS)  # every generator has a block in the docs


def test_only_the_blocks_change() -> None:
    text = "# t\n\n" + block("ddzrules echo a b") + "\nkept\n" + block("ddzrules echo c") + "end\n"
    new = generated.regenerate(text, {"ddzrules echo": echo})
    assert new == ("# t\n\n" + block("ddzrules echo a b", "a b\n") + "\nkept\n" + block("ddzrules echo c", "c\n")
                   + "end\n")
    assert generated.regenerate(new, {"ddzrules echo": echo}) == new


def test_the_longest_command_is_the_generator() -> None:
    text = block("ddzrules docs cli")
    gens = {"ddzrules docs": lambda args: "short\n", "ddzrules docs cli": lambda args: f"long {args}\n"}
    assert "long []" in generated.regenerate(text, gens)


def test_an_example_in_fenced_code_is_no_block() -> None:
    text = "```markdown\n" + block("ddzrules echo x") + "```\n"
    assert generated.blocks(text) == []
    assert generated.regenerate(text, {"ddzrules echo": echo}, strict=True) == text


def test_a_block_without_its_end_says_where() -> None:
    text = "a\nb\n" + generated.BEGIN.format(source="ddzrules echo x") + "\nno end\n"
    with pytest.raises(DdzError, match=r"^doc\.md:3: the block 'ddzrules echo x' has no"):
        generated.blocks(text, "doc.md")
    nested = generated.BEGIN.format(source="ddzrules echo x") + "\n" + block("ddzrules echo y")
    with pytest.raises(DdzError, match="has no"):
        generated.blocks(nested, "doc.md")


def test_a_block_of_no_known_command() -> None:
    text = block("ddzrules nothing")
    assert generated.regenerate(text, {"ddzrules echo": echo}) == text  # another command's block
    with pytest.raises(DdzError, match="no command writes the block 'ddzrules nothing'"):
        generated.regenerate(text, {"ddzrules echo": echo}, strict=True)


def test_docs_update_rewrites_and_checks(tmp_path: Path) -> None:
    page = tmp_path / "sub" / "page.md"
    page.parent.mkdir()
    page.write_text("# x\n\n" + block("ddzrules docs schema", "STALE\n") + "after\n", encoding="utf-8")
    (tmp_path / "plain.md").write_text("no blocks\n", encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(main, ["docs", "update", "--check", str(tmp_path)])
    assert checked.exit_code == 1 and "stale" in checked.output and "STALE" in page.read_text(encoding="utf-8")
    assert "Traceback" not in checked.output
    updated = runner.invoke(main, ["docs", "update", str(tmp_path)])
    assert updated.exit_code == 0, updated.output
    text = page.read_text(encoding="utf-8")
    assert "STALE" not in text and "| key | type |" in text and text.endswith(generated.END + "\nafter\n")
    again = runner.invoke(main, ["docs", "update", "--check", str(tmp_path)])
    assert again.exit_code == 0 and "up to date" in again.output


@pytest.mark.parametrize(("content", "message"), [
    (block("ddzrules docs cli extra"), "takes no words"),
    (block("ddzrules sheet hubei-3p --lang fr"), "a sheet block is"),
    (block("ddzrules docs nothing"), "no command writes the block"),
    (block("ddzrules echo 'unclosed"), "the block"),
    (generated.BEGIN.format(source="ddzrules docs cli") + "\n", "has no"),
])
def test_bad_blocks_exit_1_with_a_message(tmp_path: Path, content: str, message: str) -> None:
    page = tmp_path / "page.md"
    page.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(main, ["docs", "update", str(page)])
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output
    assert page.read_text(encoding="utf-8") == content  # nothing written


def test_docs_update_of_nothing_is_refused(tmp_path: Path) -> None:
    (tmp_path / "plain.md").write_text("no blocks\n", encoding="utf-8")
    for args in ([str(tmp_path)], [str(tmp_path / "missing.md")]):
        result = CliRunner().invoke(main, ["docs", "update", *args])
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output


@pytest.mark.parametrize("make, kind", [
    (lambda d: Path("/dev/zero"), "a character device"),
    (lambda d: (os.mkfifo(d / "pipe.md"), d / "pipe.md")[1], "a FIFO (named pipe)"),
])
def test_docs_update_says_what_a_path_that_is_no_file_is(tmp_path: Path, make: Any, kind: str) -> None:
    # /dev/zero was "no such file or directory", of a path that is there
    path = make(tmp_path)
    result = CliRunner().invoke(main, ["docs", "update", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert result.output == f"error: {path}: {kind}, not a Markdown file or a directory\n"


def test_the_printing_commands_write_their_blocks() -> None:
    runner = CliRunner()
    for name in ("cli", "schema", "plugins"):
        result = runner.invoke(main, ["docs", name])
        assert result.exit_code == 0, result.output
        assert result.output == GENERATORS[f"ddzrules docs {name}"]([])


def test_a_block_naming_a_foreign_file_as_its_spec_does_not_show_it(tmp_path: Path) -> None:
    """A page's block can name any file as a sheet's spec (/etc/shadow): its lines were
    printed one by one as the spec's problems. The page and line are named, the file's
    content never shown."""
    secret = tmp_path / "shadow"
    secret.write_text("".join(f"user{i}:$6$SECRETHASH{i}:20228:0:99999:7:::\n" for i in range(5)), encoding="utf-8")
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    content = "# x\n\n" + block(f"ddzrules sheet {secret} --lang en")
    page.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(main, ["docs", "update", str(page)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "SECRETHASH" not in result.output and "user0" not in result.output
    (line,) = result.output.splitlines()
    assert line.startswith(f"error: {page}:3: the block ") and "names a spec that does not load" in line, line
    assert page.read_text(encoding="utf-8") == content


def test_a_failing_block_leaves_every_page_as_it_was(tmp_path: Path) -> None:
    """The pages are written once all are made: a.md was rewritten before b.md's block failed."""
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a_text = block("ddzrules docs schema", "STALE\n")
    b_text = "\n" + block("ddzrules sheet nosuchspec --lang en")
    a.write_text(a_text, encoding="utf-8")
    b.write_text(b_text, encoding="utf-8")
    result = CliRunner().invoke(main, ["docs", "update", str(tmp_path)])
    assert result.exit_code == 1 and f"{b}:2: the block " in result.output and "nosuchspec" in result.output
    assert a.read_text(encoding="utf-8") == a_text and b.read_text(encoding="utf-8") == b_text


def test_a_page_too_large_is_refused_unread(tmp_path: Path) -> None:
    page = tmp_path / "huge.md"
    with open(page, "wb") as f:  # sparse: 3 GB of nothing on disk, read whole before
        f.truncate(3 * 2**30)
    result = CliRunner().invoke(main, ["docs", "update", str(page)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "more than the 16 MiB a page may hold" in result.output


def test_a_hostile_file_name_is_printed_escaped(tmp_path: Path) -> None:
    """`docs update DIR` listed a page named `\\x1b[31mRED\\u202e.md` with its ESC raw."""
    page = tmp_path / "\x1b[31mRED[bold]\u202e.md"
    page.write_text(block("ddzrules docs schema", "STALE\n"), encoding="utf-8")
    result = CliRunner().invoke(main, ["docs", "update", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output
    assert "\\x1b[31mRED[bold]\\u202e.md" in result.output and "(1 block)" in result.output


def test_a_directory_walk_skips_hidden_folders_and_symbolic_links(tmp_path: Path) -> None:
    """`docs update .` at a project's root walked .git and .venv (and followed links)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(block("ddzrules docs schema"), encoding="utf-8")
    for hidden in (".venv", ".git/sub"):
        (tmp_path / hidden).mkdir(parents=True)
        (tmp_path / hidden / "vendored.md").write_text(block("ddzrules docs schema"), encoding="utf-8")
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "other.md").write_text(block("ddzrules docs schema"), encoding="utf-8")
    (tmp_path / "linked").symlink_to(outside, target_is_directory=True)
    assert generated.markdown_files([tmp_path]) == [tmp_path / "docs" / "page.md"]
    # a hidden folder named itself is walked: the user asked for it
    assert generated.markdown_files([tmp_path / ".venv"]) == [tmp_path / ".venv" / "vendored.md"]


def test_a_directory_too_large_to_walk_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`docs update --check /` walked the whole file system."""
    for i in range(6):
        (tmp_path / f"d{i}").mkdir()
        (tmp_path / f"d{i}" / "page.md").write_text(block("ddzrules docs schema"), encoding="utf-8")
    monkeypatch.setattr(generated, "MAX_WALKED", 10)
    result = CliRunner().invoke(main, ["docs", "update", "--check", str(tmp_path)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert f"'{tmp_path}': more than 10 files and folders under it" in result.output
    monkeypatch.setattr(generated, "MAX_WALKED", 12)
    assert len(generated.markdown_files([tmp_path])) == 6


def _cli_sections(block_text: str) -> dict[str, tuple[str, frozenset[str]]]:
    """Per command of a CLI reference block, its usage line and every ``--flag`` its help
    names, read past click's line wrapping (which may break a flag at a hyphen)."""
    text = re.sub(r"-\n\s+", "-", block_text)
    sections = re.split(r"^#{2,3} (ddzrules[^\n]*)$", text, flags=re.MULTILINE)[1:]
    out = {}
    for title, body in zip(sections[::2], sections[1::2]):
        usage = re.search(r"^Usage: ([^\n]*)$", body, flags=re.MULTILINE)
        assert usage is not None, title
        out[title] = (" ".join(usage.group(1).split()), frozenset(re.findall(r"(?<![\w-])--[a-z][\w-]*", body)))
    return out


def test_the_committed_cli_reference_names_every_command_and_option() -> None:
    """The committed CLI block is not compared whole (click's version decides its layout),
    so a new option or command could go undocumented: its commands, their usage lines and
    the options each names must be those the installed commands print."""
    page = DOCS / "reference" / "cli.md"
    (committed,) = generated.blocks(page.read_text(encoding="utf-8"), str(page))
    now = _cli_sections(GENERATORS["ddzrules docs cli"]([]))
    assert len(now) > 20 and all(flags for _, flags in now.values())
    assert _cli_sections(committed.text) == now, "docs/reference/cli.md is stale: run `ddzrules docs update docs`"


def test_a_deep_tree_is_refused_with_a_message(tmp_path: Path) -> None:
    """A tree 1,200 folders deep was a RecursionError traceback: os.walk recurses. Here the
    tree is 300 deep under a recursion limit 200 frames above the test's (a tree deeper
    than Python's limit would break pytest's own removal of tmp_path, which recurses too)."""
    import inspect
    import sys

    docs = tmp_path / "docs"
    deep = docs.joinpath(*["a"] * 300)
    deep.mkdir(parents=True)
    (deep / "page.md").write_text(block("ddzrules docs schema"), encoding="utf-8")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 200)
    try:
        result = CliRunner().invoke(main, ["docs", "update", str(docs)])
    finally:
        sys.setrecursionlimit(limit)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert f"folders nested more than {generated.MAX_DEPTH} deep" in result.output


def test_the_depth_bound_is_the_walk_s_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages at the deepest allowed level are found; one level more is refused."""
    monkeypatch.setattr(generated, "MAX_DEPTH", 3)
    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    (tmp_path / "a" / "b" / "c" / "page.md").write_text("x\n", encoding="utf-8")
    assert generated.markdown_files([tmp_path]) == [tmp_path / "a" / "b" / "c" / "page.md"]
    (tmp_path / "a" / "b" / "c" / "d").mkdir()
    with pytest.raises(DdzError, match="nested more than 3 deep"):
        generated.markdown_files([tmp_path])


def test_a_page_of_many_fences_and_blocks_is_read_in_linear_time(tmp_path: Path) -> None:
    """A 4 MB page of 250,000 fences and 30,000 blocks: each marker was compared with
    every fence (7.5 billion comparisons: a 444 KB page of this shape took 22 s, this one
    hours). Linear, it is read in well under a second; the guard is
    generous for a loaded machine, and fails the quadratic reading by orders of magnitude."""
    import signal

    fences = "```\n```\n" * 250_000
    page = fences + block("ddzrules echo x") * 30_000
    assert len(page) > 4_000_000

    def expired(signum: int, frame: Any) -> None:
        raise TimeoutError("quadratic: the page was not read within 60 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(60)
    try:
        found = generated.blocks(page, "page.md")
        new = generated.regenerate(page, {"ddzrules echo": echo})
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert len(found) == 30_000
    assert new == fences + block("ddzrules echo x", "x\n") * 30_000


def test_the_blocks_inside_fences_are_told_apart_from_those_between(tmp_path: Path) -> None:
    """The bisection over the fences gives what comparing with each fence gave."""
    text = ("```\n" + block("ddzrules echo in1") + "```\n" + block("ddzrules echo out1")
            + "~~~\n```\n" + block("ddzrules echo in2") + "~~~\n" + block("ddzrules echo out2")
            + "```\n" + block("ddzrules echo in3"))  # an unclosed fence runs to the end
    assert [b.source for b in generated.blocks(text)] == ["ddzrules echo out1", "ddzrules echo out2"]


def test_a_page_is_never_made_larger_than_a_page_may_be(tmp_path: Path) -> None:
    """A 40 KB page of 600 CLI reference markers was written as 17 MiB, which docs update
    then refused to read: what is written is bounded as what is read, and nothing is written."""
    page = tmp_path / "page.md"
    content = block("ddzrules docs cli") * 600
    page.write_text(content, encoding="utf-8")
    assert page.stat().st_size < 50_000
    result = CliRunner().invoke(main, ["docs", "update", str(page)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "would pass the 16 MiB a page may hold" in result.output
    assert page.read_text(encoding="utf-8") == content
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]


def test_the_bound_on_a_page_made_is_the_bound_on_a_page_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generated, "MAX_PAGE_BYTES", 150)
    big = {"ddzrules echo": lambda args: "é" * int(args[0]) + "\n"}  # two UTF-8 bytes a character
    fits = block("ddzrules echo 20")
    assert 100 < len(generated.regenerate(fits, big).encode()) <= 150
    with pytest.raises(DdzError, match="would pass"):
        generated.regenerate(block("ddzrules echo 50"), big)  # 101 bytes made, 166 with the markers
    with pytest.raises(DdzError, match="would pass"):
        generated.regenerate(fits + "x" * 50, big)  # the text after the last block counts too


def test_blocks_of_one_source_are_made_once() -> None:
    calls: list[list[str]] = []

    def counted(args: list[str]) -> str:
        calls.append(args)
        return "made\n"

    text = block("ddzrules echo a") * 5 + block("ddzrules echo b") * 3
    new = generated.regenerate(text, {"ddzrules echo": counted})
    assert new.count("made\n") == 8 and calls == [["a"], ["b"]]


def test_a_linked_page_in_a_directory_is_not_followed_out_of_it(tmp_path: Path) -> None:
    """docs/page.md -> ../outside.md: docs update docs rewrote outside.md."""
    docs = tmp_path / "docs"
    docs.mkdir()
    outside = tmp_path / "outside.md"
    content = block("ddzrules docs schema", "STALE\n")
    outside.write_text(content, encoding="utf-8")
    (docs / "page.md").symlink_to(outside)
    (docs / "own.md").write_text(content, encoding="utf-8")
    result = CliRunner().invoke(main, ["docs", "update", str(docs)])
    assert result.exit_code == 0, result.output
    assert outside.read_text(encoding="utf-8") == content  # not rewritten
    assert "STALE" not in (docs / "own.md").read_text(encoding="utf-8")
    assert "page.md" not in result.output and (docs / "page.md").is_symlink()
    # a link the user names is theirs to follow
    named = CliRunner().invoke(main, ["docs", "update", str(docs / "page.md")])
    assert named.exit_code == 0 and "STALE" not in outside.read_text(encoding="utf-8")


def test_a_page_replaced_by_a_link_after_the_walk_replaces_the_link(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the walk and the write a page may become a link out of the directory: the
    link is replaced by the page, what it leads to is not written."""
    docs = tmp_path / "docs"
    docs.mkdir()
    page = docs / "page.md"
    page.write_text(block("ddzrules echo x"), encoding="utf-8")
    outside = tmp_path / "outside.md"
    outside.write_text("someone else's\n", encoding="utf-8")
    real_regenerate = generated.regenerate

    def swapped(text: str, *args: Any, **kwargs: Any) -> str:
        page.unlink()
        page.symlink_to(outside)
        return real_regenerate(text, *args, **kwargs)

    monkeypatch.setattr(generated, "regenerate", swapped)
    generated.update_files([docs], {"ddzrules echo": echo})
    assert outside.read_text(encoding="utf-8") == "someone else's\n"
    assert not page.is_symlink() and "\nx\n" in page.read_text(encoding="utf-8")


def test_sheet_update_docs_does_not_follow_a_linked_page(tmp_path: Path) -> None:
    from ddzrules.sheets import update_docs

    docs = tmp_path / "docs"
    docs.mkdir()
    outside = tmp_path / "outside.md"
    content = block("ddzrules sheet hubei-3p --lang en", "STALE\n")
    outside.write_text(content, encoding="utf-8")
    (docs / "page.md").symlink_to(outside)
    assert update_docs(docs) == []
    assert outside.read_text(encoding="utf-8") == content
