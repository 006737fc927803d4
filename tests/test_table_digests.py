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


@pytest.mark.parametrize("spec", sorted(WANT))
def test_the_fast_index_lists_what_enumeration_lists(spec: str) -> None:
    """legal_moves lists a hand's plays by enumeration until it has listed FAST_INDEX_AFTER
    hands, then through the fast index it builds: the two must list the same plays in the
    same order, leading and answering (the digests above are taken before the index exists,
    so a break of the index alone would pass them)."""
    from ddzrules import Counts, load_variant

    v = load_variant(spec)
    hands = GEN.seeded_hands(v, 8)
    plays = v.universe()
    before = [(list(v.legal_moves(h)), list(v.legal_moves(h, after=a))) for h, a in zip(hands, plays[::97])]
    if v.fast_index() is False:
        pytest.skip(f"{spec}: its universe is not tabulated")
    after = [(list(v.legal_moves(h)), list(v.legal_moves(h, after=a))) for h, a in zip(hands, plays[::97])]
    assert after == before
    assert all(isinstance(h, Counts) for h in hands)
