"""The README's Layout table is the map of the tree: every module and subpackage directly
in ``ddzrules/`` is on it (under its own name), and every path it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ddzrules"


def layout_table() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("|"))


def named(table: str) -> set[str]:
    """Every name the table writes as code: `cards`, `runtime/`, `ddzrules/specs/` ..."""
    return {token for span in re.findall(r"`([^`]+)`", table) for token in re.split(r"[\s,+]+", span) if token}


def test_every_module_and_subpackage_is_on_the_map() -> None:
    names = named(layout_table())
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    missing = sorted(m for m in modules if m not in names) + sorted(
        f"{p}/" for p in packages if f"{p}/" not in names and f"ddzrules/{p}/" not in names)
    assert not missing, f"the README's Layout table does not name {missing}"


def test_every_path_on_the_map_exists() -> None:
    for name in named(layout_table()):
        if name.endswith("/") or Path(name).suffix in (".py", ".c", ".lark", ".json", ".md"):  # a path, not a spec
            assert (ROOT / name).exists() or (PACKAGE / name).exists() or (ROOT / "docs" / name).exists(), \
                f"the README's Layout names {name}, which is not in the tree"
