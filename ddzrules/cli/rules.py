"""The commands about rules alone, no game played: ``list``, ``validate``, ``schema``,
``new``, ``show``, ``census``, ``classify``, ``compare``, ``moves`` and ``demo``."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click
from rich.cells import cell_len
from rich.table import Table

from ddzrules import cards as C
from ddzrules.cli import main
from ddzrules.cli.batch import Answer, batch_option, batch_usage, run_batch, text_field
from ddzrules.cli.common import (
    CardArgsCommand,
    check_seed,
    console,
    emit_json,
    err_console,
    escape_bidi,
    fail,
    json_option,
    plain,
    plugin_option,
    spec_argument,
    spec_inputs,
    styled,
    user_errors,
    user_plugins,
    wild_option,
)
from ddzrules.errors import DdzError
from ddzrules.rules.moves import Move
from ddzrules.spec import SPEC_NAME, bundled_names, dump_yaml, load_spec, starter_text
from ddzrules.variant import Variant, load_variant


@main.command("list")
@json_option
@user_errors
def list_cmd(as_json: bool) -> None:
    """List the bundled specs."""
    rows = []
    for name in bundled_names():
        spec = load_spec(name)
        rules = spec.rule_spec
        rows.append({"name": name, "zh": rules.title_zh, "en": rules.title_en,
                     "region": rules.region or "", "extends": _parent(spec.file)})
    if as_json:
        emit_json(rows)
        return
    table = Table("name", "title", "region", "extends", box=None)
    for r in rows:
        table.add_row(r["name"], f"{r['zh']}  {r['en']}", r["region"], r["extends"] or "")
    console.print(table)


def _parent(file: str) -> str | None:
    import yaml

    from ddzrules.spec import bundled_root, read_spec_text

    path = bundled_root() / Path(file).relative_to("specs") if file.startswith("specs/") else Path(file)
    data = yaml.safe_load(read_spec_text(path, file))
    return data.get("extends") if isinstance(data, dict) else None


@main.command()
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("--strict", is_flag=True, help="Warnings fail too (exit 1).")
@click.option("--unreferenced-readings", is_flag=True,
              help="Also warn about readings: no '# reading: ID' comment names.")
@plugin_option
@json_option
def validate(specs: tuple[str, ...], strict: bool, unreferenced_readings: bool, plugins: tuple[str, ...],
             as_json: bool) -> None:
    """Validate specs in one pass: the schema of every file of the extends: chain, every
    pattern, the compile, the game: plugins and their parameters, and warnings for likely
    mistakes (exit 0 with warnings unless --strict). --plugin names a plugin class that
    is not installed, which a spec's game: section may then use."""
    try:
        with user_plugins(plugins):
            _validate(specs, strict, unreferenced_readings, as_json)
    except DdzError as e:  # a --plugin that cannot be loaded
        fail(str(e))


def _validate(specs: tuple[str, ...], strict: bool, unreferenced_readings: bool, as_json: bool) -> None:
    from ddzrules.lint import finding_dict, validate_spec

    results = []
    failed = False
    for name in specs:
        report = validate_spec(name, unreferenced_readings)
        ok = report.ok(strict)
        failed = failed or not ok
        result: dict[str, Any] = {"spec": name, "ok": ok, "problems": [str(p) for p in report.findings],
                                  "findings": [finding_dict(p) for p in report.findings]}
        if report.combos is not None:
            result["combos"] = report.combos
        results.append(result)
        if as_json:
            continue
        for p in report.findings:
            text = str(p) if p.severity == "error" else str(p).replace(
                f"{p.path}: " if p.path else "", f"{p.path}: warning: " if p.path else "warning: ", 1)
            err_console.print(plain(text), markup=False, soft_wrap=True, highlight=False)
        if not report.errors:
            warned = f", {len(report.warnings)} warning(s)" if report.warnings else ""
            combos = f"{report.combos} combos" if report.combos is not None else "not compiled"
            label = "[yellow]warn[/]" if report.warnings else "[green]ok[/]"
            console.print(styled(label + "  {} ({}{})", name, combos, warned))
    if as_json:
        emit_json(results)
    sys.exit(1 if failed else 0)


@main.command("schema")
def schema_cmd() -> None:
    """Print the spec JSON Schema, for editors (yaml-language-server) to complete and
    check specs as they are typed: `ddzrules schema > ddzrules-spec.schema.json`."""
    from importlib import resources

    click.echo(resources.files("ddzrules.spec").joinpath("spec.schema.json").read_text(encoding="utf-8"),
               nl=False)


@main.command("new")
@click.argument("name")
@click.option("--extends", "parent", required=True, metavar="PARENT",
              help="The parent spec: a bundled name or a .yaml file.")
@click.option("-o", "--output", default=None, metavar="FILE", help="Write here (default: stdout).")
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists (refused otherwise).")
@user_errors
def new_cmd(name: str, parent: str, output: str | None, force: bool) -> None:
    """Write a commented starting spec that extends PARENT and validates as it is."""
    if not SPEC_NAME.fullmatch(name):
        raise click.BadParameter("lower case letters, digits, '/', '_' and '-'", param_hint="NAME")
    if output is not None:
        if not force and os.path.lexists(output):
            # checked before any work; the "x" mode below closes the race with another writer
            raise DdzError(f"{output} exists: not overwritten (--force to replace it)")
        from ddzrules.outputs import check_output_path

        # not a directory, a FIFO (which would block) or a device, nor the parent or one it extends
        check_output_path(output, "-o", spec_inputs(parent))
    extends = None
    if output is not None and parent.endswith((".yaml", ".yml")):
        # a parent file is found next to the spec that extends it: named from the new file's folder
        extends = Path(os.path.relpath(os.path.abspath(parent), os.path.dirname(os.path.abspath(output)))).as_posix()
    text = starter_text(name, parent, extends)
    if output is not None:
        from ddzrules.outputs import write_file

        # in one step (a full disk leaves no half spec); without --force never over a file
        # that appeared since the check above
        write_file(output, text, "-o", exclusive=not force)
        err_console.print(styled("wrote {}", output))
    else:
        click.echo(text, nl=False)


@main.command()
@spec_argument
@click.option("--resolved", is_flag=True, help="Print the merged spec, parents applied.")
@json_option
@user_errors
def show(spec: str, resolved: bool, as_json: bool) -> None:
    """Print a spec (as written, or --resolved with its parents merged)."""
    loaded = load_spec(spec)
    if resolved:
        data = loaded.data
        if as_json:
            emit_json(data)
        else:
            click.echo(escape_bidi(f"# {loaded.name}: resolved from {' <- '.join(loaded.chain)}"))
            click.echo(escape_bidi(dump_yaml(data)), nl=False)
        return
    from ddzrules.spec import read_spec_text, resolve_name

    path = resolve_name(spec)
    text = read_spec_text(path, str(path))  # bounded: the file may have changed since load_spec
    if as_json:
        import yaml

        emit_json(yaml.safe_load(text))
    else:
        # the file as written, but for bidi controls and line breaks: YAML reads a lone
        # carriage return as one, and printed raw it hides the line before it on a terminal
        click.echo(escape_bidi(text.replace("\r\n", "\n").replace("\r", "\n")), nl=False)


@main.command()
@spec_argument
@wild_option
@json_option
@user_errors
def census(spec: str, wild: str | None, as_json: bool) -> None:
    """Count the whole move universe by combo (--wild: with that rank's cards wild)."""
    v = load_variant(spec)
    c = v.census(wild=wild)
    if as_json:
        emit_json({"spec": v.name, "hash": v.rules.content_hash, **c.to_dict()})
        return
    table = Table("combo", "zh", "plays", box=None)
    for info in v.rules.combos:
        table.add_row(info.name, info.zh, f"{c.by_combo[info.name]:,}")
    table.add_row(styled("[bold]total distinct[/]"), "", styled("[bold]{}[/]", f"{c.total:,}"))
    if c.readings != c.total:
        table.add_row("readings", "", f"{c.readings:,}")
    for w, n in (c.by_wilds or {}).items():
        table.add_row(f"readings with {w} wild(s)", "", f"{n:,}")
    console.print(styled("[bold]{}[/]: plays of at most {} cards", v.name, v.rules.max_hand))
    console.print(table)


def _move_rows(moves: list[Move]) -> Iterator[str]:
    """The plays as aligned text lines, a header first (the columns of a rich Table
    without a box: each cell padded by a space; no wrapping to the terminal's width): a
    full deck with a wild rank lists 452,219 plays, which a rich Table takes minutes to
    lay out. :func:`_print_rows` writes them in chunks."""
    wild = any(m.substitution for m in moves)
    header = ["cards", "combo", "rank", "length", "key", *(["wilds stand for"] if wild else [])]

    def cells(m: Move) -> list[str]:
        extra = [" ".join(f"{a}→{b}" for a, b in m.substitution)] if wild else []
        return [m.cards, m.combo + (" (bomb)" if m.is_bomb else ""), m.rank_name, str(m.length), str(m.key), *extra]

    def width(text: str) -> int:
        return len(text) if text.isascii() else cell_len(text)

    rows = [header, *map(cells, moves)]
    widths = [max(map(width, column)) for column in zip(*rows)]
    for row in rows:
        yield "".join(f" {c}{' ' * (w - width(c))} " for c, w in zip(row, widths))


def _print_rows(lines: Iterable[str]) -> None:
    """Print text lines in chunks, each written as soon as it is made."""
    chunk: list[str] = []
    for text in lines:
        chunk.append(text)
        if len(chunk) == 2000:
            click.echo("\n".join(chunk))
            chunk = []
    if chunk:
        click.echo("\n".join(chunk))


# ------------------------------------------------------------------ classify, compare, moves
# Each question is answered by one function returning the --json answer, so that a
# single question and a line of a --batch file give the same fields.


def _some_cards(text: str, what: str) -> str:
    """``text`` parsed as cards; an empty string is refused: it is no play and no hand
    (an empty argument is most often a shell variable that was not set)."""
    canonical = C.parse_cards(text)
    if not canonical:
        raise DdzError(f"{what}: no cards given")
    return canonical


def _classify_answer(v: Variant, cards: str, wild: str | None) -> dict[str, Any]:
    canonical = _some_cards(cards, "cards")
    return {"cards": canonical, "readings": [m.to_dict() for m in v.classify(canonical, wild=wild)]}


def _compare_answer(v: Variant, a: str, b: str, wild: str | None) -> dict[str, Any]:
    return v.compare(a, b, wild=wild).to_dict()


def _moves_answer(v: Variant, hand: str, after: str | None, wild: str | None) -> dict[str, Any]:
    ch = _some_cards(hand, "--hand")
    ca = C.parse_cards(after) if after else None
    result = v.legal_moves(ch, after=ca, wild=wild)
    return {"hand": ch, "after": ca, "can_pass": result.can_pass, "moves": [m.to_dict() for m in result]}


def _classify_line(v: Variant) -> Answer:
    def answer(q: dict[str, Any], wild: str | None) -> dict[str, Any]:
        cards = text_field(q, "cards", required=True)
        return _classify_answer(v, cards, text_field(q, "wild", wild))
    return answer


def _compare_line(v: Variant) -> Answer:
    def answer(q: dict[str, Any], wild: str | None) -> dict[str, Any]:
        a, b = text_field(q, "a", required=True), text_field(q, "b", required=True)
        return _compare_answer(v, a, b, text_field(q, "wild", wild))
    return answer


def _moves_line(v: Variant) -> Answer:
    def answer(q: dict[str, Any], wild: str | None) -> dict[str, Any]:
        hand = text_field(q, "hand", required=True)
        return _moves_answer(v, hand, text_field(q, "after"),
                             text_field(q, "wild", wild))
    return answer


@main.command(cls=CardArgsCommand)
@spec_argument
@click.argument("cards", required=False)
@wild_option
@json_option
@batch_option
@user_errors
def classify(spec: str, cards: str | None, wild: str | None, as_json: bool, batch: str | None) -> None:
    """Every reading of CARDS under SPEC (--batch: of every line's cards)."""
    batch_usage(batch, {"argument 'CARDS'": cards}, ("argument 'CARDS'",))
    v = load_variant(spec)
    if batch is not None:
        run_batch(batch, ("cards", "wild"), _classify_line(v), wild)
    assert cards is not None
    if as_json:
        emit_json(_classify_answer(v, cards, wild))
        return
    canonical = _some_cards(cards, "cards")
    readings = list(v.classify(canonical, wild=wild))
    if not readings:
        console.print(f"{canonical}: not a combo of {v.name}")
        return
    console.print(f"{canonical}: {len(readings)} reading(s)")
    _print_rows(_move_rows(readings))


@main.command(cls=CardArgsCommand)
@spec_argument
@click.argument("a", required=False)
@click.argument("b", required=False)
@wild_option
@json_option
@batch_option
@user_errors
def compare(spec: str, a: str | None, b: str | None, wild: str | None, as_json: bool,
            batch: str | None) -> None:
    """Does A beat B, B beat A, or neither? (--batch: for every line's a and b)"""
    batch_usage(batch, {"argument 'A'": a, "argument 'B'": b}, ("argument 'A'", "argument 'B'"))
    v = load_variant(spec)
    if batch is not None:
        run_batch(batch, ("a", "b", "wild"), _compare_line(v), wild)
    assert a is not None and b is not None
    answer = _compare_answer(v, a, b, wild)
    if as_json:
        emit_json(answer)
        return
    console.print(answer["verdict"])


@main.command()
@spec_argument
@click.option("--hand", default=None, help="The hand, e.g. 33445566778899TJQ (required without --batch).")
@click.option("--after", default=None, help="The play to beat; omit when leading.")
@click.option("--limit", type=click.IntRange(min=0), default=0,
              help="Show at most this many moves (text output; 0: all).")
@wild_option
@json_option
@batch_option
@user_errors
def moves(spec: str, hand: str | None, after: str | None, limit: int, wild: str | None, as_json: bool,
          batch: str | None) -> None:
    """Every legal play from a hand, leading or answering --after (--batch: for every line)."""
    batch_usage(batch, {"option '--hand'": hand, "option '--after'": after, "option '--limit'": limit},
                 ("option '--hand'",))
    v = load_variant(spec)
    if batch is not None:
        run_batch(batch, ("hand", "after", "wild"), _moves_line(v), wild)
    assert hand is not None
    if as_json:
        emit_json(_moves_answer(v, hand, after, wild))
        return
    cards = _some_cards(hand, "--hand")
    with ExitStack() as stack:
        if len(cards) > v.rules.max_hand:  # larger than any dealt hand: it may take seconds
            stack.enter_context(err_console.status(f"listing the plays of a {len(cards)}-card hand"))
        result = v.legal_moves(cards, after=C.parse_cards(after) if after else None, wild=wild)
    shown = list(result)[:limit] if limit else list(result)
    console.print(f"{len(result)} legal play(s)" + ("; passing is allowed" if result.can_pass else
                                                     "; leading, passing is not allowed"))
    _print_rows(_move_rows(shown))
    if limit and len(result) > limit:
        console.print(f"… {len(result) - limit} more")


@main.command()
@click.argument("spec", default="hubei-3p", metavar="[SPEC]")
@click.option("--seed", type=int, default=1, help="Seed of the dealt hand, 0 to 2**63-1.")
@user_errors
def demo(spec: str, seed: int) -> None:
    """Deal a seeded hand, classify a few plays and list its moves."""
    import random

    check_seed(seed)
    v = load_variant(spec)
    deck = C.deck_list(v.rules.deck)
    random.Random(seed).shuffle(deck)
    hand_size = v.spec.rule_spec.deal.hand
    hand = C.counts_to_string(C.counts_of(deck[:hand_size]))
    lead = v.legal_moves(hand)
    console.print(styled("[bold]{}[/]  seed {}  hand {}", v.name, seed, hand))
    console.print(f"leading: {len(lead)} legal plays")
    _print_rows(_move_rows(sorted(lead, key=lambda m: -m.size)[:12]))
    census = v.census()
    console.print(f"universe: {census.total:,} distinct plays")
