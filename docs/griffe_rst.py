"""A Griffe extension for the API reference: the docstrings of ddzrules are written in
reStructuredText-flavoured prose (``code``, :class:`~ddzrules.runtime.Game`, doctest
blocks, ``::`` literal blocks), and mkdocstrings renders Markdown. This rewrites, for the
site only (the source is never touched):

* ``:class:`~a.b.C```, ``:func:``, ``:meth:``, ``:attr:``, ``:mod:``, ``:data:``,
  ``:exc:``, ``:obj:`` roles into cross-references to the object on the site, shown as
  code; a target not rendered on the site stays plain code (an *optional* reference,
  which never fails the strict build);
* paragraphs of doctest (``>>>``) into ``pycon`` code blocks (Markdown would read
  ``>>>`` as nested quotes);
* a paragraph ending in ``::`` into one ending in ``:`` (its indented block is a code
  block in Markdown already).

Loaded by mkdocs.yml (``plugins.mkdocstrings.handlers.python.options.extensions``).
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj):`(~?)([^`<>]+)`")


class RstProse(griffe.Extension):
    """Rewrite the reStructuredText inline markup of every docstring into Markdown."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        """Once the whole package is loaded (so that every role's target can be looked up),
        every docstring of it, the package's own included."""
        todo: list[griffe.Object] = [pkg]
        while todo:
            obj = todo.pop()
            if obj.docstring is not None:
                obj.docstring.value = _markdown(obj.docstring.value, obj, loader)
            todo += [m for m in obj.members.values() if not m.is_alias]


def _markdown(text: str, obj: griffe.Object, loader: griffe.GriffeLoader) -> str:
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):  # a doctest paragraph: up to the next blank line
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(f"{indent}```")
            continue
        if line.rstrip().endswith("::") and not line.rstrip().endswith(":::"):
            line = line.rstrip()[:-1]
        out.append(_ROLE.sub(lambda m: _reference(m, obj, loader), line))
        i += 1
    return "\n".join(out)


def _reference(m: re.Match[str], obj: griffe.Object, loader: griffe.GriffeLoader) -> str:
    short, target = m.group(1) == "~", m.group(2).strip()
    shown = target.rsplit(".", 1)[-1] if short else target
    ident = _resolve(target, obj, loader)
    code = f"<code>{html.escape(shown)}</code>"
    if ident is None:
        return code
    return f'<autoref identifier="{html.escape(ident)}" optional>{code}</autoref>'


def _resolve(target: str, obj: griffe.Object, loader: griffe.GriffeLoader) -> str | None:
    """The full path of a role's target: as written, or relative to the object's class,
    module and package, the first that exists."""
    scopes: list[str] = [""]
    parent: griffe.Object | None = obj if obj.is_class or obj.is_module else obj.parent
    while parent is not None:
        scopes.append(parent.path + ".")
        parent = parent.parent
    for scope in scopes:
        path = scope + target
        try:
            loader.modules_collection.get_member(path)
        except (KeyError, ValueError, griffe.AliasResolutionError):
            continue
        return path
    return None
