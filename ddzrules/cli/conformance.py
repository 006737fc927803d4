"""``ddzrules conformance``: generate suites from a spec and run them against engines."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Self

import click
from rich.table import Table

from ddzrules.cli import (
    check_class_file,
    console,
    emit_json,
    err_console,
    json_option,
    main,
    styled,
    user_errors,
)
from ddzrules.conformance import (
    LISTED_UNITS,
    MAX_PERFT_NODES,
    MAX_SECONDS,
    MAX_VECTORS,
    MAX_WORK,
    STEP_UNITS,
)
from ddzrules.errors import DdzError, brief
from ddzrules.outputs import check_output_path, write_file

if TYPE_CHECKING:
    from types import TracebackType

    from ddzrules.conformance import Limits
    from ddzrules.conformance.run import Report


@main.group()
def conformance() -> None:
    """Conformance suites: test vectors generated from a spec, run against any engine.

    \b
    ddzrules conformance generate compat/rlcard -o suite/
    ddzrules conformance run suite/ --engine rlcard
    """


@conformance.command()
@click.argument("spec", metavar="SPEC")
@click.option("-o", "--output", "output", required=True, type=click.Path(file_okay=False),
              help="The suite directory to write (created if needed).")
@click.option("--level", type=click.Choice(["smoke", "standard", "exhaustive"]), default="standard",
              show_default=True, help="smoke: seconds; standard: under a minute; exhaustive: the whole "
                                      "universe classified, every pair of combo classes compared.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Seed of the random hands, positions and games.")
@json_option
@user_errors
def generate(spec: str, output: str, level: str, seed: int, as_json: bool) -> None:
    """Generate a suite from SPEC into a directory: manifest.json and one JSONL file per category."""
    from ddzrules.conformance import beats_coverage, check_suite_directory, write_suite
    from ddzrules.conformance import generate as make
    from ddzrules.rules.variant import load_variant

    check_suite_directory(output)  # before the work, which can take minutes
    v = load_variant(spec)
    with _spinner() as status:
        suite = make(v, level=level, seed=seed,
                     progress=lambda c: status.update(f"generating {c} vectors …"))
        status.update("measuring what the moves vectors test …")
        covered, relations = beats_coverage(v, suite.vectors["moves"])
    write_suite(suite, output)
    counts = suite.manifest["counts"]
    # the spec's beats relations (combo led, combo answering, may it beat) the moves vectors
    # test, measured on the vectors written, in both polarities
    beats = {name: {"tested": sum(1 for r in covered if r[2] is polarity),
                    "relations": sum(1 for r in relations if r[2] is polarity)}
             for name, polarity in (("beats", True), ("cannot_beat", False))}
    if as_json:
        emit_json({"suite": output, "spec": v.name, "level": level, "seed": seed, "counts": counts,
                   "beats_relations": beats})
        return
    console.print(styled("[bold]{}[/] suite ({}, seed {}) written to {}", v.name, level, seed, output))
    table = Table("category", "vectors", box=None)
    for c, n in counts.items():
        table.add_row(styled("{}", c), styled("{}", f"{n:,}"))
    console.print(table)
    console.print(styled("beats relations tested (combo led × combo answering): {} of {} that may beat, "
                         "{} of {} that may not", *(f"{beats[k][f]:,}" for k in ("beats", "cannot_beat")
                                                     for f in ("tested", "relations"))))


def _check_options(engine: str, opts: dict[str, str], spec: str | None) -> None:
    """Before the suite is read: a :class:`DdzError` for an ``--option`` (or ``--spec``) the
    engine's adapter does not declare in its ``OPTIONS`` (``ddzrules.engines.check_options``,
    which ``open_engine`` applies again for callers of the library)."""
    from ddzrules.engines import check_options, engine_options, load_engine_class, options_phrase

    cls = load_engine_class(engine)
    known = engine_options(cls)
    if spec is not None and known is not None and "spec" not in known:
        raise DdzError(f"--spec goes with --engine ddzrules: the {engine} engine answers by its own "
                       f"rules ({options_phrase(known)})")
    check_options(engine, cls, opts)


def _seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """click's FloatRange lets NaN through (every comparison with it is false)."""
    if math.isnan(value):
        raise click.BadParameter("nan is not a number of seconds", ctx, param)
    return value


@conformance.command()
@click.argument("suite", metavar="DIR")
@click.option("--engine", "engine", required=True,
              help="A registered engine (see `ddzrules conformance engines`) or module:Class.")
@click.option("--spec", default=None, help="ddzrules engine: answer with this spec instead of the suite's.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="An option for the engine's adapter (repeatable).")
@click.option("--category", "categories", multiple=True,
              type=click.Choice(["classify", "compare", "moves", "census", "perft", "games"]),
              help="Run only these categories (repeatable).")
@click.option("--junit", "junit", default=None, type=click.Path(dir_okay=False),
              help="Also write the results as JUnit XML to this file.")
@click.option("--max-groups", type=click.IntRange(1), default=40, show_default=True,
              help="Text output: show at most this many failure groups.")
@click.option("--strict", is_flag=True,
              help="Count failures the adapter explains by a documented engine defect as failures.")
@click.option("--max-vectors", type=click.IntRange(1), default=MAX_VECTORS, show_default=True,
              help="Refuse a suite with more vectors than this in the categories run.")
@click.option("--max-work", type=click.IntRange(1), default=MAX_WORK, show_default=True,
              help="Refuse a suite asking more work than this: a unit a vector, a perft vector its "
                   f"search budget, a game {STEP_UNITS} an action and {LISTED_UNITS} for each action its "
                   "replay lists.")
@click.option("--max-perft-nodes", type=click.IntRange(1), default=MAX_PERFT_NODES, show_default=True,
              help="Refuse a perft vector expecting more sequences than this; no perft search visits "
                   "more positions.")
@click.option("--max-seconds", type=click.FloatRange(0.001, 86_400), default=MAX_SECONDS, show_default=True,
              callback=_seconds, help="Stop the run (its check and the engine's answers) after this many seconds.")
@json_option
@user_errors
def run(suite: str, engine: str, spec: str | None, options: tuple[str, ...], categories: tuple[str, ...],
        junit: str | None, max_groups: int, strict: bool, max_vectors: int, max_work: int,
        max_perft_nodes: int, max_seconds: float, as_json: bool) -> None:
    """Run a suite against an engine. Exit 0 when nothing failed (skips are not passes), 1 otherwise.

    The suite is checked whole before the engine is asked anything: a vector that cannot
    occur in a game of the suite's spec, a duplicate id or a suite beyond the limits is
    refused with its file and line.
    """
    from ddzrules.conformance import Limits
    from ddzrules.conformance.run import junit_xml

    opts: dict[str, str] = {}
    for item in options:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise DdzError(f"--option {brief(item)}: give KEY=VALUE")
        if key in opts:  # the last one won without a word
            raise DdzError(f"--option {brief(key)} given twice: give it once")
        opts[key] = value
    if spec and "spec" in opts:  # --spec won without a word
        raise DdzError("--spec and --option spec=... both name the spec: give one")
    check_class_file(engine, "--engine")
    _check_options(engine, opts, spec)
    if spec:
        opts["spec"] = spec
    limits = Limits(max_vectors=max_vectors, max_work=max_work, max_perft_nodes=max_perft_nodes,
                    max_seconds=max_seconds)
    if junit is not None:  # before the run: a FIFO would block the write, a directory fail it
        # nor a file of the suite (--junit DIR/manifest.json replaced the suite's manifest)
        suite_files = sorted(Path(suite).glob("*.json*")) if Path(suite).is_dir() else []
        check_output_path(junit, "--junit", suite_files[:1000])
    report = _run_with_progress(suite, engine, opts, categories, strict, limits)
    if junit is not None:
        write_file(junit, junit_xml(report), "--junit")
    if as_json:
        emit_json(report.to_dict())
    else:
        _print_report(report, max_groups)
    sys.exit(0 if report.ok else 1)


def _run_with_progress(suite: str, engine: str, opts: dict[str, str], categories: tuple[str, ...],
                       strict: bool, limits: Limits) -> Report:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ddzrules.conformance.run import run_suite

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True, disable=not err_console.is_terminal) as bar:
        task = bar.add_task("running", total=None)

        def progress(category: str, done: int, total: int) -> None:
            if done % 50 == 0 or done == total:
                bar.update(task, description=category, completed=done, total=total)

        return run_suite(suite, engine, opts, categories or None, progress, strict, limits)


def _print_report(report: Report, max_groups: int) -> None:
    # every text from the suite or the adapter goes through styled (escaped, control
    # characters written as escapes): the console reads no markup and passes no escapes
    console.print(styled("[bold]{}[/] suite ({}) against [bold]{}[/]", report.spec, report.level, report.engine))
    any_known = any(n["known"] for n in report.counts.values())
    table = Table("category", "passed", "failed", *(["known defect"] if any_known else []), "skipped",
                  box=None)
    for c, n in report.counts.items():
        failed = styled("[red]{}[/]", f"{n['failed']:,}") if n["failed"] else styled("0")
        skipped = styled("{}", f"{n['skipped']:,}" + (f"  ({report.skip_reasons[c]})"
                                                      if c in report.skip_reasons else ""))
        table.add_row(styled("{}", c), styled("{}", f"{n['passed']:,}"), failed,
                      *([styled("{}", f"{n['known']:,}")] if any_known else []), skipped)
    console.print(table)
    failing = [g for g in report.groups if not g.known]
    known = [g for g in report.groups if g.known]
    for title, groups, mark in (("failures by cause", failing, "[red]✗[/]"),
                                ("known defects of the engine (run --strict to count them as failures)",
                                 known, "[yellow]~[/]")):
        if not groups:
            continue
        console.print(styled("\n[bold]{}[/] ({} group(s)):", title, len(groups)))
        for g in groups[:max_groups]:
            console.print(styled(mark + " {} · [bold]{}[/] · {}: {} vector(s)", g.category, g.subject, g.kind,
                                 f"{g.vectors:,}"),
                          styled(" — known defect [bold]{}[/]", g.known) if g.known else "", sep="")
            console.print(styled("    smallest witness: {}", g.witness + (f"  — {g.detail}" if g.detail else "")))
            if g.explain:
                console.print(styled("    the spec: {}", g.explain))
        if len(groups) > max_groups:
            console.print(styled("… {} more group(s) (--json lists every one)", len(groups) - max_groups))
    for name, text in report.known_defects.items():
        console.print(styled("\n[yellow]known defect[/] [bold]{}[/]: {}", name, text))
    for f in report.findings:
        console.print(styled("\n[yellow]finding:[/] [bold]{}[/]: {}", f.title, f.detail))
        if f.witnesses:
            console.print(styled("    e.g. {}", ", ".join(map(str, f.witnesses[:8]))))
    total = {k: sum(c[k] for c in report.counts.values()) for k in ("passed", "failed", "known", "skipped")}
    verdict = "[green]PASS[/]" if report.ok else "[red]FAIL[/]"
    console.print(styled("\n" + verdict + ": {}", f"{total['passed']:,} passed, {total['failed']:,} failed, "
                         + (f"{total['known']:,} known engine defect(s), " if total["known"] else "")
                         + f"{total['skipped']:,} skipped"))


@conformance.command("engines")
@json_option
@user_errors
def engines_cmd(as_json: bool) -> None:
    """List the registered engine adapters and whether each can start here."""
    from ddzrules.engines import builtin_engines, load_engine_class

    rows = []
    for name, target in sorted(builtin_engines().items()):
        try:
            load_engine_class(name)
            status = "adapter loads"
        except DdzError as e:
            status = str(e)
        rows.append({"engine": name, "adapter": target, "status": status})
    if as_json:
        emit_json(rows)
        return
    table = Table("engine", "adapter", "status", box=None)
    for r in rows:
        table.add_row(styled("{}", r["engine"]), styled("{}", r["adapter"]), styled("{}", r["status"]))
    console.print(table)


@conformance.command("schema")
@click.argument("name", type=click.Choice(["manifest", "classify", "compare", "moves", "census", "perft",
                                           "games"]))
def schema_cmd(name: str) -> None:
    """Print the JSON Schema of the manifest or of one category's vectors."""
    from ddzrules.conformance import schema

    click.echo(json.dumps(schema(name), ensure_ascii=False, indent=2))


class _spinner:
    """A transient status line on stderr while a suite is generated (only on a terminal)."""

    def __enter__(self) -> Self:
        self._status = err_console.status("generating …") if err_console.is_terminal else None
        if self._status is not None:
            self._status.__enter__()
        return self

    def update(self, text: str) -> None:
        if self._status is not None:
            self._status.update(text)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._status is not None:
            self._status.__exit__(kind, error, traceback)
