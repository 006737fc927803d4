"""The ``ddzrules`` command line.

Readable text by default, ``--json`` for machines. Exit 0 on success, 1 on bad
input (a malformed card string, an illegal play, a broken spec) with a clear
message and no traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from . import cards as C
from .errors import DdzError
from .moves import Move
from .spec import bundled_names, dump_yaml, load_spec
from .variant import load_variant

F = TypeVar("F", bound=Callable[..., Any])
console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def user_errors(fn: F) -> F:
    """Turn every error a user can cause into a message and exit code 1."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except BrokenPipeError:  # output piped into `head`: stop quietly
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except (DdzError, ValueError, OSError) as e:
            err_console.print(f"[bold red]error:[/] {e}", markup=True, soft_wrap=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
spec_argument = click.argument("spec", metavar="SPEC")
wild_option = click.option("--wild", default=None, metavar="RANK",
                           help="The wild rank (癞子) of a wildcard spec, e.g. 7.")



@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ddzrules")
def main() -> None:
    """ddzrules: the rules of Dou Dizhu (斗地主) and its variants, as data.

    SPEC is a bundled spec name (see `ddzrules list`) or a path to a YAML file.
    """


@main.command("list")
@json_option
@user_errors
def list_cmd(as_json: bool) -> None:
    """List the bundled specs."""
    rows = []
    for name in bundled_names():
        spec = load_spec(name)
        title = spec.data.get("title", {})
        rows.append({"name": name, "zh": title.get("zh", ""), "en": title.get("en", ""),
                     "region": spec.data.get("region") or "", "extends": _parent(spec.file)})
    if as_json:
        emit_json(rows)
        return
    table = Table("name", "title", "region", "extends", box=None)
    for r in rows:
        table.add_row(r["name"], f"{r['zh']}  {r['en']}", r["region"], r["extends"] or "")
    console.print(table)


def _parent(file: str) -> str | None:
    import yaml

    from .spec import bundled_root

    path = bundled_root() / Path(file).relative_to("specs") if file.startswith("specs/") else Path(file)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data.get("extends") if isinstance(data, dict) else None


@main.command()
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@json_option
def validate(specs: tuple[str, ...], as_json: bool) -> None:
    """Validate specs: the schema, the patterns and, when a spec has a game: section,
    its plugins and their parameters."""
    from .runtime import GameRules

    results = []
    failed = False
    for name in specs:
        try:
            v = load_variant(name)
            if v.spec.data.get("game"):
                GameRules(v)
            results.append({"spec": name, "ok": True, "combos": len(v.combo_names), "problems": []})
        except DdzError as e:
            failed = True
            problems = [str(p) for p in getattr(e, "problems", [])] or [str(e)]
            results.append({"spec": name, "ok": False, "problems": problems})
    if as_json:
        emit_json(results)
    else:
        for r in results:
            if r["ok"]:
                console.print(f"[green]ok[/]  {r['spec']} ({r['combos']} combos)")
            else:
                for p in r["problems"]:
                    err_console.print(p, markup=False, soft_wrap=True)
    sys.exit(1 if failed else 0)


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
            click.echo(f"# {loaded.name}: resolved from {' <- '.join(loaded.chain)}")
            click.echo(dump_yaml(data), nl=False)
        return
    from .spec import resolve_name

    text = resolve_name(spec).read_text(encoding="utf-8")
    if as_json:
        import yaml

        emit_json(yaml.safe_load(text))
    else:
        click.echo(text, nl=False)


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
    table.add_row("[bold]total distinct[/]", "", f"[bold]{c.total:,}[/]")
    if c.readings != c.total:
        table.add_row("readings", "", f"{c.readings:,}")
    for w, n in (c.by_wilds or {}).items():
        table.add_row(f"readings with {w} wild(s)", "", f"{n:,}")
    console.print(f"[bold]{v.name}[/]: plays of at most {v.rules.max_hand} cards")
    console.print(table)


def _move_rows(moves: list[Move]) -> Table:
    wild = any(m.substitution for m in moves)
    table = Table("cards", "combo", "rank", "length", "key", *(["wilds stand for"] if wild else []), box=None)
    for m in moves:
        extra = [" ".join(f"{a}→{b}" for a, b in m.substitution)] if wild else []
        table.add_row(m.cards, m.combo + (" (bomb)" if m.is_bomb else ""), m.rank_name, str(m.length),
                      str(m.key), *extra)
    return table


@main.command()
@spec_argument
@click.argument("cards")
@wild_option
@json_option
@user_errors
def classify(spec: str, cards: str, wild: str | None, as_json: bool) -> None:
    """Every reading of CARDS under SPEC."""
    v = load_variant(spec)
    canonical = C.parse_cards(cards)
    readings = list(v.classify(canonical, wild=wild))
    if as_json:
        emit_json({"cards": canonical, "readings": [m.to_dict() for m in readings]})
        return
    if not readings:
        console.print(f"{canonical}: not a combo of {v.name}")
        return
    console.print(f"{canonical}: {len(readings)} reading(s)")
    console.print(_move_rows(readings))


@main.command()
@spec_argument
@click.argument("a")
@click.argument("b")
@wild_option
@json_option
@user_errors
def compare(spec: str, a: str, b: str, wild: str | None, as_json: bool) -> None:
    """Does A beat B, B beat A, or neither?"""
    v = load_variant(spec)
    ca, cb = C.parse_cards(a), C.parse_cards(b)
    ab, ba = v.beats(ca, cb, wild=wild), v.beats(cb, ca, wild=wild)
    verdict = f"{ca} beats {cb}" if ab else f"{cb} beats {ca}" if ba else f"{ca} and {cb} do not compare"
    if as_json:
        emit_json({"a": ca, "b": cb, "a_beats_b": ab, "b_beats_a": ba, "verdict": verdict})
        return
    console.print(verdict)


@main.command()
@spec_argument
@click.option("--hand", required=True, help="The hand, e.g. 33445566778899TJQ.")
@click.option("--after", default=None, help="The play to beat; omit when leading.")
@click.option("--limit", type=int, default=0, help="Show at most this many moves (text output).")
@wild_option
@json_option
@user_errors
def moves(spec: str, hand: str, after: str | None, limit: int, wild: str | None, as_json: bool) -> None:
    """Every legal play from a hand, leading or answering --after."""
    v = load_variant(spec)
    result = v.legal_moves(C.parse_cards(hand), after=C.parse_cards(after) if after else None, wild=wild)
    if as_json:
        emit_json({"hand": C.parse_cards(hand), "after": C.parse_cards(after) if after else None,
                   "can_pass": result.can_pass, "moves": [m.to_dict() for m in result]})
        return
    shown = list(result)[:limit] if limit else list(result)
    console.print(f"{len(result)} legal play(s)" + ("; passing is allowed" if result.can_pass else
                                                     "; leading, passing is not allowed"))
    console.print(_move_rows(shown))
    if limit and len(result) > limit:
        console.print(f"… {len(result) - limit} more")


@main.command()
@click.argument("spec", default="hubei-3p", metavar="[SPEC]")
@click.option("--seed", type=int, default=1, help="Seed of the dealt hand.")
@user_errors
def demo(spec: str, seed: int) -> None:
    """Deal a seeded hand, classify a few plays and list its moves."""
    import random

    v = load_variant(spec)
    deck = C.deck_list(v.rules.deck)
    random.Random(seed).shuffle(deck)
    hand_size = int(v.spec.data.get("deal", {}).get("hand", 17))
    hand = C.counts_to_string(C.counts_of(deck[:hand_size]))
    lead = v.legal_moves(hand)
    console.print(f"[bold]{v.name}[/]  seed {seed}  hand {hand}")
    console.print(f"leading: {len(lead)} legal plays")
    console.print(_move_rows(sorted(lead, key=lambda m: -m.size)[:12]))
    census = v.census()
    console.print(f"universe: {census.total:,} distinct plays")



# the game commands (play, simulate, replay, plugins) register themselves on `main`
from . import cli_game  # noqa: F401

# conformance suites: generate and run (ddzrules conformance ...)
from . import cli_conformance  # noqa: E402,F401
