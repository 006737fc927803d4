"""The rules, compiled: a spec's combos as matcher tables (``compiler``), a hand's plays from
them (``lister``; ``wild`` and ``wild_table`` with wild cards, 癞子), ``Move`` and
``LegalMoves`` (``moves``) and ``Variant`` (``variant``), the face of it all. Text and YAML
are ``ddzrules.spec``'s business; this package starts from a loaded spec."""
