"""The text → spec stage: YAML with positions, JSON Schema validation, ``extends:``, and the
typed :class:`RuleSpec` every later stage reads.

The modules, in the order a spec goes through them: ``names`` (a name to a file),
``reading`` (one file, untrusted, into data and positions: ``source``), ``schema_check``
(the schema's findings in words), ``loading`` (``load_spec``: the ``extends:`` chain merged;
``stored``: its cache entries), ``loaded`` (``Spec``), ``model`` (``RuleSpec``), and the
pattern language (``patterns``, ``pattern.lark``). This package is the only place that reads
YAML or a spec's raw data; it re-exports the names of all of them.

A spec is read into plain Python data plus a map from each key path to where it
was written (``file:line:column``), so that every later error — a schema
violation, a pattern syntax error, a compile error — can point at the source.

>>> spec = load_spec("hubei-3p")
>>> spec.name, spec.data["deck"]["decks"]
('hubei-3p', 1)
"""

from __future__ import annotations

from ddzrules.spec.loaded import (
    Spec,
)
from ddzrules.spec.loading import (
    SPEC_NAME,
    dangling_removals,
    dump_yaml,
    load_spec,
    merge,
    spec_from_data,
    starter_text,
)
from ddzrules.spec.model import (
    DEFAULT_HAND,
    DEFAULT_KITTY,
    DEFAULT_PLAYERS,
    TABLE_KINDS,
    Combo,
    Deal,
    Deck,
    Frozen,
    ReadOnly,
    RuleSpec,
    Table,
    Wildcards,
)
from ddzrules.spec.names import (
    bundled_names,
    bundled_parents_only,
    bundled_root,
    display_name,
    parents_bundled_only,
    resolve_name,
)
from ddzrules.spec.reading import (
    DEFAULT_MAX_SPEC_BYTES,
    DEFAULT_MAX_SPEC_DEPTH,
    DEFAULT_MAX_SPEC_VALUES,
    SAFE_TAGS,
    check_spec_data,
    limit_from_env,
    max_spec_bytes,
    max_spec_depth,
    max_spec_values,
    read_spec_bytes,
    read_spec_text,
    read_yaml,
)
from ddzrules.spec.schema_check import (
    PATTERN_WORDS,
    SUITS,
    innermost_error,
    schema,
    schema_problems,
    schema_words,
    validate_data,
)
from ddzrules.spec.source import (
    Path_,
    ScalarSource,
    SourceText,
    dotted,
    position_inside,
)
from ddzrules.spec.stored import (
    CHECKED_FORMAT,
    RESOLVED_FORMAT,
    checked_before,
    load_resolved,
    mark_checked,
    text_digest,
)
from ddzrules.untrusted import file_kind  # re-exported: spec messages name a file's kind

__all__ = [
    "CHECKED_FORMAT",
    "DEFAULT_HAND",
    "DEFAULT_KITTY",
    "DEFAULT_MAX_SPEC_BYTES",
    "DEFAULT_MAX_SPEC_DEPTH",
    "DEFAULT_MAX_SPEC_VALUES",
    "DEFAULT_PLAYERS",
    "PATTERN_WORDS",
    "RESOLVED_FORMAT",
    "SAFE_TAGS",
    "SPEC_NAME",
    "SUITS",
    "TABLE_KINDS",
    "Combo",
    "Deal",
    "Deck",
    "Frozen",
    "Path_",
    "ReadOnly",
    "RuleSpec",
    "ScalarSource",
    "SourceText",
    "Spec",
    "Table",
    "Wildcards",
    "bundled_names",
    "bundled_parents_only",
    "bundled_root",
    "check_spec_data",
    "checked_before",
    "dangling_removals",
    "display_name",
    "dotted",
    "dump_yaml",
    "file_kind",
    "innermost_error",
    "limit_from_env",
    "load_resolved",
    "load_spec",
    "mark_checked",
    "max_spec_bytes",
    "max_spec_depth",
    "max_spec_values",
    "merge",
    "parents_bundled_only",
    "position_inside",
    "read_spec_bytes",
    "read_spec_text",
    "read_yaml",
    "resolve_name",
    "schema",
    "schema_problems",
    "schema_words",
    "spec_from_data",
    "starter_text",
    "text_digest",
    "validate_data",
]
