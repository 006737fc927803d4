"""Cache keys name their sources by identity, not location: ``cache.code_hash`` hashes the
bytes of modules (objects or dotted names) and package resources ``(package, name)``, so
the same sources give the same key in whatever directory or subpackage they sit, and a
changed byte gives another key. The old form (file names next to ``cache.py``) gives the
same keys as the new one, so callers moving to it keep their entries."""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import shutil
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import ddzrules
import ddzrules.cards
import ddzrules.rules.compiler
import ddzrules.rules.wild
import ddzrules.spec.patterns
from ddzrules.speed import cache

PACKAGE = Path(ddzrules.__file__).parent
PROBE = "ddzkeyprobe"  # a package made in temporary directories by these tests
RULES = "def rule() -> int:\n    return 1\n"
GRAMMAR = "start: WORD\n%import common.WORD\n"


@pytest.fixture(autouse=True)
def fresh_memos() -> Iterator[None]:
    """Sources are read once a process: each test starts and ends with nothing read."""
    cache.code_hash.cache_clear()
    cache._source_digest.cache_clear()
    yield
    cache.code_hash.cache_clear()
    cache._source_digest.cache_clear()
    for name in [m for m in sys.modules if m == PROBE or m.startswith(PROBE + ".")]:
        del sys.modules[name]


def write_probe(root: Path, subpackage: str | None, rules: str = RULES, grammar: str = GRAMMAR) -> str:
    """The probe package under ``root``: ``rules.py`` and ``grammar.lark`` directly in it,
    or in its ``subpackage``; returns the dotted name of the package holding them."""
    top = root / PROBE
    top.mkdir(parents=True)
    (top / "__init__.py").write_text("")
    home = top if subpackage is None else top / subpackage
    if subpackage is not None:
        home.mkdir()
        (home / "__init__.py").write_text("")
    (home / "rules.py").write_text(rules)
    (home / "grammar.lark").write_text(grammar)
    return PROBE if subpackage is None else f"{PROBE}.{subpackage}"


def probe_keys(root: Path, package: str) -> tuple[str, str]:
    """The keys of the probe under ``root`` (imported afresh from there): one with the module
    object, one with its dotted name; the grammar as a package resource in both."""
    for name in [m for m in sys.modules if m == PROBE or m.startswith(PROBE + ".")]:
        del sys.modules[name]
    cache.code_hash.cache_clear()
    cache._source_digest.cache_clear()
    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module(f"{package}.rules")
        assert Path(module.__file__).is_relative_to(root)  # the copy under root, no other
        by_object = cache.code_hash(7, module, (package, "grammar.lark"))
        cache.code_hash.cache_clear()
        cache._source_digest.cache_clear()
        by_name = cache.code_hash(7, f"{package}.rules", (importlib.import_module(package), "grammar.lark"))
    finally:
        sys.path.remove(str(root))
    return by_object, by_name


def expected_key(version: object, *contents: bytes) -> str:
    """The key by its definition: the version, then each source's SHA-256 (contents only)."""
    h = hashlib.sha256(str(version).encode())
    for data in contents:
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()[:16]


def test_the_same_sources_give_the_same_key_in_any_directory(tmp_path: Path) -> None:
    flat_here = probe_keys(tmp_path / "a", write_probe(tmp_path / "a", None))
    flat_there = probe_keys(tmp_path / "b" / "deeper", write_probe(tmp_path / "b" / "deeper", None))
    moved = probe_keys(tmp_path / "c", write_probe(tmp_path / "c", "core"))  # into a subpackage
    want = expected_key(7, RULES.encode(), GRAMMAR.encode())
    assert flat_here == flat_there == moved == (want, want)


@pytest.mark.parametrize("changed", ["rules", "grammar"])
def test_a_changed_source_changes_the_key(tmp_path: Path, changed: str) -> None:
    before = probe_keys(tmp_path / "a", write_probe(tmp_path / "a", None))
    edited = {"rules": RULES + "# one more line\n"} if changed == "rules" else {"grammar": GRAMMAR + "\n"}
    after = probe_keys(tmp_path / "b", write_probe(tmp_path / "b", None, **edited))
    assert before[0] == before[1] and after[0] == after[1]
    assert before != after


def test_copies_of_the_package_sources_hash_as_the_package_does(tmp_path: Path) -> None:
    """wild.py copied into two directories (loaded, not run): the same key as the package's."""
    ours = cache.code_hash("v", ddzrules.rules.wild)
    for where in ("one", "two/levels"):
        copy = tmp_path / where / "wild.py"
        copy.parent.mkdir(parents=True)
        shutil.copyfile(PACKAGE / "rules" / "wild.py", copy)
        spec = importlib.util.spec_from_file_location(f"copy_{where.replace('/', '_')}.wild", copy)
        assert spec is not None
        assert cache.code_hash("v", importlib.util.module_from_spec(spec)) == ours
    assert ours == expected_key("v", (PACKAGE / "rules" / "wild.py").read_bytes())


def test_the_old_form_gives_the_new_forms_keys() -> None:
    """A caller moving from file names to modules and resources keeps its cache entries."""
    old = cache.code_hash(3, "rules/wild.py", "rules/compiler.py", "cards.py", "spec/patterns.py", "spec/pattern.lark")
    new = cache.code_hash(3, ddzrules.rules.wild, ddzrules.rules.compiler, ddzrules.cards, ddzrules.spec.patterns,
                          ("ddzrules.spec", "pattern.lark"))
    named = cache.code_hash(3, "ddzrules.rules.wild", "ddzrules.rules.compiler", "ddzrules.cards",
                            "ddzrules.spec.patterns",
                            (ddzrules.spec, "pattern.lark"))
    assert old == new == named
    assert cache.code_hash(1, "spec/spec.schema.json") == cache.code_hash(1, ("ddzrules.spec", "spec.schema.json"))
    assert cache.code_hash(3, ddzrules.rules.wild) != cache.code_hash(4, ddzrules.rules.wild)  # the version counts


def extension_module(directory: Path, with_source: bool) -> types.ModuleType:
    """A module as the compiled build has it (an extension file as its origin), not loaded:
    only its spec is read, as the cache reads it."""
    so = directory / f"runtime{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    so.write_bytes(b"\x7fELF compiled bytes")
    if with_source:
        (directory / "runtime.py").write_text("SOURCE = 1\n")
    spec = importlib.util.spec_from_file_location("compiled_probe.runtime", so)
    assert spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
    module = types.ModuleType(spec.name)
    module.__spec__ = spec
    return module


def test_a_compiled_module_is_hashed_by_its_source_beside_it(tmp_path: Path) -> None:
    assert cache.code_hash(1, extension_module(tmp_path, with_source=True)) == expected_key(1, b"SOURCE = 1\n")


def test_a_compiled_module_without_its_source_is_hashed_by_the_extension(tmp_path: Path) -> None:
    assert cache.code_hash(1, extension_module(tmp_path, with_source=False)) == \
        expected_key(1, b"\x7fELF compiled bytes")


def test_a_module_whose_origin_is_wrong_is_found_on_its_package_path(tmp_path: Path) -> None:
    """mypyc's compiled modules, imported by each other, record an origin with the package
    directory twice (seen: ``ddzrules/ddzrules/wild.*.so``): the module is hashed by the
    file its package holds, not refused as having none."""
    package = write_probe(tmp_path, None)
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.import_module(package)
        so = f"rules{importlib.machinery.EXTENSION_SUFFIXES[0]}"
        spec = importlib.util.spec_from_file_location(f"{package}.rules", tmp_path / PROBE / PROBE / so)
        assert spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
        module = types.ModuleType(spec.name)
        module.__spec__ = spec
        assert cache.code_hash(5, module) == expected_key(5, RULES.encode())
        stray = types.ModuleType("no_package_here.rules")
        stray.__spec__ = importlib.util.spec_from_file_location(stray.__name__, tmp_path / "nowhere" / so)
        with pytest.raises(ValueError, match="no file to hash"):
            cache.code_hash(5, stray)  # no package to search: still refused
    finally:
        sys.path.remove(str(tmp_path))


def test_sources_are_read_once_a_process(tmp_path: Path) -> None:
    """An edit after the first read does not change this process's keys (one read each)."""
    package = write_probe(tmp_path, None)
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module(f"{package}.rules")
        first = cache.code_hash(1, module)
        (tmp_path / PROBE / "rules.py").write_text(RULES + "# edited\n")
        assert cache.code_hash(2, module) == expected_key(2, RULES.encode())  # not re-read
        cache._source_digest.cache_clear()
        assert cache.code_hash(3, module) == expected_key(3, (RULES + "# edited\n").encode())
    finally:
        sys.path.remove(str(tmp_path))
    assert first == expected_key(1, RULES.encode())


def test_what_cannot_be_hashed_is_refused() -> None:
    with pytest.raises(ValueError, match="no file to hash"):
        cache.code_hash(1, sys)  # built in
    with pytest.raises(TypeError, match="not a module"):
        cache.code_hash(1, 42)  # type: ignore[arg-type]
    with pytest.raises(ModuleNotFoundError):
        cache.code_hash(1, "ddzrules.no_such_module")
    with pytest.raises(FileNotFoundError):
        cache.code_hash(1, ("ddzrules", "no-such-resource.lark"))


def test_the_package_names_its_sources_by_identity() -> None:
    """Every code_hash call in ddzrules names modules and resources, never a file name (the
    old form, which breaks when a file moves)."""
    import ast

    package = Path(ddzrules.__file__).parent
    by_file = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "code_hash":
                by_file += [f"{path.relative_to(package)}:{arg.lineno}: {arg.value!r}" for arg in node.args[1:]
                            if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                            and arg.value.endswith((".py", ".lark", ".json"))]
    assert not by_file, "sources named by file name:\n" + "\n".join(by_file)
