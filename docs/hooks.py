"""MkDocs hooks (mkdocs.yml ``hooks:``), run at every build, so nothing here can go stale:

* every generated block of a page (``<!-- BEGIN GENERATED: COMMAND -->``, see
  :mod:`ddzrules.generated`) written again by its command: the CLI reference
  (``reference/cli.md``), the spec schema (``reference/spec-schema.md``), the plugins'
  parameters and the rule sheets;
* heading anchors made as GitHub makes them, so ``#fragment`` links work on both;
* links from a page to a file outside ``docs/`` (``../ddzrules/specs/hubei-3p.yaml``), which
  work on GitHub, become links into the repository tree when mkdocs.yml sets
  ``repo_url``, and plain text otherwise; a link to a file that does not exist is a
  warning, so ``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import logging
import os
import posixpath
import re
from typing import Any

from mkdocs.structure.files import Files

log = logging.getLogger("mkdocs.hooks.ddzrules")



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


# ====================================================================== generated blocks


def regenerated_blocks(markdown: str, page: Any) -> str:
    """The page with every generated block written again by its command
    (:mod:`ddzrules.generated`, the generators of ``ddzrules docs``): the site shows the
    installed commands' help and the schema as they are, whatever the committed text."""
    from ddzrules import generated
    from ddzrules.cli.docs import GENERATORS

    return generated.regenerate(markdown, GENERATORS, f"docs/{page.file.src_path}", strict=True)


# ====================================================================== links out of docs/

_FENCE = re.compile(r"^\s*(```|~~~)")
#: an inline link whose target is relative and has no scheme: [text](target) or [text](target#frag)
_LINK = re.compile(r"\[(?P<text>(?:[^\[\]]|\[[^\[\]]*\])*)\]\((?P<target>(?![a-z][a-z0-9+.-]*:|#|/)[^)\s]+)\)")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    markdown = regenerated_blocks(markdown, page)
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
