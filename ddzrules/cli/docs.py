"""``ddzrules docs``: the generated blocks of the documentation, one mechanism for all
(:mod:`ddzrules.generated`): ``docs update PATH…`` rewrites every block of the Markdown
files named (``--check``: says which are stale, exit 1), and ``docs cli``, ``docs schema``
and ``docs plugins`` print the blocks of the CLI reference, the spec schema reference
and the built-in plugins' parameters. Rule sheets are ``ddzrules sheet``'s. The docs
site's build (docs/hooks.py) regenerates every block through :data:`GENERATORS` too.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any

import click

from ddzrules import generated
from ddzrules.cli import console, main, plural, special_file, styled, user_errors
from ddzrules.errors import DdzError, brief, escaped

#: the width help is formatted at (click wraps to it)
HELP_WIDTH = 96


def _no_words(name: str, args: list[str]) -> None:
    if args:
        raise DdzError(f"the block `ddzrules docs {name}` takes no words, not {brief(' '.join(args), 60)}")


def _sheet_block(args: list[str]) -> str:
    from ddzrules.sheets import LANGS, sheet_text

    if len(args) == 3 and args[1] == "--lang" and args[2] in LANGS:
        return sheet_text(args[0], args[2])
    raise DdzError(f"a sheet block is `ddzrules sheet SPEC --lang {'|'.join(LANGS)}`, not "
                   f"{brief(' '.join(['ddzrules', 'sheet', *args]), 80)}")


def _plugins_block(args: list[str]) -> str:
    from ddzrules.cli.game import plugins_markdown

    _no_words("plugins", args)
    return plugins_markdown()


def _cli_block(args: list[str]) -> str:
    _no_words("cli", args)
    return cli_reference()


def _schema_block(args: list[str]) -> str:
    _no_words("schema", args)
    return schema_reference()


#: every generated block of the docs, by the command its marker names
GENERATORS: dict[str, generated.Generator] = {
    "ddzrules sheet": _sheet_block,
    "ddzrules docs plugins": _plugins_block,
    "ddzrules docs cli": _cli_block,
    "ddzrules docs schema": _schema_block,
}


@main.group("docs")
def docs_group() -> None:
    """The documentation's generated blocks: update or check them, or print one."""


@docs_group.command("update")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--check", is_flag=True, help="Write nothing: list the stale files and exit 1 if any.")
@user_errors
def update_cmd(paths: tuple[str, ...], check: bool) -> None:
    """Rewrite every generated block of the Markdown files PATHS (directories: their *.md,
    recursively, hidden folders skipped) from the command its marker names."""
    for path in paths:
        kind = special_file(path)
        if kind is not None and kind != "a directory":
            raise DdzError(f"{escaped(path)}: {kind}, not a Markdown file or a directory")
    statuses = generated.update_files(paths, GENERATORS, check=check, strict=True)
    if not statuses:
        raise DdzError(f"no Markdown file of {', '.join(paths)} holds a generated block")
    for s in statuses:
        state = ("stale" if check else "updated") if s.stale else "up to date"
        console.print(styled("{}  {}  ({})", f"{state:10}", s.path, plural(len(s.sources), "block")))
    stale = [s for s in statuses if s.stale]
    if check and stale:
        raise DdzError(f"{len(stale)} file(s) differ from what their blocks' commands write; run "
                       f"`ddzrules docs update {' '.join(paths)}`")


@docs_group.command("cli")
@user_errors
def cli_cmd() -> None:
    """Print the CLI reference block: every command's help, as --help prints it."""
    click.echo(cli_reference(), nl=False)


@docs_group.command("schema")
@user_errors
def schema_cmd() -> None:
    """Print the spec schema reference block: every key of the schema, then the schema."""
    click.echo(schema_reference(), nl=False)


@docs_group.command("plugins")
@user_errors
def plugins_cmd() -> None:
    """Print the built-in plugins' parameters block (docs/plugins.md)."""
    click.echo(_plugins_block([]), nl=False)


# ====================================================================== the CLI reference


def _commands(cmd: click.Command, path: list[str], ctx: click.Context) -> list[tuple[list[str], str]]:
    """(path, help text) of ``cmd`` and of every subcommand under it, depth first."""
    out = [(path, cmd.get_help(ctx))]
    if isinstance(cmd, click.Group):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is None or getattr(sub, "hidden", False):
                continue
            sub_ctx = click.Context(sub, info_name=name, parent=ctx, terminal_width=HELP_WIDTH,
                                    max_content_width=HELP_WIDTH)
            out += _commands(sub, path + [name], sub_ctx)
    return out


def cli_reference() -> str:
    """Every command and subcommand of ``ddzrules``: a table of them, then each one's help
    as ``ddzrules COMMAND --help`` prints it (at :data:`HELP_WIDTH` columns)."""
    ctx = click.Context(main, info_name="ddzrules", terminal_width=HELP_WIDTH,
                        max_content_width=HELP_WIDTH)
    commands = _commands(main, ["ddzrules"], ctx)
    lines = [
        "| command | what it does |",
        "| --- | --- |",
    ]
    for path, _ in commands[1:]:
        cmd: click.Command = main
        for name in path[1:]:
            assert isinstance(cmd, click.Group)
            got = cmd.get_command(ctx, name)
            assert got is not None
            cmd = got
        title = " ".join(path)
        short = cmd.get_short_help_str(limit=200).replace("|", "\\|")
        lines.append(f"| [`{title}`](#{_slug(title)}) | {short} |")
    for path, text in commands:
        level = "##" if len(path) <= 2 else "###"
        lines += ["", f"{level} {' '.join(path)}", "",
                  "```text", text.replace("```", "'''"), "```"]
    return "\n".join(lines) + "\n"


def _slug(title: str) -> str:
    return re.sub(r"[^\w\- ]", "", title.lower()).strip().replace(" ", "-")


# ====================================================================== the spec schema reference


def schema_reference() -> str:
    """The spec JSON Schema (``ddzrules schema``): its title, a table of every key (its
    types, meaning and constraints), then the whole schema."""
    text = resources.files("ddzrules.spec").joinpath("spec.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)  # the package's own file, not input: the plain reader
    rows: list[tuple[str, str, str]] = []
    _schema_rows("", schema, rows, required=False)
    lines = [
        f"The JSON Schema a spec file is checked against: *{schema.get('title', '')}*.",
        f"{schema.get('description', '')}",
        "",
        "| key | type | meaning and constraints |",
        "| --- | --- | --- |",
    ]
    for key, types, meaning in rows:
        lines.append(f"| {key} | {types} | {meaning} |")
    lines += ["", "## The whole schema", "", "```json", text.rstrip(), "```", ""]
    return "\n".join(lines)


def _cell(text: str) -> str:
    """Text for a table cell of raw HTML: no ``|`` to split the cell, no ``[`` for a
    cross-reference to be looked for."""
    return (html.escape(text).replace("|", "&#124;").replace("[", "&#91;")
            .replace("]", "&#93;").replace("\n", " "))


def _code(text: str) -> str:
    return "<code>" + _cell(text) + "</code>"


def _variants(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a schema: its oneOf/anyOf branches, or itself."""
    for key in ("oneOf", "anyOf"):
        if key in schema:
            base = {k: v for k, v in schema.items() if k != key}
            return [{**base, **branch} for branch in schema[key]]
    return [schema]


def _types(schema: dict[str, Any]) -> list[str]:
    if "enum" in schema:
        return ["enum"]
    kind = schema.get("type")
    if kind is None:
        return []
    return [kind] if isinstance(kind, str) else list(kind)


def _schema_rows(path: str, schema: dict[str, Any], rows: list[tuple[str, str, str]],
                 required: bool) -> None:
    branches = _variants(schema)
    types: list[str] = []
    notes: list[str] = []
    for branch in branches:
        for t in _types(branch):
            if t not in types:
                types.append(t)
    description = schema.get("description") or next(
        (b["description"] for b in branches if b.get("description")), "")
    if description:
        notes.append(_cell(description))
    if required:
        notes.append("<strong>required</strong>")
    for branch in branches:
        if "enum" in branch:
            notes.append("one of " + ", ".join(_code(json.dumps(v, ensure_ascii=False))
                                               for v in branch["enum"]))
        for key, label in (("pattern", "matches"), ("minimum", "at least"), ("maximum", "at most"),
                           ("minItems", "at least this many items:"),
                           ("minProperties", "at least this many keys:")):
            if key in branch:
                value = branch[key]
                notes.append(f"{label} {_code(str(value))}")
        if branch.get("uniqueItems"):
            notes.append("no duplicates")
        if "pattern" in branch.get("propertyNames", {}):
            notes.append(f"names match {_code(branch['propertyNames']['pattern'])}")
        if branch.get("type") == "object" and branch.get("required") and not branch.get("properties"):
            notes.append("requires " + ", ".join(_code(r) for r in branch["required"]))
    if path:
        shown_types = " &#124; ".join(_code(t) for t in types) if types else "any"
        text, constraints = (notes[0], notes[1:]) if description else ("", notes)
        rules = " · ".join(dict.fromkeys(constraints))
        rows.append((_code(path), shown_types, f"{text}<br>{rules}" if text and rules else text or rules))
    for branch in branches:
        needed = set(branch.get("required", ()))
        for name, sub in branch.get("properties", {}).items():
            _schema_rows(f"{path}.{name}" if path else name, sub, rows, name in needed)
        extra = branch.get("additionalProperties")
        if isinstance(extra, dict):
            _schema_rows(f"{path}.<name>", extra, rows, False)
        items = branch.get("items")
        if isinstance(items, dict):
            _schema_rows(f"{path}[]", items, rows, False)
