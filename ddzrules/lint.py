"""One-pass validation of spec files: every error and likely mistake in one run.

``load_spec`` stops at the first stage that fails (a schema problem means the
patterns are never compiled), which is right for loading but slow for a person
fixing a spec: each run shows one layer of mistakes. :func:`validate_spec` runs
every check that can still run — each file of the ``extends:`` chain against the
schema, every combo's pattern on its own, the plugins even when a combo is
broken — and adds warnings for what is legal but probably wrong (a new combo
whose name is one letter away from an inherited one is usually a misspelt
override). Every finding is a :class:`~ddzrules.errors.Problem` with a severity,
a code and, where there is an obvious fix, a hint.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ddzrules import cards as C
from ddzrules.errors import DdzError, Location, Problem, SpecError
from ddzrules.spec import (
    DEFAULT_KITTY,
    DEFAULT_PLAYERS,
    TABLE_KINDS,
    Path_,
    ScalarSource,
    Spec,
    bundled_names,
    bundled_root,
    dangling_removals,
    dotted,
    merge,
    parents_bundled_only,
    read_spec_text,
    read_yaml,
    resolve_name,
    schema_problems,
)

#: top-level keys that change what the compiler builds (a child changing one can break
#: a parent's combo that compiled on its own)
COMPILE_KEYS = ("deck", "deal", "max_hand", "chain_ranks", "wildcards")
#: top-level keys the runtime reads besides the plugins' own entries: the table, the deal
#: and the roles it checks the plugins against
RUNTIME_KEYS = ("players", "deal", "deck", "table", "game", "wildcards", "direction")
#: the compiler's checks that read the pattern alone (not the deck, the hand size or the
#: other combos): still meaningful when those are unknown (a missing parent) or stood in
#: for (a broken deck:), where every other check could report what is not so
_PATTERN_ONLY = ("unknown constraint ", "bad count ", "bad chain length ",
                 "a kicker needs at least one group", "empty rank range ", "bad card in <")
_PATTERN_ONLY_CONSTRAINT = re.compile(r"constraint '[^']*' (takes only an upper limit|needs a limit|"
                                      r"takes no limit)")
#: what the plugin checks of a game: entry standing on its own report (codes of _plugins)
_ENTRY_CODES = ("unknown-plugin", "plugin-params", "plugin-error")
#: a comment that names readings: ``# reading: a, b``, ``# reading a: …``, ``(reading a)``
_READING_REF = re.compile(r"(?:^\s*|\()reading:?\s+([a-z][a-z0-9-]*(?:\s*,\s*[a-z][a-z0-9-]*)*)")
_COMMENT = re.compile(r"(?:^|\s)#(.*)$")


@dataclass
class SpecFile:
    """One file of an ``extends:`` chain as written, with its own schema problems."""

    path: Path
    file: str  # as shown in messages
    text: str
    data: dict[str, Any]
    positions: dict[Path_, ScalarSource]
    key_positions: dict[Path_, ScalarSource]
    #: the key paths of this file's schema problems: the parts left out of the checks
    #: that read the data (see _without)
    broken: list[Path_] = field(default_factory=list)


@dataclass
class Report:
    """Everything ``validate`` found in one spec."""

    spec: str
    findings: list[Problem] = field(default_factory=list)
    combos: int | None = None

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.findings if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.findings if p.severity == "warning"]

    def ok(self, strict: bool = False) -> bool:
        return not self.errors and not (strict and self.warnings)


def finding_dict(p: Problem) -> dict[str, Any]:
    """The ``--json`` form of a finding."""
    loc = p.location
    return {"file": loc.file if loc else None, "line": loc.line if loc else None,
            "column": loc.column if loc else None, "path": p.path, "severity": p.severity,
            "code": p.code or "error", "message": p.message, "hint": p.hint}


def _dict_at(data: dict[str, Any], key: str) -> dict[Any, Any]:
    """``data[key]`` when it is a mapping, else an empty one (a malformed or missing key)."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _tag(problems: list[Problem], code: str, prefix: str = "") -> list[Problem]:
    """Problems with a code (kept when the raiser gave one) and an optional prefix."""
    return [dataclasses.replace(p, code=p.code or code, message=prefix + p.message) for p in problems]


def user_file(path: Path) -> str:
    """How a file is named in messages so that the name leads to it from the user's
    directory: a bundled spec by its bundled name (its path inside the package means
    nothing to a user), any other file relative to the current directory when inside it."""
    try:
        rel = path.resolve().relative_to(bundled_root().resolve())
        return f"{rel.with_suffix('').as_posix()} (bundled) specs/{rel.as_posix()}"
    except ValueError:
        pass
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def _key_loc(f: SpecFile, path: Path_) -> tuple[Location, str]:
    src = f.key_positions.get(path) or f.positions.get(path)
    if src is None:
        return Location(f.file, 1, 1), ""
    return src.location, f"  {src.source_line}\n  {' ' * (src.location.column - 1)}^"


def _load_chain(name: str, report: Report) -> tuple[list[SpecFile], bool]:
    """The files from ``name`` up to its root, child first, and whether the chain is
    whole. Each file is checked against the schema on its own and its problems kept, and
    the chain goes on; when a file cannot be read (the problems in ``report``) the chain
    stops there: no files when it is ``name`` itself, else the files read so far, whose
    own keys and patterns are still checked (see :func:`_validate`)."""
    files: list[SpecFile] = []
    seen: list[str] = []
    target: str = name
    relative_to: Path | None = None
    while True:
        child = files[-1] if files else None
        try:
            path = resolve_name(target, relative_to)
            if str(path.resolve()) in seen:
                raise SpecError([Problem(None, "extends", "extends loop: "
                                         + " -> ".join(seen + [str(path.resolve())]))])
            file = user_file(path)
            text = read_spec_text(path, file)
            data, positions, key_positions = read_yaml(text, file)
        except SpecError as e:
            if child is None:
                report.findings.extend(_tag(e.problems, "load"))
                return files, False
            loc, excerpt = _key_loc(child, ("extends",))
            missing = all(p.location is None for p in e.problems)
            code = "missing-parent" if missing else "broken-parent"
            # a misspelt bundled name: go on with the spec it surely means, so that one run
            # still reports everything else in the child (marked as checked against it)
            stand_in = _bundled_stand_in(target) if missing and len(files) == 1 else None
            for p in e.problems:
                where = f" ({p.location})" if p.location else ""
                hint = ("name a bundled spec (`ddzrules list`)" + ("" if parents_bundled_only() else " or a .yaml file")
                        if missing else "")
                if stand_in:
                    hint += f"; the rest of this file was checked as if it extended {stand_in!r}"
                report.findings.append(Problem(loc, "extends", f"parent {target!r}{where}: {p.message}",
                                               excerpt, code=p.code if p.code and not missing
                                               else code, hint=hint))
            if stand_in is None:
                return files, False
            target, relative_to = stand_in, None
            continue
        except (OSError, ValueError) as e:
            loc_file = child.file if child else name
            report.findings.append(Problem(Location(loc_file, 1, 1), "", f"cannot read {target!r}: {e}",
                                           code="load"))
            return files, False
        if not isinstance(data, dict):
            report.findings.append(Problem(Location(file, 1, 1), "", "a spec is a YAML mapping "
                                           "(key: value lines)", code="schema"))
            return files, False
        prefix = "" if child is None else f"in parent {target!r}: "
        found = schema_problems(data, file, positions, key_positions)
        report.findings.extend(_tag([p for _, p in found], "schema", prefix))
        files.append(SpecFile(path, file, text, data, positions, key_positions,
                              [where for where, _ in found]))
        seen.append(str(path.resolve()))
        parent = data.get("extends")
        if not parent:
            return files, True
        if not isinstance(parent, str):  # reported by the schema; the parent is unknown
            return files, False
        target, relative_to = parent, path.parent


def _bundled_stand_in(name: str) -> str | None:
    """The bundled spec a missing parent's name is a near miss of (one match only)."""
    if "/" in name.replace("compat/", "", 1) or name.endswith((".yaml", ".yml")):
        return None  # a path: no guessing which file was meant
    close = difflib.get_close_matches(name, bundled_names(), n=1, cutoff=0.85)
    return close[0] if close else None


def _merged(files: list[SpecFile], upto: int = 0) -> Spec:
    """The spec of ``files[upto:]`` merged (root first), positions of the nearest file."""
    chain = files[upto:]
    data: dict[str, Any] = {}
    pos: dict[Path_, ScalarSource] = {}
    kpos: dict[Path_, ScalarSource] = {}
    for f in reversed(chain):
        clean = {k: v for k, v in f.data.items() if k != "extends"}
        data = merge(data, clean) if data else copy.deepcopy(clean)
        pos.update(f.positions)
        kpos.update(f.key_positions)
    name = str(chain[0].data.get("name", ""))
    return Spec(name, data, chain[0].file, [f.file for f in chain], pos, kpos)


def _compilable(spec: Spec, broken: set[str], unknown_bombs: bool = False) -> Spec:
    """``spec`` without the combos named in ``broken`` and the bomb classes naming them
    (with ``unknown_bombs``, also those naming no combo; always those that are not a name):
    what is left still compiles, so the plugins can be checked beside a broken combo. The
    bomb classes left keep the positions and key paths of their places in the file (see
    :func:`_compile`), so that a finding about one points at it."""
    data = copy.deepcopy(spec.data)
    combos = data.get("combos")
    if isinstance(combos, dict):
        data["combos"] = {k: v for k, v in combos.items() if k not in broken}
    out = Spec(spec.name, data, spec.file, spec.chain, spec.positions, spec.key_positions)
    bombs = data.get("bombs")
    if isinstance(bombs, list):
        names = _dict_at(data, "combos")
        keep = [i for i, b in enumerate(bombs) if isinstance(b, str) and b not in broken
                and (not unknown_bombs or b in names)]
        if len(keep) < len(bombs):
            data["bombs"] = [bombs[i] for i in keep]
            moved = {("bombs", new): ("bombs", old) for new, old in enumerate(keep)}
            positions = {k: v for k, v in spec.positions.items() if k[:1] != ("bombs",) or len(k) < 2}
            positions.update({new: spec.positions[old] for new, old in moved.items() if old in spec.positions})
            out = _Target(spec.name, data, spec.file, spec.chain, positions, spec.key_positions)
            out.bombs_at = tuple(keep)
    return out


class _Target(Spec):
    """A spec made for validate's compile with bomb classes left out: ``bombs_at[i]`` is
    where its ``bombs[i]`` stands in the file."""

    bombs_at: tuple[int, ...] = ()


def _compile(spec: Spec) -> tuple[Any, list[Problem]]:
    from ddzrules.rules.compiler import compile_spec

    try:
        return compile_spec(spec), []
    except SpecError as e:
        at = spec.bombs_at if isinstance(spec, _Target) else ()
        return None, [_bomb_back(p, at) for p in e.problems] if at else e.problems
    except DdzError as e:
        return None, [Problem(Location(spec.file, 1, 1), "", str(e), code="compile")]
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as e:
        # data the schema let through but the compiler cannot read: reported, never raised
        return None, [Problem(Location(spec.file, 1, 1), "", f"cannot compile: {e!r}", code="compile")]


def _bomb_back(p: Problem, at: tuple[int, ...]) -> Problem:
    """A problem about ``bombs.i`` of a spec with bomb classes left out, about the place
    that class has in the file."""
    m = re.fullmatch(r"bombs\.(\d+)", p.path)
    if m is None or int(m.group(1)) >= len(at):
        return p
    return dataclasses.replace(p, path=f"bombs.{at[int(m.group(1))]}")


def _without(f: SpecFile) -> SpecFile:
    """``f`` without the parts its schema problems are in, so that every check that reads
    the data still runs on the rest: a broken combo, plugin role or reading alone, any
    other broken key whole (what the parent says there, if anything, stands in); a bomb
    class that is not a name is left to :func:`_compilable`."""
    if not f.broken:
        return f
    data = copy.deepcopy(f.data)
    for path in f.broken:
        if not path:  # the whole file (a required key missing): nothing to leave out
            continue
        key = path[0]
        section = data.get(str(key))
        if key in ("combos", "game", "readings") and len(path) >= 2 and isinstance(section, dict):
            section.pop(str(path[1]), None)
        elif key == "bombs" and len(path) >= 2:
            continue  # a class that is not a name: left out by _compilable, the others kept in place
        else:
            data.pop(str(key), None)
    return dataclasses.replace(f, data=data, broken=[])


def _broken_parts(files: list[SpecFile]) -> tuple[set[str], set[str]]:
    """The combos with schema problems in any file, and the top-level keys left out in
    part or whole somewhere (their checks would run on a stand-in: the parent's value or
    none). A broken bomb class or reading alone changes no other check."""
    combos: set[str] = set()
    keys: set[str] = set()
    for f in files:
        for path in f.broken:
            if len(path) >= 2 and path[0] == "combos":
                combos.add(str(path[1]))
            elif path and not (len(path) >= 2 and path[0] in ("bombs", "readings")):
                keys.add(str(path[0]))
    return combos, keys


def _pattern_only(p: Problem, complete: bool, lost: set[str]) -> bool:
    """Whether a compile problem is still so when the deck, hand size or parent it was
    checked against is not the spec's own (a missing parent, a broken deck: stood in for)."""
    if p.code in ("pattern-syntax", "unknown-rank"):
        return True
    if p.code == "unknown-bomb":  # reads only combos: and bombs:
        return complete and "combos" not in lost
    return p.code == "compile" and (p.message.startswith(_PATTERN_ONLY)
                                    or _PATTERN_ONLY_CONSTRAINT.match(p.message) is not None)


def _blame_child(p: Problem, child: SpecFile, spec: Spec) -> Problem:
    """A problem located in a parent but caused by the child (the parent compiles on
    its own): reported at the child's line that causes it, naming both places."""
    combos = spec.data.get("combos") or {}
    bombs = [b for b in spec.data.get("bombs") or []]
    child_combos = _dict_at(child.data, "combos")
    where = f"{p.location}" if p.location else "the parent"
    key: Path_ | None = None
    hint = ""
    if p.code == "unknown-bomb":
        m = re.search(r"bomb class '([^']*)'", p.message)
        gone = m.group(1) if m else ""
        if gone in child_combos:
            key = ("combos", gone)
        rest = [b for b in bombs if b != gone and b in combos]
        hint = f"restate the bomb classes in this spec: bombs: [{', '.join(rest)}]"
    if key is None:
        key = next(((k,) for k in COMPILE_KEYS if k in child.data), ("extends",))
        combo = p.path.split(".")[1] if p.path.startswith("combos.") else ""
        if combo:
            rest = [b for b in bombs if b != combo and b in combos]
            hint = f"remove the combo in this spec with `{combo}: null` under combos:"
            if combo in bombs:
                hint += f" and restate bombs: [{', '.join(rest)}]"
    loc, excerpt = _key_loc(child, key)
    message = f"{p.message} — at {where} ({p.path}), because of this spec's {dotted(key)}"
    return Problem(loc, dotted(key), message, excerpt, code=p.code or "compile", hint=hint)


def _plugins(spec: Spec, rules: Any) -> list[Problem]:
    from ddzrules.rules.variant import Variant
    from ddzrules.runtime import GameRules

    try:
        GameRules(Variant(spec, rules))
    except SpecError as e:
        out = []
        for p in e.problems:
            code = ("unknown-plugin" if "unknown plugin" in p.message else
                    "plugin-params" if p.message.startswith("plugin ") else "game")
            out.append(dataclasses.replace(p, code=code))
        return out
    except DdzError as e:
        return [Problem(Location(spec.file, 1, 1), "game", str(e), code="game")]
    except Exception as e:  # noqa: BLE001 - a third-party plugin's own failure: reported
        return [Problem(Location(spec.file, 1, 1), "game", f"a plugin failed to start: {e!r}",
                        code="plugin-error")]
    return []


def _plugin_entries(spec: Spec, complete: bool) -> list[Problem]:
    """The plugin checks of each ``game:`` entry on its own — its plugin known, its
    parameters of the plugin's types, its role one it can fill — which the runtime makes
    only once the deal, the table and the combos are sound. So the same runtime checks are
    run on a shell of the spec that is sound: the spec's plugins, seats and table kind, a
    whole deck dealt to fit and one combo; only the entries' own findings are kept."""
    from ddzrules.rules.compiler import compile_spec

    data = spec.data
    players = data.get("players")
    players = players if type(players) is int and 2 <= players <= 8 else DEFAULT_PLAYERS
    table = _dict_at(data, "table")
    kind = table.get("kind") if table.get("kind") in TABLE_KINDS else TABLE_KINDS[0]
    kitty = DEFAULT_KITTY if kind == "landlord" else 0
    hand = (54 - kitty) // players
    shell_data: dict[str, Any] = {
        "name": spec.name or "spec", "players": players, "combos": {"single": "1"}, "game": data["game"],
        "deal": {"hand": hand, "kitty": kitty, "undealt": 54 - kitty - hand * players},
        "table": {"kind": kind, "teams": [[s] for s in range(players)]} if kind == "partnerships"
        else {"kind": kind}}
    shell = Spec(spec.name, shell_data, spec.file, spec.chain, spec.positions, spec.key_positions)
    found = [p for p in _plugins(shell, compile_spec(shell)) if p.code in _ENTRY_CODES]
    if not complete:
        # a child's parameters merge into its parent's: one the parent gives is not missing
        found = [p for p in found if not p.message.endswith("is a required property")]
    return found


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for p in problems:
        key = (str(p.location), p.path, p.message)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _comments(f: SpecFile) -> list[tuple[int, int, str]]:
    """(line, column of the text after #, text) of every comment of a file."""
    out = []
    for number, line in enumerate(f.text.splitlines(), 1):
        m = _COMMENT.search(line)
        if m:
            out.append((number, m.start(1) + 1, m.group(1)))
    return out


def _reading_refs(f: SpecFile) -> list[tuple[int, int, str]]:
    """(line, column, id) of every reading a comment of ``f`` names."""
    refs = []
    for number, col, text in _comments(f):
        for m in _READING_REF.finditer(text):
            start = m.start(1)
            for part in re.finditer(r"[a-z][a-z0-9-]*", m.group(1)):
                refs.append((number, col + start + part.start(), part.group(0)))
    return refs


def _warn(f: SpecFile, path: Path_, code: str, message: str, hint: str = "") -> Problem:
    loc, excerpt = _key_loc(f, path)
    return Problem(loc, dotted(path), message, excerpt, severity="warning", code=code, hint=hint)


def _text_warnings(files: list[SpecFile], spec: Spec, unreferenced: bool,
                   complete: bool = True) -> list[Problem]:
    """Warnings read from the files themselves: misspelt overrides and readings (not when
    a parent is missing: the readings a comment names may be stated there)."""
    out: list[Problem] = []
    child = files[0]
    readings = _dict_at(spec.data, "readings")
    if len(files) > 1:
        inherited = _merged(files, 1).data.get("combos") or {}
        mine = _dict_at(child.data, "combos")
        for name, value in mine.items():
            if value is None or name in inherited:
                continue
            close = difflib.get_close_matches(name, list(inherited), n=1, cutoff=0.8)
            if close:
                out.append(_warn(child, ("combos", name), "close-to-inherited",
                                 f"new combo {name!r} is close to the inherited combo {close[0]!r}: "
                                 f"did you mean {close[0]!r}?",
                                 f"to change the inherited combo write `{close[0]}:`; a new name adds "
                                 f"a combo beside it"))
    if not complete:
        return out
    for line, col, rid in _reading_refs(child):
        if rid not in readings:
            hint = difflib.get_close_matches(rid, list(readings), n=1)
            src = child.text.splitlines()[line - 1]
            out.append(Problem(Location(child.file, line, col), "", f"the comment names reading {rid!r}, "
                               "which is not in readings:" + (f" (did you mean {hint[0]!r}?)" if hint
                                                              else ""),
                               f"  {src}\n  {' ' * (col - 1)}^", severity="warning",
                               code="unknown-reading",
                               hint="add it to readings: or correct the comment"))
    if unreferenced:
        named = {rid for f in files for _, _, rid in _reading_refs(f)}
        mine_r = _dict_at(child.data, "readings")
        for rid, text in mine_r.items():
            if text is not None and rid not in named:
                out.append(_warn(child, ("readings", rid), "unreferenced-reading",
                                 f"no comment names the reading {rid!r}",
                                 f"add `# reading: {rid}` next to the rule it governs"))
    return out


def _table_warnings(files: list[SpecFile], spec: Spec, rules: Any) -> list[Problem]:
    """Warnings from the compiled universe: combos that share card sets, combos and
    bomb classes no deal can ever hold."""
    from ddzrules.rules.variant import Variant

    out: list[Problem] = []
    child = files[0]
    v = Variant(spec, rules)
    table = v.combos_by_play()  # builds the table when first asked; no Move is made
    if not table:
        return out
    per: dict[str, int] = {}
    pairs: dict[tuple[str, str], int] = {}
    combo_names = [info.name for info in rules.combos]
    for packed, indices in table.items():
        if len(indices) == 1:
            name = combo_names[indices[0]]
            per[name] = per.get(name, 0) + 1
            continue
        names = sorted({combo_names[i] for i in indices})
        for n in names:
            per[n] = per.get(n, 0) + 1
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                pairs.setdefault((a, b), packed)
    zh_of = {c.name: c.zh for c in spec.rule_spec.combos}

    def said_in(f: SpecFile) -> str:
        """The readings one file writes itself: a parent's reading explains the parent's
        combos, not a combo a child adds over them."""
        own = f.data.get("readings")
        return " ".join(f"{k} {t}" for k, t in own.items() if t).lower() if isinstance(own, dict) else ""

    def mentioned(name: str, said: str) -> bool:
        zh = zh_of.get(name, "")
        words = {name, name.replace("_", " "), name.replace("_", "-"), name.split("_")[0]}
        return any(re.search(rf"\b{re.escape(w)}", said) for w in words) or bool(zh and zh in said)

    def owner(name: str) -> SpecFile:
        return next((f for f in files if name in (f.data.get("combos") or {})), child)

    def introduced(name: str) -> int:
        """The file (index, this spec's 0) that first names combo ``name``, from the root down."""
        return max((i for i, f in enumerate(files) if name in (f.data.get("combos") or {})), default=0)

    for (a, b), packed in pairs.items():
        cards = C.to_strings((packed,))[0]
        # the overlap is made by the file that added the later of the two combos
        ia, ib = introduced(a), introduced(b)
        new, old = (a, b) if ia < ib else (b, a)
        if ia != ib:
            f = files[min(ia, ib)]
            if mentioned(new, said_in(f)):
                continue
            zh = zh_of.get(new)
            out.append(_warn(f, ("combos", new), "restated-combo",
                             f"combo {new!r} reads the same cards as the inherited {old!r} (e.g. {cards}): "
                             f"every such play{f' ({zh})' if zh else ''} now has two readings",
                             f"to change the inherited combo, override it by its name ({old}: …) or remove "
                             f"it ({old}: null); else say in readings: why both stand"))
            continue
        f = files[ia]
        if mentioned(a, said_in(f)) or mentioned(b, said_in(f)):
            continue
        f = owner(b)
        out.append(_warn(f, ("combos", b), "same-cards",
                         f"combos {a!r} and {b!r} both read the same cards (e.g. {cards}) and "
                         f"readings: does not say why",
                         "state the intended reading in readings: or narrow one pattern"))
    natural = {rules.combos[s.combo].name for s in rules.shapes if s.natural}
    bombs = spec.rule_spec.bombs
    for info in rules.combos:
        if info.name not in natural or per.get(info.name):
            continue
        f = owner(info.name)
        if info.name in bombs:
            out.append(_warn(f, ("combos", info.name), "bomb-never-beats",
                             f"bomb class {info.name!r} has no play in this deck and hand size, so "
                             "it never beats anything", "remove it from bombs: or fix its pattern"))
        else:
            out.append(_warn(f, ("combos", info.name), "empty-combo",
                             f"no hand of this deal can ever hold combo {info.name!r}",
                             "check its pattern against the deck and max_hand"))
    return out


def validate_spec(name: str, unreferenced_readings: bool = False) -> Report:
    """Every problem and warning of one spec (a bundled name or a path)."""
    report = Report(name)
    try:
        _validate(name, report, unreferenced_readings)
    except SpecError as e:
        report.findings.extend(_tag(e.problems, "load"))
    except RecursionError:
        report.findings.append(Problem(None, "", "the spec is nested too deeply", code="load"))
    report.findings.sort(key=lambda p: (p.severity != "error", str(p.location.file if p.location else ""),
                                        p.location.line if p.location else 0))
    return report


def _validate(name: str, report: Report, unreferenced_readings: bool) -> None:
    """Every check that can still run: a file's broken parts are left out of the checks
    that read the data (see :func:`_without`), a missing parent leaves the child's own
    keys and patterns to check, and each check whose answer would rest on a stand-in
    (the compile against a deck that is not the spec's, the deal against the plugins)
    keeps only the findings that do not."""
    files, complete = _load_chain(name, report)
    if not files:
        return
    child = files[0]
    if complete:  # with a parent missing, a removal may well be of one of its keys
        for i, f in enumerate(files[:-1]):
            parent = _merged(files, i + 1).data
            clean = {k: v for k, v in f.data.items() if k != "extends"}
            for path, keys in dangling_removals(parent, clean):
                close = difflib.get_close_matches(str(path[-1]), keys, n=1)
                loc, excerpt = _key_loc(f, path)
                report.findings.append(Problem(loc, dotted(path), f"removes {path[-1]!r}, which the parent "
                                               "does not have" + (f" (did you mean {close[0]!r}?)"
                                                                  if close else ""),
                                               excerpt, code="missing-removal"))
    spec = _merged(files)
    report.findings.extend(_text_warnings(files, spec, unreferenced_readings, complete))
    broken, lost = _broken_parts(files)
    sound = [_without(f) for f in files]
    whole = _merged(sound)
    target = _compilable(whole, broken)
    # the compile reads the deck, the deal and the combos: checked against a stand-in for
    # any of them (or without the parent) only the pattern's own findings are so
    trusted = complete and not lost & set(COMPILE_KEYS + ("combos",))
    rules, refused = _compile(target)
    problems = refused
    if not trusted:
        problems = [p for p in problems if _pattern_only(p, complete, lost)]
    elif problems and len(files) > 1:
        parent_spec = _merged(sound, 1)
        _, parent_problems = _compile(_compilable(parent_spec, broken))
        own = {(str(p.location), p.message) for p in parent_problems}
        fixed = []
        for p in problems:
            at_parent = p.location is not None and p.location.file != child.file
            fixed.append(_blame_child(p, child, whole) if at_parent and (str(p.location), p.message)
                         not in own else p)
        problems = fixed
    report.findings.extend(_tag(problems, "compile"))
    if rules is None:
        # without the combos the compile refused (and the bomb classes naming them) the
        # rest compiles, for the plugins to be checked against
        dropped = set(broken)
        for p in refused:
            parts = p.path.split(".")
            if len(parts) >= 2 and parts[0] == "combos":
                dropped.add(parts[1])
        target = _compilable(whole, dropped, unknown_bombs=True)
        rules, _ = _compile(target)
    game = target.data.get("game")
    if isinstance(game, dict) and game:
        found: list[Problem] = []
        if rules is not None and complete and not lost & set(RUNTIME_KEYS):
            found.extend(_plugins(target, rules))  # the deal and the table against the plugins too
        found.extend(_plugin_entries(target, complete))
        report.findings.extend(_unique(found))
    if rules is not None and not report.errors:
        report.combos = len(rules.combos)
        report.findings.extend(_table_warnings(files, spec, rules))
