"""Conformance suites: engine-agnostic test vectors generated from a spec.

A suite is a directory: ``manifest.json`` (format, the resolved spec and its hash,
seed, level, counts and a SHA-256 per file) and one JSONL file per category —
``classify``, ``compare``, ``moves``, ``census``, ``perft`` and ``games``. Every
vector has an ``id``, its inputs, the ``expect``-ed answer and a ``covers`` tag
(``<combo or rule>/<what>``, several joined by ``, `` when one input is at several
boundaries) naming what it exercises. The same spec, seed and
level give byte-identical files. :mod:`ddzrules.conformance.run` runs a suite
against an engine; ``docs/conformance.md`` documents the format and perft.

>>> suite = generate(load_variant("compat/rlcard"), level="smoke", seed=1)
>>> sorted(suite.vectors), suite.vectors["census"][-1]["expect"]
(['census', 'classify', 'compare', 'games', 'moves', 'perft'], {'plays': 27471})
"""

from __future__ import annotations

from ddzrules.conformance.beats import (  # noqa: F401 - re-exported: the package's names, wherever they are defined
    Relation,
    beats_coverage,
    beats_relations,
    gen_beats,
)
from ddzrules.conformance.common import (  # noqa: F401 - re-exported: the package's names, wherever they are defined
    ACE,
    CATEGORIES,
    FORMAT,
    LEVELS,
    LISTED_UNITS,
    MAX_FILE_BYTES,
    MAX_INT_DIGITS,
    MAX_LINE_BYTES,
    MAX_MANIFEST_BYTES,
    MAX_PERFT_NODES,
    MAX_SECONDS,
    MAX_VECTORS,
    MAX_WORK,
    PERFT_SLACK,
    SPEC_BYTES_PER_STEP,
    STEP_UNITS,
    SUITE_JSON,
    Level,
    Limits,
    Suite,
    Universe,
    deal_sizes,
    draw_wild,
    moves_vector,
    perft_budget,
    play_sort_key,
    reading_dict,
    readings_key,
    sort_plays,
    wild_ranks,
    wild_text,
)
from ddzrules.conformance.generate import (  # noqa: F401 - re-exported: the package's names, wherever they are defined
    action_string,
    check_suite_directory,
    gen_census,
    gen_classify,
    gen_compare,
    gen_games,
    gen_moves,
    generate,
    write_suite,
)
from ddzrules.conformance.perft import (  # noqa: F401 - re-exported: the package's names, wherever they are defined
    Position,
    gen_perft,
    perft,
)
from ddzrules.conformance.read import (  # noqa: F401 - re-exported: the package's names, wherever they are defined
    Tally,
    check_suite,
    iter_vectors,
    load_manifest,
    read_vectors,
    schema,
    suite_variant,
    vector_work,
)
from ddzrules.errors import SuiteError as SuiteError  # re-exported: it lived here
from ddzrules.variant import load_variant as load_variant

__all__ = ["CATEGORIES", "FORMAT", "LEVELS", "Limits", "Position", "Suite", "SuiteError", "Tally",
           "beats_coverage", "beats_relations", "check_suite", "generate", "iter_vectors", "load_manifest",
           "load_variant", "perft",
           "perft_budget", "read_vectors", "suite_variant", "write_suite"]
