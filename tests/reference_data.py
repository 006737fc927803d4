"""The reference tables of RLCard 1.2.0 and DouZero 1.1.0 under tests/reference/ (their
README says how they were made), read for the compat tests and the CLI's."""

from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from types import ModuleType

from conftest import REFERENCE


def _rows(name: str) -> list[list[str]]:
    out = []
    for line in (REFERENCE / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            out.append(line.split("\t"))
    return out


@lru_cache(maxsize=1)
def rlcard_actions() -> dict[str, str]:
    """canonical cards -> RLCard card type (without the chain-length suffix)."""
    out = {}
    for row in _rows("rlcard_actions.txt"):
        _id, _rl, cards, kind = row[:4]
        if kind == "pass":
            continue
        assert cards not in out, f"duplicate RLCard action {cards}"
        out[cards] = re.sub(r"_\d+$", "", kind)
    return out


@lru_cache(maxsize=1)
def douzero_universe() -> dict[str, set[str]]:
    """canonical cards -> the DouZero generator families that produce it."""
    out: dict[str, set[str]] = {}
    for family, _detector, cards in _rows("douzero_universe.txt"):
        assert cards not in out, f"duplicate DouZero play {cards}"
        out[cards] = set(family.split("/"))
    return out


# reference family -> combo of the profile
RLCARD_TYPES = {
    "solo": "single", "pair": "pair", "trio": "trio", "bomb": "bomb", "rocket": "rocket",
    "trio_solo": "trio_single", "trio_pair": "trio_pair", "solo_chain": "straight",
    "pair_chain": "pair_chain", "trio_chain": "plane", "trio_solo_chain": "plane_solos",
    "trio_pair_chain": "plane_pairs", "four_two_solo": "four_two", "four_two_pair": "four_two_pairs",
}
DOUZERO_FAMILIES = {
    "single": "single", "pair": "pair", "trio": "trio", "bomb": "bomb", "rocket": "rocket",
    "trio+1": "trio_single", "trio+pair": "trio_pair", "straight": "straight",
    "pair-chain": "pair_chain", "plane": "plane", "plane+solos": "plane_solos",
    "plane+pairs": "plane_pairs", "four+2": "four_two", "four+2pairs": "four_two_pairs",
}
# the per-family table of tests/reference/README.md
README_FAMILIES = {
    "single": "single", "pair": "pair", "trio": "trio", "bomb": "bomb", "rocket": "rocket",
    "trio + single": "trio_single", "trio + pair": "trio_pair", "straight (5–12)": "straight",
    "pair chain": "pair_chain", "plane (trio chain)": "plane",
    "plane + single wings": "plane_solos", "plane + pair wings": "plane_pairs",
    "four + two singles": "four_two", "four + two pairs": "four_two_pairs",
}


def readme_table() -> tuple[dict[str, int], dict[str, int], tuple[int, int]]:
    rl: dict[str, int] = {}
    dz: dict[str, int] = {}
    total = (0, 0)
    text = (REFERENCE / "README.md").read_text(encoding="utf-8")
    section = text.split("## Per-family counts", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[1].replace(",", "").replace("*", "").isdigit():
            continue
        family, a, b = cells
        a_n, b_n = int(a.replace(",", "").strip("*")), int(b.replace(",", "").strip("*"))
        if "total" in family:
            total = (a_n, b_n)
        else:
            rl[README_FAMILIES[family]] = a_n
            dz[README_FAMILIES[family]] = b_n
    assert len(rl) == len(README_FAMILIES)
    return rl, dz, total


def reference_script(name: str) -> ModuleType:
    """The script ``tests/reference/NAME.py`` that makes a digests file, loaded as a module,
    so that a test recomputes the digests exactly as the script records them."""
    spec = importlib.util.spec_from_file_location(name, REFERENCE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
