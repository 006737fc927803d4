"""Every bundled spec's conformance suite (standard level, seed 0) is the one recorded in
``tests/reference/suite_digests.json`` (``tests/reference/make_suite_digests.py``): the
vectors other engines are checked against must not change by accident. If a change of the
rules, the generator or the format is meant to change suites, regenerate the file with that
script and say so in the commit."""

from __future__ import annotations

import json

import pytest
from conftest import REFERENCE
from reference_data import reference_script

GEN = reference_script("make_suite_digests")
WANT: dict[str, dict[str, str]] = json.loads((REFERENCE / "suite_digests.json").read_text("utf-8"))


def test_every_bundled_spec_has_suite_digests() -> None:
    assert sorted(WANT) == sorted(GEN.bundled_names())


@pytest.mark.parametrize("spec", sorted(WANT))
def test_suites_are_unchanged(spec: str) -> None:
    got = GEN.suite_digests(spec)
    changed = sorted(name for name in set(got) | set(WANT[spec]) if got.get(name) != WANT[spec].get(name))
    assert not changed, f"{spec}: the suite's {', '.join(changed)} no longer as recorded"
