"""The ``ddzrules`` command line.

Readable text by default, ``--json`` for machines. Exit 0 on success, 1 on bad
input (a malformed card string, an illegal play, a broken spec) with a clear
message and no traceback.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from functools import wraps
from importlib import import_module
from itertools import islice
from pathlib import Path
from typing import IO, Any, Literal, NoReturn, ParamSpec, TypeVar, overload

import click
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderHook
from rich.markup import escape
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from ddzrules import cards as C
from ddzrules.errors import DdzError, brief, escaped
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant, load_variant
from ddzrules.spec import SPEC_NAME, bundled_names, dump_yaml, load_spec, starter_text

F = TypeVar("F", bound=Callable[..., Any])
P = ParamSpec("P")
R = TypeVar("R")
# soft_wrap: a message or path is never broken across lines (output is read by scripts
# and tests as much as by people); tables still fit the width
# markup=False: nothing printed is ever read as console markup (a hint such as
# `pip install 'ddzrules[report]'` keeps its brackets, a spec name "[red]x" stays text);
# styling comes only from `styled` templates, whose values are filled in as plain text
console = Console(highlight=False, soft_wrap=True, markup=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)


class _PlainSegments:
    """A renderable drawn as the one it wraps, with every control character (but the
    newline) and bidirectional control of its text written as an escape (:func:`_plain`):
    a spec's strings reach tables and lines of every command (census, diff, plugins …),
    and one of them holding ESC or U+202E would reach the terminal raw. The styles are
    the segments' own, so the console's colours stay."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        for segment in console.render(self.inner, options):
            text = segment.text
            if segment.control or text.isprintable() or not text:
                yield segment
            else:
                yield Segment(_plain(text), segment.style)


class _PlainOutput(RenderHook):
    """Every renderable a console prints, as :class:`_PlainSegments`."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_PlainSegments(r) for r in renderables]


for _console in (console, err_console):
    _console.push_render_hook(_PlainOutput())


def styled(template: str, *values: object) -> Text:
    """A styled line: ``template`` is console markup written in the code, each ``{}``
    in it is filled with one of ``values`` as plain text (escaped, control characters
    written as escapes), so no user string can style or hide the output.

    >>> styled("[bold]{}[/]: {} cards", "[red]x", 3).plain
    '[red]x: 3 cards'
    """
    return Text.from_markup(template.format(*(escape(_plain(str(v))) for v in values)))


#: seeds are 0 to 2**63 − 1 (what a game record stores)
MAX_SEED = 2**63 - 1


def check_seed(seed: int, option: str = "--seed") -> None:
    """The one check of a command's seed (``simulate``, ``match``, ``duel``, ``diff``,
    ``demo``, ``sheet``): 0 to :data:`MAX_SEED`, else a :class:`DdzError` before any work."""
    if not 0 <= seed <= MAX_SEED:
        raise DdzError(f"{option} must be between 0 and 2**63-1, not {brief(seed)}")


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is 1.

    >>> plural(1, "card"), plural(17, "card")
    ('1 card', '17 cards')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def user_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn every error a user can cause into a message and exit code 1."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except BrokenPipeError:  # output piped into `head`: stop quietly
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except (DdzError, ValueError, OSError) as e:
            # never as markup: a message quotes the user's input ("3[/]" is no rich tag)
            _fail(str(e))
        except KeyboardInterrupt:  # here the command's own name is known ("conformance run")
            ctx = click.get_current_context(silent=True)
            stopped_by_ctrl_c(ctx.command_path.split()[1:] if ctx is not None else [])

    return wrapper


def spec_inputs(*specs: str) -> list[str]:
    """The files the specs named are read from, each with its ``extends:`` chain: inputs
    a command's output file must not replace (a spec that does not load has none here:
    the command says why when it loads it)."""
    files: list[str] = []
    for spec in specs:
        try:
            files += load_spec(spec).files
        except DdzError:
            pass
    return files


def stopped_by_ctrl_c(words: list[str]) -> NoReturn:
    """Ctrl-C: one line naming the command (its ``words``: ``interrupted by SIGINT:
    conformance run stopped``) and the shell's status for SIGINT, 130 (click printed
    ``Aborted!`` and exited 1, which scripts read as refused input)."""
    err_console.print(f"interrupted by SIGINT: {_plain(' '.join(words) or 'ddzrules')} stopped", markup=False)
    sys.exit(130)


#: the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069):
#: format characters that reorder how a terminal shows the text around them (a spec title
#: holding U+202E reads backwards, and can make one name look like another). Every text of
#: a user printed (``_plain``, ``styled``, ``emit_json``, ``show``) writes them as escapes
#: (``\u202e``); the other format characters (the zero-width joiner of an emoji) stay
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _unicode_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def escape_bidi(text: str) -> str:
    """``text`` with each bidirectional control written as its escape (``\\u202e``)."""
    return _BIDI_CONTROLS.sub(_unicode_escape, text)


#: DEL and the C1 controls (U+0080-U+009F: U+009B is a terminal's CSI), which json.dumps
#: leaves raw with ensure_ascii=False (it escapes the C0 controls itself), and the
#: bidirectional controls: escaped in a JSON string, they mean the same
_RAW_CONTROLS = re.compile(f"[\x7f-\x9f]|{_BIDI_CONTROLS.pattern}")


def emit_json(data: Any) -> None:
    """``data`` as indented JSON on stdout: Chinese stays readable, but no character that
    acts on a terminal is written raw (outside strings JSON is ASCII, so escaping them in
    the text escapes them in their strings)."""
    # allow_nan=False: a NaN or Infinity is no JSON; a figure that is not finite is refused
    # where it is made (stats.dumps_finite), so this is the last guard, never the message
    text = json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False)
    click.echo(_RAW_CONTROLS.sub(_unicode_escape, text))


json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
spec_argument = click.argument("spec", metavar="SPEC")
wild_option = click.option("--wild", default=None, metavar="RANKS",
                           help="The wild rank (癞子) of a wildcard spec, e.g. 7; several as 7,9 (天地癞子).")


# ====================================================================== --plugin

plugin_option = click.option(
    "--plugin", "plugins", multiple=True, metavar="MODULE:CLASS",
    help="A plugin class not installed as a package (module:Class or path/to/file.py:Class), "
         "registered under its `name` attribute (or its class name); repeatable.")


def special_file(path: str | os.PathLike[str]) -> str | None:
    """What is at ``path`` when it is not a regular file — "a directory", "a character
    device" (/dev/zero), "a FIFO (named pipe)" … —, for a message that says so; None for a
    regular file, or when nothing is there (the reader then says "no such file")."""
    from ddzrules.spec import file_kind

    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # nothing there, or no path at all (a NUL)
        return None
    return None if stat.S_ISREG(mode) else file_kind(mode)


def check_class_file(target: str, option: str) -> None:
    """A ``path/to/file.py:Class`` target of ``--plugin`` or ``--engine`` whose file is a
    device, a directory …: a :class:`DdzError` that says what it is (the import said
    "no file", of a file that is there)."""
    module = target.rpartition(":")[0]
    if module.endswith(".py") or "/" in module or os.sep in module:
        kind = special_file(module)
        if kind is not None:
            raise DdzError(f"{option} {target!r}: {escaped(module)} is {kind}, not a Python file")


@contextmanager
def user_plugins(plugins: tuple[str, ...] | list[str]) -> Iterator[None]:
    """Make the ``--plugin`` classes available to every registry while the command runs,
    simulate's worker processes included (through the environment variable
    :attr:`PluginRegistry.ENV`, which spawned workers inherit). Each class is imported and
    checked first: a failure is a :class:`DdzError`."""
    if not plugins:
        yield
        return
    from ddzrules.runtime import PluginRegistry, load_plugin_class  # only when a plugin is named

    targets = []
    for target in plugins:
        check_class_file(target, "--plugin")
        module, _, attr = target.rpartition(":")
        if module.endswith(".py") or "/" in module or os.sep in module:
            target = f"{os.path.abspath(module)}:{attr}"  # workers may run elsewhere
        if "," in target:
            raise DdzError(f"--plugin {target!r}: a comma cannot appear in a plugin's module or path")
        load_plugin_class(target)
        targets.append(target)
    before = os.environ.get(PluginRegistry.ENV)
    os.environ[PluginRegistry.ENV] = ",".join(targets)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(PluginRegistry.ENV, None)
        else:
            os.environ[PluginRegistry.ENV] = before


def backend_options(fn: F) -> F:
    """``--backend local|ray`` and ``--address`` for a command that plays games."""
    from ddzrules.simulate import BACKENDS  # only when such a command's module loads

    fn = click.option("--address", default=None, metavar="ADDR",
                      help="With --backend ray: the Ray cluster to join (HOST:PORT, ray://HOST:PORT or "
                           "auto); without it a local Ray is started.")(fn)
    return click.option("--backend", type=click.Choice(tuple(BACKENDS)), default="local", show_default=True,
                        help="Where the games run: processes of this machine, or Ray tasks "
                             "(ddzrules[ray]; see docs/ray.md). The figures are the same.")(fn)


def check_backend(backend: str, address: str | None) -> None:
    if address is not None and backend != "ray":
        raise DdzError("--address needs --backend ray")
    if address is not None and address not in ("auto", "local"):
        from ddzrules.simulate.ray_backend import (
            split_address,  # the syntax only: Ray itself is not imported
        )

        split_address(address)


@contextmanager
def game_progress(description: str, total: int) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr (only on a terminal: never into a pipe or a file), and
    the ``progress(done, total)`` callback that moves it."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total}"), TimeRemainingColumn(),
                  console=err_console, disable=not _stderr_is_terminal(), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done, _total: bar.update(task, completed=done)


def _stderr_is_terminal() -> bool:
    stream = err_console.file
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class CardArgsCommand(click.Command):
    """A command whose positional arguments are card strings. A word that starts with
    ``-`` but names none of its options (``-3``, ``-10JQKA``) is one of those arguments,
    so that it is read as cards (and a bad one refused with a card message, exit 1), not
    refused as an unknown option (exit 2). An unknown ``--word`` is still an unknown option."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        names: set[str] = set()
        takes_value: set[str] = set()
        for param in self.get_params(ctx):
            if isinstance(param, click.Option):
                names.update(param.opts, param.secondary_opts)
                if not param.is_flag and not param.count:
                    takes_value.update(param.opts)
        options: list[str] = []
        arguments: list[str] = []
        words = iter(args)
        for word in words:
            if word == "--":
                arguments.extend(words)
                break
            if word.split("=", 1)[0] in names or word.startswith("--"):
                options.append(word)
                if word in takes_value:  # its value is the next word, whatever it looks like
                    options.extend(islice(words, 1))
            else:
                arguments.append(word)
        return super().parse_args(ctx, [*options, "--", *arguments])



#: commands defined in other modules, imported only when asked for: `classify` need not
#: load the game runtime, plugins, simulation, conformance or the rule sheets. With each,
#: the first sentence of its help, which `--help` lists without importing the module
#: (tests/uses/test_cli.py checks it against the command's own)
_LAZY_COMMANDS = {
    "play": ("game", "Play a game at the terminal against bots (or watch bots with --auto)."),
    "simulate": ("simulate", "Play many all-bot games and summarise them, every figure with its 95% interval."),
    "replay": ("game", "Replay a game record and verify every action and the final figures."),
    "plugins": ("game", "List the installed plugins and the hooks each implements (--params NAME: its parameters)."),
    "duel": ("simulate", "Two bots on the same deals: A's gain over B, with paired 95% intervals, and each bot's decision time."),
    "match": ("simulate", "Play a match of consecutive all-bot games and report the totals and the winner."),
    "conformance": ("conformance", "Conformance suites: test vectors generated from a spec, run against any engine."),
    "diff": ("diff", ("Compare two rule sets: rules, plays, comparisons (exact), and optionally random hands "
                          "and paired games.")),
    "docs": ("docs", "The documentation's generated blocks: update or check them, or print one."),
    "serve": ("serve", ("The playground: edit a spec with live validation, see its census and rule sheet, "
                        "classify and compare, diff it against a bundled spec, play it against bots, and step "
                        "through records, in a local web page (the web extra: pip install 'ddzrules[web]').")),
    "sheet": ("sheet", ("The rule sheet of SPEC, written from the spec alone: deck and deal, every combo with "
                            "its smallest and largest play, comparison and bomb order, wildcards, the game plugins as "
                            "they describe themselves, a worked scoring example, and the readings.")),
}


class _LazyGroup(click.Group):
    """A group whose commands of other modules are imported on first use (each module
    registers its commands on ``main`` when imported); ``--help`` imports none of them."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in _LAZY_COMMANDS:
            import_module(f"{__package__}.{_LAZY_COMMANDS[cmd_name][0]}")
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *_LAZY_COMMANDS})

    def invoke(self, ctx: click.Context) -> object:
        """The command; Ctrl-C outside a command's own handling (``user_errors``) stops it
        by :func:`stopped_by_ctrl_c`, named as far as this group knows it."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            sub = ctx.invoked_subcommand
            stopped_by_ctrl_c([*ctx.command_path.split()[1:], *([sub] if sub else [])])

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's listing, with the help of commands not imported yet from _LAZY_COMMANDS."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = []
        for name in names:
            cmd = self.commands.get(name)
            if cmd is None:
                # click's own shortening, through a stand-in command (public API)
                stand_in = click.Command(name, help=_LAZY_COMMANDS[name][1])
                rows.append((name, stand_in.get_short_help_str(limit)))
            elif not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _version_message() -> str:
    """``ddzrules --version``: the version and the build that runs (docs/compiled.md)."""
    from ddzrules import BUILD

    if BUILD == "pure Python":  # the C kernels were not built: say what that costs
        return ("%(prog)s %(version)s, pure Python: the C kernels were not built (no C compiler "
                "at install?); legal moves run about 2.5x faster with them (docs/compiled.md)")
    return f"%(prog)s %(version)s, {BUILD}"


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ddzrules", message=_version_message())
def main() -> None:
    """ddzrules: the rules of Dou Dizhu (斗地主) and its variants, as data.

    SPEC is a bundled spec name (see `ddzrules list`) or a path to a YAML file.
    """
    warnings.showwarning = _show_warning
    # the consoles were made at import: read COLUMNS again for this invocation
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        console.width = err_console.width = int(columns)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: IO[str] | None = None, line: str | None = None) -> None:
    """A warning (a rebuilt table cache …) as one line for the user, not Python's
    source-location format."""
    print(f"warning: {_plain(str(message))}", file=file or sys.stderr)


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
        _fail(str(e))


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
            err_console.print(_plain(text), markup=False, soft_wrap=True, highlight=False)
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

batch_option = click.option(
    "--batch", default=None, metavar="FILE",
    help="Answer many questions in one process: JSON Lines in (FILE, or - for stdin), "
         "one JSON answer per line out (see docs/batch.md).")


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


def _plain(text: str) -> str:
    """``text`` with every control character but the newline written as an escape
    (``\\x1b``), and every bidirectional control (``\\u202e``, :func:`escape_bidi`), so
    that a message never carries a terminal escape sequence nor reorders what it shows."""
    if text.isprintable():
        return text
    return escape_bidi("".join(ch if ch == "\n" or unicodedata.category(ch) != "Cc"
                               else ch.encode("unicode_escape").decode("ascii") for ch in text))


def _fail(message: str) -> NoReturn:
    err_console.print(Text.assemble(("error:", "bold red"), " ", _plain(message)), soft_wrap=True)
    sys.exit(1)


class _BadLine(Exception):
    """A batch line that is not a question (not JSON, a missing or mistyped field)."""


_JSON_TYPES = {dict: "an object", list: "an array", bool: "a boolean", int: "a number",
               float: "a number"}


@overload
def _text_field(q: dict[str, Any], name: str, default: str | None = None, *,
                required: Literal[True]) -> str: ...


@overload
def _text_field(q: dict[str, Any], name: str, default: str | None = None,
                required: bool = False) -> str | None: ...


def _text_field(q: dict[str, Any], name: str, default: str | None = None,
                required: bool = False) -> str | None:
    """The string field ``name`` of a question; ``default`` when absent (``null`` when
    given as null), an error when required and absent."""
    if name not in q:
        if required:
            raise _BadLine(f"missing field {name!r}")
        return default
    value = q[name]
    if value is None and not required:
        return None
    if not isinstance(value, str):
        kind = "null" if value is None else _JSON_TYPES.get(type(value), type(value).__name__)
        raise _BadLine(f"field {name!r} must be a string, not {kind}")
    return value


def _no_json_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_number(text: str) -> float:
    """A JSON number as a float: one too large for a float (1e999) would be written back
    as ``Infinity``, which is not JSON."""
    value = float(text)
    if value in (math.inf, -math.inf):
        raise ValueError(f"{text[:24]} is too large a number")
    return value


#: a question (a decoded line) and the command line's --wild → the answer's fields
Answer = Callable[[dict[str, Any], str | None], dict[str, Any]]


def _answer_line(raw: bytes | str, number: int, fields: tuple[str, ...],
                 answer: Answer, wild: str | None) -> tuple[str, bool] | None:
    """The JSON answer to one batch line and whether it is an error (None for a blank
    line)."""
    head: dict[str, Any] = {}
    error = False
    try:
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as e:
            raise _BadLine(f"not UTF-8 text (byte {e.start + 1})") from None
        if number == 1:
            text = text.removeprefix("\ufeff")
        if not text.strip():
            return None
        try:
            q = json.loads(text, parse_constant=_no_json_constant, parse_float=_finite_number)
        except json.JSONDecodeError as e:
            raise _BadLine(f"not JSON: {e.msg} at column {e.colno}") from None
        except RecursionError:
            raise _BadLine("a line nested too deeply to read") from None
        except ValueError as e:
            # Python's own bound on the digits of an integer (4,300 by default)
            message = str(e)
            raise _BadLine("an integer with too many digits to read" if "digits" in message
                           else message if message.endswith("too large a number")
                           else f"not JSON: {message}") from None
        if not isinstance(q, dict):
            raise _BadLine("a line must be a JSON object, e.g. " + _EXAMPLES[fields[0]])
        if "id" in q:
            head["id"] = q["id"]
        unknown = [k for k in q if k not in fields and k != "id"]
        if unknown:
            allowed = ", ".join(f"{f!r}" for f in (*fields, "id"))
            raise _BadLine(f"unknown field {unknown[0]!r} (the fields are {allowed})")
        out = {**head, **answer(q, wild)}
    except (_BadLine, DdzError, ValueError) as e:
        out = {**head, "line": number, "error": _plain(str(e))}
        error = True
    try:
        return json.dumps(out, separators=(",", ":")), error
    except (ValueError, RecursionError):  # an id nested too deeply to write back
        return json.dumps({"line": number, "error": "the id is nested too deeply"}), True


_EXAMPLES = {"cards": '{"cards": "333444+69"}', "a": '{"a": "2222", "b": "XD"}',
             "hand": '{"hand": "3456789TT", "after": "34567"}'}


#: the longest --batch line read (a question is a few hundred bytes); a longer one is
#: answered with an error and skipped without being held in memory
MAX_BATCH_LINE = 64 * 1024
#: how much of one over-long line is read and dropped before the rest of the input is
#: left unread (a stream with no line end, such as /dev/zero, would be read forever)
MAX_BATCH_DROPPED = 16 << 20


def _bounded_lines(stream: IO[Any]) -> Iterator[bytes | str | None]:
    """The lines of ``stream``, each at most :data:`MAX_BATCH_LINE` long; ``None`` in
    place of a longer line, whose rest is read and dropped in pieces of that size."""
    while True:
        line = stream.readline(MAX_BATCH_LINE + 1)
        if not line:
            return
        if len(line) <= MAX_BATCH_LINE or line[-1:] in (b"\n", "\n"):
            yield line
            continue
        dropped = len(line)
        while line and line[-1:] not in (b"\n", "\n"):
            if dropped > MAX_BATCH_DROPPED:  # no line end in sight: the rest is not read
                yield None
                return
            line = stream.readline(MAX_BATCH_LINE)
            dropped += len(line)
        yield None


def _run_batch(source: str, fields: tuple[str, ...], answer: Answer, wild: str | None) -> NoReturn:
    """Answer every line of ``source`` (a file, or ``-`` for stdin) in order, one JSON
    line each, flushed as it is written; exit 1 when any line had an error."""
    with ExitStack() as closing:
        if source == "-":
            stream: IO[Any] = getattr(sys.stdin, "buffer", sys.stdin)
        else:
            try:
                stream = closing.enter_context(open(source, "rb"))
                mode = os.fstat(stream.fileno()).st_mode
            except OSError as e:
                _fail(f"cannot read the --batch file {source!r}: {e.strerror or e}")
            # a file or a pipe (--batch <(…)); a device (/dev/zero) is no file of questions
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
                _fail(f"cannot read the --batch file {source!r}: a device, not a file of questions")
        failed = False
        for number, raw in enumerate(_bounded_lines(stream), 1):  # line by line, also from a pipe
            answered = (_answer_line(raw, number, fields, answer, wild) if raw is not None else
                        (json.dumps({"line": number, "error": f"line longer than {MAX_BATCH_LINE:,} "
                                     "bytes: not read"}, separators=(",", ":")), True))
            if answered is None:
                continue
            line, error = answered
            failed = failed or error
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
    sys.exit(1 if failed else 0)


def _batch_usage(batch: str | None, given: dict[str, Any], needed: tuple[str, ...]) -> None:
    """A usage error when a question's arguments (``given``, by name) come with --batch,
    or when one of ``needed`` is missing without it (so each of them is given then)."""
    if batch is not None:
        for name, value in given.items():
            if value:
                raise click.UsageError(f"{name} and --batch do not go together: each line of "
                                       "the --batch file is one question.")
        return
    for name in needed:
        if given[name] is None:
            raise click.UsageError(f"Missing {name} (or give --batch FILE).")


def _classify_line(v: Variant) -> Answer:
    def answer(q: dict[str, Any], wild: str | None) -> dict[str, Any]:
        cards = _text_field(q, "cards", required=True)
        return _classify_answer(v, cards, _text_field(q, "wild", wild))
    return answer


def _compare_line(v: Variant) -> Answer:
    def answer(q: dict[str, Any], wild: str | None) -> dict[str, Any]:
        a, b = _text_field(q, "a", required=True), _text_field(q, "b", required=True)
        return _compare_answer(v, a, b, _text_field(q, "wild", wild))
    return answer


def _moves_line(v: Variant) -> Answer:
    def answer(q: dict[str, Any], wild: str | None) -> dict[str, Any]:
        hand = _text_field(q, "hand", required=True)
        return _moves_answer(v, hand, _text_field(q, "after"),
                             _text_field(q, "wild", wild))
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
    _batch_usage(batch, {"argument 'CARDS'": cards}, ("argument 'CARDS'",))
    v = load_variant(spec)
    if batch is not None:
        _run_batch(batch, ("cards", "wild"), _classify_line(v), wild)
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
    _batch_usage(batch, {"argument 'A'": a, "argument 'B'": b}, ("argument 'A'", "argument 'B'"))
    v = load_variant(spec)
    if batch is not None:
        _run_batch(batch, ("a", "b", "wild"), _compare_line(v), wild)
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
    _batch_usage(batch, {"option '--hand'": hand, "option '--after'": after, "option '--limit'": limit},
                 ("option '--hand'",))
    v = load_variant(spec)
    if batch is not None:
        _run_batch(batch, ("hand", "after", "wild"), _moves_line(v), wild)
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
    hand_size = int(v.spec.data.get("deal", {}).get("hand", 17))
    hand = C.counts_to_string(C.counts_of(deck[:hand_size]))
    lead = v.legal_moves(hand)
    console.print(styled("[bold]{}[/]  seed {}  hand {}", v.name, seed, hand))
    console.print(f"leading: {len(lead)} legal plays")
    _print_rows(_move_rows(sorted(lead, key=lambda m: -m.size)[:12]))
    census = v.census()
    console.print(f"universe: {census.total:,} distinct plays")

