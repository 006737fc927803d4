"""MkDocs hooks (mkdocs.yml ``hooks:``), run at every build, so nothing here can go stale:

* ``reference/cli.md``: the help of every command and subcommand of ``ddzrules``
  (the click group ``ddzrules.cli:main``), as ``ddzrules CMD --help`` prints it;
* ``reference/spec-schema.md``: the spec JSON Schema (``ddzrules schema``) as tables of
  keys, then whole;
* heading anchors made as GitHub makes them, so ``#fragment`` links work on both;
* links from a page to a file outside ``docs/`` (``../ddzrules/specs/hubei-3p.yaml``), which
  work on GitHub, become links into the repository tree when mkdocs.yml sets
  ``repo_url``, and plain text otherwise; a link to a file that does not exist is a
  warning, so ``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import html
import json
import logging
import os
import posixpath
import re
from importlib import resources
from typing import Any

import click
from mkdocs.structure.files import File, Files

log = logging.getLogger("mkdocs.hooks.ddzrules")

CLI_PAGE = "reference/cli.md"
SCHEMA_PAGE = "reference/spec-schema.md"
#: the width help is formatted at (click wraps to it)
HELP_WIDTH = 96


# ====================================================================== headings


def github_slug(text: str, separator: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, every character that is not a
    letter, digit, ``-``, ``_`` or space dropped (Chinese kept), spaces to hyphens. So a
    ``#fragment`` written for GitHub works on the site too (``## Literals: `<XD>```
    is ``#literals-xd`` on both)."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", separator)


def on_config(config: Any) -> Any:
    config["mdx_configs"].setdefault("toc", {})["slugify"] = github_slug
    return config


# ====================================================================== generated pages


def on_files(files: Files, config: Any) -> Files:
    for uri, make in ((CLI_PAGE, cli_page), (SCHEMA_PAGE, schema_page)):
        if files.get_file_from_path(uri) is not None:
            log.warning("docs/%s exists, but the hook generates it: delete the file", uri)
            continue
        files.append(File.generated(config, uri, content=make()))
    return files


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


def cli_page() -> str:
    from ddzrules.cli import main

    ctx = click.Context(main, info_name="ddzrules", terminal_width=HELP_WIDTH,
                        max_content_width=HELP_WIDTH)
    commands = _commands(main, ["ddzrules"], ctx)
    lines = [
        "# Command line reference",
        "",
        "Every command and subcommand of `ddzrules`, with its help exactly as",
        "`ddzrules COMMAND --help` prints it. This page is generated from the commands",
        "themselves each time the site is built (`docs/hooks.py`).",
        "",
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


# ------------------------------------------------------------------ the spec schema


def schema_page() -> str:
    text = resources.files("ddzrules").joinpath("spec.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    rows: list[tuple[str, str, str]] = []
    _schema_rows("", schema, rows, required=False)
    lines = [
        "# Spec schema",
        "",
        f"The JSON Schema a spec file is checked against: *{schema.get('title', '')}*.",
        f"{schema.get('description', '')}",
        "",
        "`ddzrules validate` reports every violation at its `file:line:col` with a hint",
        "([validation](../validation.md)); `ddzrules schema` prints the schema for editors;",
        "[the spec format](../specs.md) explains each key with examples. This page is",
        "generated from the schema each time the site is built (`docs/hooks.py`).",
        "",
        "In the key column `.<name>` stands for any key of a mapping (a combo name, a",
        "reading id) and `[]` for each element of a list. The types are JSON's; `null`",
        "removes an inherited entry in a child spec.",
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


# ====================================================================== links out of docs/

_FENCE = re.compile(r"^\s*(```|~~~)")
#: an inline link whose target is relative and has no scheme: [text](target) or [text](target#frag)
_LINK = re.compile(r"\[(?P<text>(?:[^\[\]]|\[[^\[\]]*\])*)\]\((?P<target>(?![a-z][a-z0-9+.-]*:|#|/)[^)\s]+)\)")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    docs_dir = os.path.realpath(config["docs_dir"])
    repo_root = os.path.dirname(os.path.realpath(config["config_file_path"]))
    page_dir = os.path.dirname(os.path.join(docs_dir, page.file.src_path))
    repo_url = (config.get("repo_url") or "").rstrip("/")

    def outside(m: re.Match[str]) -> str:
        target = m.group("target")
        path, _, fragment = target.partition("#")
        full = os.path.normpath(os.path.join(page_dir, path))
        if full == docs_dir or full.startswith(docs_dir + os.sep):
            return m.group(0)  # a page or file of the site: mkdocs checks it
        rel = os.path.relpath(full, repo_root)
        if rel.startswith(os.pardir) or not os.path.exists(full):
            log.warning("%s: the link %s points to %s, which is not in the repository",
                        page.file.src_path, target, rel)
            return m.group(0)
        if repo_url:
            url = f"{repo_url}/blob/HEAD/{posixpath.join(*rel.split(os.sep))}"
            return f"[{m.group('text')}]({url}{'#' + fragment if fragment else ''})"
        return m.group("text")

    out, fenced = [], None
    for line in markdown.split("\n"):
        fence = _FENCE.match(line)
        if fence and (fenced is None or fence.group(1) == fenced):
            fenced = fence.group(1) if fenced is None else None
            out.append(line)
        elif fenced is not None:
            out.append(line)
        else:
            out.append(_LINK.sub(outside, line))
    return "\n".join(out)
