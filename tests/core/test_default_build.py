"""The default install builds the C kernels (``ddzrules/speed/_quick.c``) where a C compiler
exists and falls back to pure Python elsewhere (setup.py, docs/compiled.md). The two must
never answer differently: here each kernel's caller runs both ways on the same seeded
hands, natural and wild, in one process (the kernels switched off by setting the names
the callers read them by to ``None``, as a build without them has). The whole suite also
runs on the pure fallback in CI (``DDZRULES_PURE=1`` and an install with the compiler
hidden)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

import ddzrules
from ddzrules import cards as C
from ddzrules.cli import main
from ddzrules.rules import lister, variant, wild_table
from ddzrules.rules.compiler import compile_spec
from ddzrules.rules.variant import Variant
from ddzrules.spec import load_spec

#: what a build without the kernels has in place of each (the modules' own fallbacks)
KERNEL_NAMES = ((lister, "_run_steps"), (variant, "_hand_counts"), (variant, "_legal_tuple"),
                (wild_table, "_append_set_bits"))


def _plays(v: Variant, hands: list[str], wild: str | None) -> list[list[tuple[str, str, int, int]]]:
    """Every lead of each hand, and the answers to one lead of another hand."""
    out = []
    rng = random.Random(f"answers:{v.name}:{wild}")
    for hand in hands:
        kw = {"wild": wild} if wild else {}
        leads = v.legal_moves(hand, **kw)
        out.append([(m.cards, m.combo, m.rank, m.length) for m in leads])
        other = v.legal_moves(rng.choice(hands), **kw).moves
        if other:
            answers = v.legal_moves(hand, after=rng.choice(other), **kw)
            out.append([(m.cards, m.combo, m.rank, m.length) for m in answers])
    return out


def _hands(v: Variant, count: int, size: int) -> list[str]:
    rng = random.Random(f"hands:{v.name}")
    deck = [r for r, n in enumerate(v.rules.deck) for _ in range(n)]
    return [C.counts_to_string(C.counts_of(rng.sample(deck, size))) for _ in range(count)]


@pytest.mark.parametrize(("name", "wild"), [("compat/douzero", None), ("hubei-3p", None),
                                            ("hubei-4p-2deck", None), ("laizi", "7")])
def test_the_kernels_and_pure_python_list_the_same_plays(name: str, wild: str | None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ddzrules.speed._quick", reason="the C kernels are not built (or DDZRULES_PURE)")
    spec = load_spec(name)

    def run() -> list[list[tuple[str, str, int, int]]]:
        v = Variant(spec, compile_spec(spec))  # fresh: its plans choose the kernel or the Python when made
        hands = _hands(v, 40, 17)
        first = _plays(v, hands, wild)
        if v.fast_index():  # and again through the lister's index, as a long run lists
            assert _plays(v, hands, wild) == first
        return first

    with_kernels = run()
    for module, attr in KERNEL_NAMES:
        monkeypatch.setattr(module, attr, None)
    assert run() == with_kernels
    assert any(len(p) > 1 for p in with_kernels)  # the hands are not trivial


def _python(code: str, **env: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env}, check=True)
    return done.stdout.strip()


def test_ddzrules_pure_switches_the_kernels_off() -> None:
    code = "import ddzrules, importlib.util; print(ddzrules.BUILD, 'speed._quick' in ddzrules.COMPILED_MODULES)"
    others = [m for m in ddzrules.COMPILED_MODULES if m != "speed._quick"]  # mypyc's stay (they replace the .py)
    want = "compiled: " + ", ".join(others) if others else "pure Python (DDZRULES_PURE)"
    assert _python(code, DDZRULES_PURE="1") == f"{want} False"
    if "speed._quick" in ddzrules.COMPILED_MODULES:
        assert _python(code, DDZRULES_PURE="0") == f"{ddzrules.BUILD} True"


def test_version_names_the_build() -> None:
    result = CliRunner().invoke(main, ["--version"], prog_name="ddzrules")
    assert result.exit_code == 0
    assert result.output.startswith(f"ddzrules {ddzrules.__version__}, ")
    if ddzrules.BUILD == "pure Python":
        assert "the C kernels were not built" in result.output
    else:
        assert ddzrules.BUILD in result.output


def test_the_build_is_named_for_what_runs() -> None:
    if not ddzrules.COMPILED_MODULES:
        assert ddzrules.BUILD.startswith("pure Python")
    elif set(ddzrules.COMPILED_MODULES) <= {"speed._quick"}:
        assert ddzrules.BUILD == "C kernels (speed._quick)"
    else:
        assert "compiled: " + ", ".join(ddzrules.COMPILED_MODULES) == ddzrules.BUILD


def test_every_benchmark_names_the_build_it_measures() -> None:
    """Issue 44: the header of every benchmark says which build ran (benchmarks/_header.py),
    printed right after its arguments are read."""
    from pathlib import Path

    scripts = sorted(p for p in (Path(__file__).parents[2] / "benchmarks").glob("*.py") if not p.name.startswith("_"))
    assert scripts
    missing = [p.name for p in scripts if "print_header(__file__" not in p.read_text("utf-8")]
    assert not missing, f"benchmarks that do not print the build: {missing}"
