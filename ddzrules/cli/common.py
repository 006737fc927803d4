"""What every command of the command line shares: the consoles and the one way text
reaches them (control and bidirectional characters written as escapes), the options
several commands take (``--json``, ``--wild``, ``--plugin``, ``--seed``, ``--backend``),
and the wrapper that turns a user's error into a message and exit code 1."""

from __future__ import annotations

import json
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from itertools import islice
from typing import Any, NoReturn, ParamSpec, TypeVar

import click
from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderHook
from rich.markup import escape
from rich.segment import Segment
from rich.text import Text

from ddzrules.errors import DdzError, brief, escaped
from ddzrules.spec import load_spec
from ddzrules.untrusted import not_regular

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
                yield Segment(plain(text), segment.style)


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
    return Text.from_markup(template.format(*(escape(plain(str(v))) for v in values)))


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
            fail(str(e))
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
    err_console.print(f"interrupted by SIGINT: {plain(' '.join(words) or 'ddzrules')} stopped", markup=False)
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
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # nothing there, or no path at all (a NUL)
        return None
    return not_regular(mode)


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


def plain(text: str) -> str:
    """``text`` with every control character but the newline written as an escape
    (``\\x1b``), and every bidirectional control (``\\u202e``, :func:`escape_bidi`), so
    that a message never carries a terminal escape sequence nor reorders what it shows."""
    if text.isprintable():
        return text
    return escape_bidi("".join(ch if ch == "\n" or unicodedata.category(ch) != "Cc"
                               else ch.encode("unicode_escape").decode("ascii") for ch in text))


def fail(message: str) -> NoReturn:
    err_console.print(Text.assemble(("error:", "bold red"), " ", plain(message)), soft_wrap=True)
    sys.exit(1)
