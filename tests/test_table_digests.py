"""Every bundled spec's compiled rules answer as recorded in
``tests/reference/table_digests.json`` (``tests/reference/make_table_digests.py``): the
matcher table, the census, ``beats`` on a seeded sample and ``legal_moves`` on seeded hands.
Moving or speeding up the spec stage, the compiler or the lister must leave every one of them
byte-identical; a change meant to alter tables regenerates the file and says so in its
commit."""

from __future__ import annotations

import json

import pytest
from conftest import REFERENCE
from reference_data import reference_script

GEN = reference_script("make_table_digests")
WANT: dict[str, dict[str, str]] = json.loads((REFERENCE / "table_digests.json").read_text("utf-8"))


def test_every_bundled_spec_has_table_digests() -> None:
    assert sorted(WANT) == sorted(GEN.bundled_names())


@pytest.mark.parametrize("spec", sorted(WANT))
def test_tables_are_unchanged(spec: str) -> None:
    got = GEN.table_digests(spec)
    changed = sorted(name for name in set(got) | set(WANT[spec]) if got.get(name) != WANT[spec].get(name))
    assert not changed, f"{spec}: the {', '.join(changed)} no longer as recorded"
