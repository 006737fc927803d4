"""``ddzrules sheet``: the rule sheet of a spec, and the bundled sheets kept in sync.

The command registers itself on :data:`ddzrules.cli.main` when this module is
imported (``ddzrules/cli/__init__.py`` imports it when the command is first asked for). All the
work is in :mod:`ddzrules.sheets`; this module only reads options, writes files and
turns every user error — an unknown or broken spec, a bad option, an unwritable
file — into a message and exit 1 (click's own usage errors would exit 2).
"""

from __future__ import annotations

from typing import Any

import click

from ddzrules.cli import (
    check_seed,
    console,
    err_console,
    escape_bidi,
    main,
    plugin_option,
    spec_inputs,
    styled,
    user_errors,
    user_plugins,
)
from ddzrules.errors import DdzError
from ddzrules.outputs import check_output_path, write_file
from ddzrules.sheets import FORMATS, LANGS, sheet_text, update_docs


class _ExitOneCommand(click.Command):
    """A command whose usage errors (an unknown option, a bad ``--lang``) exit 1 like
    every other user error of ``sheet``, not click's 2."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            # click 8.5 types exit_code as a class variable; this error's own value is what is meant
            setattr(e, "exit_code", 1)  # noqa: B010
            raise


@main.command("sheet", cls=_ExitOneCommand)
@click.argument("spec", required=False, metavar="[SPEC]")
@click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
              help="Language of the sheet: en (English) or zh (中文).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="md", show_default=True,
              help="md (Markdown) or html (one self-contained page).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the sheet to this file instead of standard output.")
@click.option("--seed", type=int, default=None,
              help="Seed of the worked example's game, 0 to 2**63-1 (default: the first of 1-20 whose game "
                   "multiplies the score).")
@click.option("--update-docs", "update_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR",
              help="Regenerate the generated block of every Markdown file in DIR (docs/rules) "
                   "instead of printing one sheet.")
@click.option("--check", is_flag=True,
              help="With --update-docs: write nothing, list the stale files and exit 1 if any.")
@plugin_option
@user_errors
def sheet_cmd(spec: str | None, lang: str, fmt: str, output: str | None, seed: int | None,
              update_dir: str | None, check: bool, plugins: tuple[str, ...]) -> None:
    """The rule sheet of SPEC, written from the spec alone: deck and deal, every combo with
    its smallest and largest play, comparison and bomb order, wildcards, the game plugins
    as they describe themselves, a worked scoring example, and the readings.

    With --update-docs DIR, rewrite the blocks between the markers
    `<!-- BEGIN GENERATED: ddzrules sheet SPEC --lang LANG -->` and
    `<!-- END GENERATED -->` of every DIR/*.md (see docs/sheets.md).
    """
    if seed is not None:
        check_seed(seed)
    if update_dir is not None:
        _update(spec, update_dir, check, lang=lang, fmt=fmt, output=output, seed=seed)
        return
    if check:
        raise DdzError("--check goes with --update-docs DIR")
    if spec is None:
        raise DdzError("missing SPEC: a bundled spec name (ddzrules list) or a path to a YAML file")
    if output is not None:  # before the work: a FIFO would block the write, a directory fail it
        check_output_path(output, "-o", spec_inputs(spec))
    with user_plugins(plugins):
        text = sheet_text(spec, lang, fmt, seed)
    if output is None:
        click.echo(escape_bidi(text), nl=False)  # as show prints a spec: no control reorders the terminal
        return
    write_file(output, text, "-o")
    err_console.print(styled("wrote {}", output))


def _update(spec: str | None, directory: str, check: bool, **options: Any) -> None:
    """--update-docs: every generated block of DIR/*.md rewritten (or, --check, compared)."""
    given = [f"--{k}" for k, v in options.items() if v not in (None, "en", "md")]
    if spec is not None or given:
        what = ", ".join(([f"SPEC ({spec})"] if spec is not None else []) + given)
        raise DdzError(f"--update-docs takes no {what}: each block's marker names its spec and "
                       "language")
    statuses = update_docs(directory, check=check)
    if not statuses:
        raise DdzError(f"{directory}: no Markdown file holds a generated block")
    stale = [s for s in statuses if s.stale]
    for s in statuses:
        state = ("stale" if check else "updated") if s.stale else "up to date"
        console.print(f"{state:10}  {s.path}  ({', '.join(s.specs)})", markup=False)
    if check and stale:
        raise DdzError(f"{len(stale)} file(s) differ from what their specs generate; run "
                       f"`ddzrules sheet --update-docs {directory}`")
