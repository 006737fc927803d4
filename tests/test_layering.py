"""The layering contract of docs/layers.md, checked on the source (parsed, never imported).

Every module of ``ddzrules/`` and ``ddzrules_plugins/`` is read with :mod:`ast`; its imports
of the package's modules (``import``, ``from … import``, ``importlib.import_module`` of a
literal name; inside functions too, since they run) are checked against the rules:

(a) a module imports its own layer or a layer below, never above; among the uses only the
    listed edges. The layers and the edges are the tables of docs/layers.md (read from
    there: the page people read is the contract, and it cannot drift from the check);
(b) no import cycle between modules, counting the imports that run; (b') nor one closed by
    an import under ``if TYPE_CHECKING:`` (those may cross the layers, but not form cycles);
(c) no private name imported from another module;
(d) at most the listed private attributes read off other modules' objects (≤ 10);
(e) at most 20 modules directly in ``ddzrules/``.

Each failure names the file, the line, the import (or attribute) and the rule, so that the
developer who broke it knows what to fix.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS_PAGE = ROOT / "docs" / "layers.md"
#: the top-level packages checked (ddzrules_plugins: the old import path of the plugins)
PACKAGES = ("ddzrules", "ddzrules_plugins")
MAX_DIRECT_MODULES = 20
MAX_PRIVATE_READS = 10

#: private attributes a module may read off another module's objects, by (file, attribute),
#: each with the reason no public seam is wanted. At most MAX_PRIVATE_READS; an entry that
#: matches nothing any more fails the test, so the list only ever shrinks.
PRIVATE_READS_ALLOWED: dict[tuple[str, str], str] = {}

#: the public API of namedtuples, underscored only so as not to clash with field names
NAMEDTUPLE_API = frozenset({"_replace", "_asdict", "_fields", "_field_defaults", "_make"})


def is_private(name: str) -> bool:
    """``_x`` and ``__x`` are private; ``__x__`` is Python's, not private."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


# ====================================================================== the modules


@dataclass(frozen=True)
class Module:
    name: str  # dotted: ddzrules.simulate.stats
    path: Path
    is_package: bool

    @property
    def file(self) -> str:
        return self.path.relative_to(ROOT).as_posix()


@cache
def modules() -> dict[str, Module]:
    """Every module of the checked packages, by dotted name: ``.py`` files, and ``.pyi``
    stubs of extension modules with no ``.py`` (``_quick``), which can be imported too."""
    found: dict[str, Module] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py*")):
            if path.suffix not in (".py", ".pyi") or "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            name = ".".join(parts)
            if path.suffix == ".py" or name not in found:
                found[name] = Module(name, path, is_package)
    return found


def layer_key(name: str) -> str:
    """A module's top-level name under ddzrules/, which gives its layer: ``simulate`` for
    ddzrules.simulate.stats, ``ddzrules`` for the package's own ``__init__``,
    ``ddzrules_plugins`` for that package whole."""
    parts = name.split(".")
    if parts[0] == "ddzrules" and len(parts) > 1:
        return parts[1]
    return parts[0]


def within_package(name: str) -> str:
    """A module's name under ddzrules/ (``conformance.run``), as the edges table writes it."""
    return name.removeprefix("ddzrules.")


# ====================================================================== the contract's data


@dataclass(frozen=True)
class Contract:
    layers: tuple[tuple[str, tuple[str, ...]], ...]  # (layer, its names), bottom first
    uses_edges: dict[str, tuple[str, ...]]  # importer -> what it may import among the uses


def table_rows(section: str) -> list[list[str]]:
    """The cells of the table in the ``## section`` of docs/layers.md (header and rule dropped)."""
    text = LAYERS_PAGE.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(section)}\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"{LAYERS_PAGE.relative_to(ROOT)}: no section '## {section}' (the layering test reads its table)"
    rows = [line for line in match.group(1).splitlines() if line.startswith("|")]
    assert len(rows) > 2, f"{LAYERS_PAGE.relative_to(ROOT)}: the section '## {section}' has no table"
    return [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows[2:]]


def names_in(cell: str) -> tuple[str, ...]:
    return tuple(re.findall(r"`([^`]+)`", cell))


@cache
def contract() -> Contract:
    layers = tuple((row[0], names_in(row[1])) for row in table_rows("The layers"))
    edges = {names_in(row[0])[0]: names_in(row[1]) for row in table_rows("Edges among the uses")}
    return Contract(layers, edges)


def rank_of() -> dict[str, tuple[int, str]]:
    """Top-level name -> (its layer's rank from the bottom, the layer's name)."""
    return {name: (rank, layer) for rank, (layer, names) in enumerate(contract().layers) for name in names}


# ====================================================================== the imports


@dataclass(frozen=True)
class Import:
    importer: Module
    target: str  # the module imported (a checked module's dotted name, or an outside one)
    names: tuple[str, ...]  # the names a ``from`` import takes (empty for ``import x``)
    line: int
    text: str  # the statement, as written (unparsed)
    typing_only: bool  # under ``if TYPE_CHECKING:``

    @property
    def where(self) -> str:
        return f"{self.importer.file}:{self.line}"

    def describe(self) -> str:
        return f"{self.where}: `{self.text}`" + (" (under TYPE_CHECKING)" if self.typing_only else "")


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def known(name: str) -> str:
    """The longest prefix of ``name`` that is a checked module (``ddzrules.rules.variant`` for
    ``ddzrules.rules.variant.Variant``), or ``name`` itself when none is."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules():
            return ".".join(parts[:end])
    return name


def absolute(module: Module, node: ast.ImportFrom) -> str:
    """The module a ``from`` import names, relative imports resolved."""
    if node.level == 0:
        return node.module or ""
    base = module.name.split(".")
    if not module.is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: Module) -> Iterator[Import]:
    """Every import ``module`` makes, one per module imported."""
    if module.path.suffix != ".py":
        return
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))

    def walk(node: ast.AST, typing_only: bool) -> Iterator[Import]:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.body:
                yield from walk(child, True)
            for child in node.orelse:
                yield from walk(child, typing_only)
            return
        def text() -> str:
            return " ".join(ast.unparse(node).split())

        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, known(alias.name), (), node.lineno, text(), typing_only)
        elif isinstance(node, ast.ImportFrom):
            source = absolute(module, node)
            plain: list[str] = []
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in modules():  # from ddzrules import cards: the module cards
                    yield Import(module, submodule, (), node.lineno, text(), typing_only)
                else:
                    plain.append(alias.name)
            if plain:
                yield Import(module, known(source), tuple(plain), node.lineno, text(), typing_only)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and (
                    (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                    or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__"))):
            yield Import(module, known(node.args[0].value), (), node.lineno, text()[:120], typing_only)
        for child in ast.iter_child_nodes(node):
            yield from walk(child, typing_only)

    yield from walk(tree, False)


@cache
def all_imports() -> tuple[Import, ...]:
    return tuple(i for m in modules().values() for i in imports_of(m))


def internal_imports() -> list[Import]:
    """The imports of checked modules by checked modules (a module importing itself left out)."""
    return [i for i in all_imports() if i.target in modules() and i.target != i.importer.name]


# ====================================================================== (a) layers


def uses_edge_allowed(importer: str, target: str) -> bool:
    def matches(name: str, entry: str) -> bool:
        return name == entry or name.startswith(entry + ".")

    return any(matches(within_package(importer), entry) and any(matches(within_package(target), t) for t in allowed)
               for entry, allowed in contract().uses_edges.items())


def layer_violations() -> list[str]:
    ranks = rank_of()
    problems = []
    for key in sorted({layer_key(name) for name in modules()} - set(ranks)):
        files = sorted(m.file for m in modules().values() if layer_key(m.name) == key)
        problems.append(f"{files[0]}: the module `{key}` has no layer: add it to a row of the table "
                        f"'The layers' in docs/layers.md (rule a)")
    for imp in internal_imports():
        if imp.typing_only:
            continue  # annotations may cross the layers (but not close a cycle: rule b')
        source, target = layer_key(imp.importer.name), layer_key(imp.target)
        if source == target or source not in ranks or target not in ranks:
            continue
        (source_rank, source_layer), (target_rank, target_layer) = ranks[source], ranks[target]
        if target_rank > source_rank:
            problems.append(f"{imp.describe()}: `{source}` ({source_layer}) imports `{target}` ({target_layer}), "
                            f"a layer above its own (rule a: a module imports its own layer or below)")
        elif target_rank == source_rank and source_layer == "uses" \
                and not uses_edge_allowed(imp.importer.name, imp.target):
            problems.append(f"{imp.describe()}: `{within_package(imp.importer.name)}` imports "
                            f"`{within_package(imp.target)}`, an edge among the uses that docs/layers.md "
                            f"'Edges among the uses' does not list (rule a)")
    return problems


def test_the_contract_names_modules_that_exist() -> None:
    """Every name in docs/layers.md's tables is a module of the tree, named once, and the
    edges are between uses: a stale or mistyped row would otherwise allow nothing."""
    keys = {layer_key(name) for name in modules()}
    listed = [name for _, names in contract().layers for name in names]
    problems = [f"docs/layers.md names `{name}` in 'The layers', which is no module of the tree"
                for name in listed if name not in keys]
    problems += [f"docs/layers.md names `{name}` twice in 'The layers'" for name in sorted(set(listed))
                 if listed.count(name) > 1]
    ranks = rank_of()
    for entry, allowed in contract().uses_edges.items():
        for name in (entry, *allowed):
            if f"ddzrules.{name}" not in modules():
                problems.append(f"docs/layers.md 'Edges among the uses' names `{name}`, which is no module")
            elif ranks.get(layer_key(f"ddzrules.{name}"), (0, ""))[1] != "uses":
                problems.append(f"docs/layers.md 'Edges among the uses' names `{name}`, which is not a use")
    assert [layer for layer, _ in contract().layers] == ["bottom", "core", "game", "uses", "top"]
    assert not problems, "\n".join(problems)


def test_imports_follow_the_layers() -> None:
    problems = layer_violations()
    assert not problems, f"{len(problems)} imports against the layers:\n" + "\n".join(problems)


# ====================================================================== (b) cycles


def cycles(imports: Iterable[Import]) -> list[list[Import]]:
    """One cycle (as its imports, in order) for each strongly connected group of modules
    (Tarjan's algorithm), the shortest through the group's first module."""
    graph: dict[str, dict[str, Import]] = {}
    for imp in imports:
        graph.setdefault(imp.importer.name, {}).setdefault(imp.target, imp)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:  # recursive: the graph is a few dozen modules deep at most
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in graph.get(node, {}):
            if succ not in index:
                connect(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    found = []
    for group in sorted(groups):
        members, start = set(group), group[0]
        came: dict[str, Import] = {}
        frontier, seen = [start], {start}
        while frontier and start not in came:  # breadth first: the shortest way back to start
            nxt = []
            for node in frontier:
                for succ, imp in sorted(graph.get(node, {}).items()):
                    if succ in members and (succ == start or succ not in seen) and succ not in came:
                        came[succ] = imp
                        seen.add(succ)
                        nxt.append(succ)
            frontier = nxt
        path, node = [], start
        while True:
            path.append(came[node])
            node = path[-1].importer.name
            if node == start:
                break
        found.append(path[::-1])
    return found


def describe_cycle(cycle: list[Import]) -> str:
    names = " → ".join([within_package(cycle[0].importer.name)] + [within_package(i.target) for i in cycle])
    return f"cycle {names}:\n" + "\n".join(f"    {imp.describe()}" for imp in cycle)


def test_no_import_cycles() -> None:
    """Rule b: the imports that run (module level and inside functions) form no cycle."""
    found = cycles(i for i in internal_imports() if not i.typing_only)
    assert not found, f"{len(found)} import cycles (rule b: break each at one of its imports):\n" + \
        "\n".join(describe_cycle(c) for c in found)


def test_no_cycles_through_type_checking_imports() -> None:
    """Rule b': imports under TYPE_CHECKING may cross the layers but close no cycle (the
    runtime imports' cycles are rule b's: only those a typing import closes are reported)."""
    runtime = {frozenset(imp.importer.name for imp in c) for c in cycles(i for i in internal_imports()
                                                                        if not i.typing_only)}
    found = [c for c in cycles(internal_imports()) if any(i.typing_only for i in c)
             and frozenset(i.importer.name for i in c) not in runtime]
    assert not found, f"{len(found)} cycles closed by imports under TYPE_CHECKING (rule b': put the types both " \
        "modules need in a module of their own):\n" + "\n".join(describe_cycle(c) for c in found)


# ====================================================================== (c) private names


def test_no_private_names_imported() -> None:
    """Rule c: ``from x import _y`` takes another module's internals (typing imports too: an
    annotation naming a private class ties the two modules as hard)."""
    problems = [f"{imp.describe()}: imports the private name{'s' if len(private) > 1 else ''} "
                f"{', '.join(private)} of `{imp.target}` (rule c: make it public, or move the code that needs it)"
                for imp in all_imports() if (private := [n for n in imp.names if is_private(n)])]
    assert not problems, f"{len(problems)} imports of private names:\n" + "\n".join(problems)


# ====================================================================== (d) private attributes


@dataclass(frozen=True)
class PrivateRead:
    module: Module
    attribute: str
    line: int
    expression: str


def defined_here(tree: ast.Module) -> set[str]:
    """The private attributes a module defines: assigned on ``self``/``cls`` (``setattr`` and
    ``object.__setattr__`` of a literal name too), class attributes and methods, slots."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            names.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(stmt.name)
                targets = stmt.targets if isinstance(stmt, ast.Assign) else \
                    [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
                for target in targets:
                    if isinstance(target, ast.Name):
                        names.add(target.id)
                        if target.id == "__slots__":
                            names.update(c.value for c in ast.walk(stmt) if isinstance(c, ast.Constant)
                                         and isinstance(c.value, str))
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str) and (
                    (isinstance(node.func, ast.Name) and node.func.id == "setattr")
                    or (isinstance(node.func, ast.Attribute) and node.func.attr == "__setattr__")):
            names.add(node.args[1].value)
    return names


def private_reads_in(module: Module) -> list[PrivateRead]:
    """Every ``expr._name`` in ``module`` where ``expr`` is not ``self``/``cls`` and ``_name``
    is not defined in the same module (see :func:`defined_here`)."""
    if module.path.suffix != ".py":
        return []
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
    own = defined_here(tree)
    return [PrivateRead(module, node.attr, node.lineno, ast.unparse(node)) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and is_private(node.attr) and node.attr not in own
            and node.attr not in NAMEDTUPLE_API
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]


@cache
def private_reads() -> tuple[PrivateRead, ...]:
    found = [read for module in modules().values() for read in private_reads_in(module)]
    return tuple(sorted(found, key=lambda r: (r.module.file, r.line, r.attribute)))


def test_few_private_attributes_read_off_other_modules() -> None:
    """Rule d: reading another module's ``_name`` off its objects wants a public seam; the
    reads allowed are PRIVATE_READS_ALLOWED (by file and attribute), each with its reason."""
    assert len(PRIVATE_READS_ALLOWED) <= MAX_PRIVATE_READS, \
        f"PRIVATE_READS_ALLOWED has {len(PRIVATE_READS_ALLOWED)} entries; at most {MAX_PRIVATE_READS}"
    assert all(reason.strip() for reason in PRIVATE_READS_ALLOWED.values()), "every allowed read gives its reason"
    by_pair: dict[tuple[str, str], list[PrivateRead]] = {}
    for read in private_reads():
        by_pair.setdefault((read.module.file, read.attribute), []).append(read)
    problems = [
        f"{file}: reads the private attribute `{attribute}`, which it does not define, off another module's "
        f"objects (rule d: ask that module for a public name): "
        + ", ".join(f"line {r.line} `{r.expression}`" for r in reads)
        for (file, attribute), reads in sorted(by_pair.items()) if (file, attribute) not in PRIVATE_READS_ALLOWED]
    problems += [f"PRIVATE_READS_ALLOWED: {file} no longer reads `{attribute}`: remove the entry"
                 for file, attribute in sorted(set(PRIVATE_READS_ALLOWED) - set(by_pair))]
    assert not problems, f"{len(problems)} private attribute reads not allowed:\n" + "\n".join(problems)


# ====================================================================== (e) a flat core


def test_at_most_20_modules_directly_in_the_package() -> None:
    """Rule e: ``.py`` files directly in ddzrules/ besides ``__init__.py`` (subpackages count none)."""
    direct = sorted(p.name for p in (ROOT / "ddzrules").glob("*.py") if p.name != "__init__.py")
    assert len(direct) <= MAX_DIRECT_MODULES, (
        f"{len(direct)} modules directly in ddzrules/, at most {MAX_DIRECT_MODULES} (rule e: give a family of "
        f"modules a subpackage): {', '.join(direct)}")


# ====================================================================== (f) the errors in one place


def public_exceptions_outside_errors() -> list[str]:
    """The public exception (and warning) classes a module other than errors.py defines:
    a class whose bases name an Error, Exception, Warning or a class errors.py defines."""
    home = {name for name, value in vars(importlib.import_module("ddzrules.errors")).items()
            if isinstance(value, type) and issubclass(value, BaseException)}
    found = []
    for module in modules().values():
        if module.name == "ddzrules.errors" or module.path.suffix != ".py":
            continue
        for node in ast.parse(module.path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.ClassDef) or node.name.startswith("_"):
                continue
            bases = [ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases]
            if any(b.endswith(("Error", "Exception", "Warning")) or b in home for b in bases):
                found.append(f"{module.file}:{node.lineno}: {node.name}")
    return found


def test_every_public_exception_is_defined_in_errors() -> None:
    """The errors users catch live in ddzrules/errors.py (their modules re-export them);
    private ones, raised and caught inside one module, stay there."""
    found = public_exceptions_outside_errors()
    assert not found, "exceptions to move to ddzrules/errors.py:\n" + "\n".join(found)


# ====================================================================== the checker itself


def test_the_checker_sees_what_it_must() -> None:
    """The parsing the rules rely on, on the tree itself: a checker that saw no imports
    would pass everything."""
    assert "ddzrules.cards" in modules() and "ddzrules.speed._quick" in modules() and "ddzrules_plugins" in modules()
    targets = {(i.importer.name, i.target) for i in internal_imports()}
    assert ("ddzrules", "ddzrules.rules.variant") in targets  # the package's __init__ re-exports
    assert ("ddzrules.cards", "ddzrules.errors") in targets
    assert ("ddzrules_plugins", "ddzrules.plugins") in targets
    assert any(i.typing_only for i in internal_imports())  # variant's, patterns' … annotations
    assert any(i.target == "importlib" for i in all_imports())  # outside modules are seen, not checked
    assert layer_key("ddzrules.runtime.game") == layer_key("ddzrules.runtime") == "runtime"  # a split module
    assert rank_of()["errors"][0] < rank_of()["cards"][0] < rank_of()["runtime"][0] \
        < rank_of()["simulate"][0] < rank_of()["cli"][0]
    assert uses_edge_allowed("ddzrules.engines.native", "ddzrules.conformance")
    assert uses_edge_allowed("ddzrules.conformance.run", "ddzrules.engines")
    assert not uses_edge_allowed("ddzrules.conformance", "ddzrules.engines")
    assert not uses_edge_allowed("ddzrules.simulate", "ddzrules.diff")


def test_the_rules_catch_made_up_breaches(tmp_path: Path) -> None:
    """Each rule's detector on a small source of its own breach."""
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "import importlib\n"
        "from ddzrules.rules.variant import _Rows, Variant\n"
        "if TYPE_CHECKING:\n"
        "    from ddzrules.runtime import Game\n"
        "else:\n"
        "    import ddzrules.cli\n"
        "class Own:\n"
        "    _kept = 1\n"
        "    def __init__(self) -> None:\n"
        "        self._mine = 2\n"
        "    def _helper(self) -> None:\n"
        "        other = Own()\n"
        "        other._mine, other._kept, other._helper()\n"
        "        v = Variant()\n"
        "        v._table, self._own, v._replace\n"
        "def f() -> None:\n"
        "    importlib.import_module('ddzrules.diff')\n"
        "    from . import cards\n"
        "    from .rules.moves import Move\n", encoding="utf-8")
    probe = Module("ddzrules.probe", source, False)
    found = {(i.target, i.names, i.typing_only) for i in imports_of(probe)}
    assert found >= {("ddzrules.rules.variant", ("_Rows", "Variant"), False), ("ddzrules.runtime", ("Game",), True),
                     ("ddzrules.cli", (), False), ("ddzrules.diff", (), False), ("ddzrules.cards", (), False),
                     ("ddzrules.rules.moves", ("Move",), False)}
    own = defined_here(ast.parse(source.read_text(encoding="utf-8")))
    assert {"_kept", "_mine", "_helper"} <= own and "_table" not in own
    # other._mine/_kept/_helper: defined here; self._own: off self; _replace: a namedtuple's
    assert [(r.attribute, r.line, r.expression) for r in private_reads_in(probe)] == [("_table", 16, "v._table")]
    a, b, c = (Module(f"ddzrules.{n}", source, False) for n in "abc")
    loop = [Import(a, b.name, (), 1, "", False), Import(b, c.name, (), 2, "", False),
            Import(c, a.name, (), 3, "", True), Import(a, c.name, (), 4, "", False)]
    assert [[i.importer.name for i in cyc] for cyc in cycles(loop)] == [["ddzrules.a", "ddzrules.c"]]
    assert cycles(loop[:2] + loop[3:]) == []
