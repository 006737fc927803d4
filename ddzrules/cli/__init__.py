"""The ``ddzrules`` command line.

Readable text by default, ``--json`` for machines. Exit 0 on success, 1 on bad
input (a malformed card string, an illegal play, a broken spec) with a clear
message and no traceback.
"""

from __future__ import annotations

import os
import sys
import warnings
from importlib import import_module
from typing import IO

import click

from ddzrules.cli.common import (  # noqa: F401 - re-exported: the commands' modules and plugins' tools import them from here
    MAX_SEED,
    CardArgsCommand,
    F,
    backend_options,
    check_backend,
    check_class_file,
    check_seed,
    console,
    emit_json,
    err_console,
    escape_bidi,
    fail,
    game_progress,
    json_option,
    plain,
    plugin_option,
    plural,
    spec_argument,
    spec_inputs,
    special_file,
    stopped_by_ctrl_c,
    styled,
    user_errors,
    user_plugins,
    wild_option,
)

#: the commands, one module a command group, each imported only when asked for:
#: `classify` need not load the game runtime, plugins, simulation, conformance or the rule
#: sheets. With each, the first sentence of its help, which `--help` lists without
#: importing the module (tests/uses/test_cli.py checks it against the command's own)
_LAZY_COMMANDS = {
    "list": ("rules", "List the bundled specs."),
    "validate": ("rules", ("Validate specs in one pass: the schema of every file of the extends: chain, every "
                           "pattern, the compile, the game: plugins and their parameters, and warnings for likely "
                           "mistakes (exit 0 with warnings unless --strict).")),
    "schema": ("rules", ("Print the spec JSON Schema, for editors (yaml-language-server) to complete and check "
                         "specs as they are typed: `ddzrules schema > ddzrules-spec.schema.json`.")),
    "new": ("rules", "Write a commented starting spec that extends PARENT and validates as it is."),
    "show": ("rules", "Print a spec (as written, or --resolved with its parents merged)."),
    "census": ("rules", "Count the whole move universe by combo (--wild: with that rank's cards wild)."),
    "classify": ("rules", "Every reading of CARDS under SPEC (--batch: of every line's cards)."),
    "compare": ("rules", "Does A beat B, B beat A, or neither? (--batch: for every line's a and b)"),
    "moves": ("rules", "Every legal play from a hand, leading or answering --after (--batch: for every line)."),
    "demo": ("rules", "Deal a seeded hand, classify a few plays and list its moves."),
    "play": ("game", "Play a game at the terminal against bots (or watch bots with --auto)."),
    "simulate": ("simulate", "Play many all-bot games and summarise them, every figure with its 95% interval."),
    "replay": ("game", "Replay a game record and verify every action and the final figures."),
    "plugins": ("game", "List the installed plugins and the hooks each implements (--params NAME: its parameters)."),
    "duel": ("simulate", ("Two bots on the same deals: A's gain over B, with paired 95% intervals, "
                          "and each bot's decision time.")),
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
    print(f"warning: {plain(str(message))}", file=file or sys.stderr)
