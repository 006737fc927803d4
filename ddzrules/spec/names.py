"""Where a spec's name leads: the bundled specs (``ddzrules/specs/``), a name resolved to a
file (a bundled name, a path, a parent next to its child), and the name messages show."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ddzrules.errors import (
    Problem,
    SpecError,
)

# --------------------------------------------------------------------------- names


@lru_cache(maxsize=1)
def bundled_root() -> Path:
    return Path(str(resources.files("ddzrules.specs")))


@lru_cache(maxsize=1)
def _bundled_real() -> Path:
    return bundled_root().resolve()


def bundled_names() -> list[str]:
    root = bundled_root()
    names = []
    for p in sorted(root.rglob("*.yaml")):
        names.append(p.relative_to(root).with_suffix("").as_posix())
    return names


def _shown_name(name: str, limit: int = 80) -> str:
    """A name from a spec, quoted for a message and cut when long."""
    text = repr(name)
    return text if len(text) <= limit else text[:limit - 1] + "…"


#: set inside :func:`bundled_parents_only`
_PARENTS_BUNDLED: ContextVar[bool] = ContextVar("ddzrules_parents_bundled", default=False)


@contextmanager
def bundled_parents_only() -> Iterator[None]:
    r"""Inside (in this context: thread or task), an ``extends:`` resolves to a bundled
    spec only, never to a file: a spec from someone else (the playground's editor, an
    upload) cannot make this process read one of its files.

    >>> import tempfile, pathlib
    >>> from ddzrules.spec import load_spec
    >>> child = pathlib.Path(tempfile.mkdtemp()) / "child.yaml"
    >>> _ = child.write_text("name: child\nextends: ../parent.yaml\n")
    >>> with bundled_parents_only():
    ...     load_spec(child)
    Traceback (most recent call last):
    ...
    ddzrules.errors.SpecError: ...extends: names a bundled spec here...
    """
    token = _PARENTS_BUNDLED.set(True)
    try:
        yield
    finally:
        _PARENTS_BUNDLED.reset(token)


def parents_bundled_only() -> bool:
    """Whether this context is inside :func:`bundled_parents_only`."""
    return _PARENTS_BUNDLED.get()


def resolve_name(name_or_path: str, relative_to: Path | None = None) -> Path:
    """A bundled spec name (``hubei-3p``, ``compat/rlcard``) or a path → a file.

    With ``relative_to`` (an ``extends:``) only bundled names and ``.yaml``/``.yml``
    files resolve: a parent that is some other file would have its lines echoed in
    the errors about it (``extends: ../secrets.txt``). Inside
    :func:`bundled_parents_only`, only bundled names.
    """
    candidate = Path(name_or_path)
    if "\0" in name_or_path:
        raise SpecError([Problem(None, "", "a spec name holds no NUL character")])
    if not name_or_path.strip():  # Path("") is ".": it was read as the current directory
        raise SpecError([Problem(None, "", "an empty spec name: give a bundled spec name (ddzrules list) "
                                 "or a path to a YAML file")])
    if relative_to is not None and _PARENTS_BUNDLED.get():
        bundled = bundled_root() / f"{name_or_path}.yaml"
        if bundled.is_file() and bundled.resolve().is_relative_to(_bundled_real()):
            return bundled
        close = difflib.get_close_matches(name_or_path, bundled_names(), n=1)
        more = f" (did you mean {close[0]!r}?)" if close else ""
        raise SpecError([Problem(None, "", f"no bundled spec named {_shown_name(name_or_path)}{more}: "
                                 "extends: names a bundled spec here (`ddzrules list`), never a file")])
    if candidate.suffix in (".yaml", ".yml"):
        found: Path | None = None
        if relative_to is not None and not candidate.is_absolute():
            rel = relative_to / candidate
            if rel.exists():
                found = rel
        if found is None and candidate.exists():
            found = candidate
        if found is not None:
            # a parent named .yaml may be a link to another file, whose lines the errors
            # about it would echo (``extends: shadow.yaml`` -> /etc/shadow); a link to a
            # directory or a device is refused by the reader, by its kind
            target = found.resolve()
            if relative_to is not None and target.suffix not in (".yaml", ".yml") and target.is_file():
                raise SpecError([Problem(None, "", "a link to a file "
                                         "that is not a .yaml/.yml spec file")])
            return found
    bundled = bundled_root() / f"{name_or_path}.yaml"
    if bundled.exists() and bundled.resolve().is_relative_to(_bundled_real()):
        return bundled
    if relative_to is not None:
        if candidate.suffix not in (".yaml", ".yml"):
            close = difflib.get_close_matches(name_or_path, bundled_names(), n=1)
            more = f" (did you mean {close[0]!r}?)" if close else ""
            raise SpecError([Problem(None, "", f"no spec named {name_or_path!r}{more}: extends: names "
                                     "a bundled spec or a .yaml/.yml spec file")])
        raise SpecError([Problem(None, "", f"no spec file {name_or_path!r} (looked next to the "
                                 "spec that extends it and in the current directory)")])
    if candidate.exists():  # a FIFO, a device or a directory too: the reader refuses it by name
        return candidate
    known = bundled_names()
    hint = difflib.get_close_matches(name_or_path, known, n=1)
    more = f" (did you mean {hint[0]!r}?)" if hint else ""
    raise SpecError([Problem(None, "", f"no spec named {name_or_path!r}{more}; bundled specs: "
                             + ", ".join(known))])


def display_name(path: Path, real: Path | None = None) -> str:
    """A short, stable file name for messages: relative to the bundle or the cwd
    (``real``: the path resolved, when the caller has it)."""
    real = real or path.resolve()
    try:
        return "specs/" + real.relative_to(_bundled_real()).as_posix()
    except ValueError:
        pass
    try:
        return real.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)
