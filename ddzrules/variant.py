"""``ddzrules.variant``, the documented import path of ``Variant`` and ``load_variant``: the
module itself lives in ``ddzrules.rules.variant`` (the compiled rules: tables, lister, wild)."""

from __future__ import annotations

from ddzrules.rules.universe import TABLE_FORMAT, TABLE_LIMIT
from ddzrules.rules.variant import (
           CacheWarning,
           Census,
           Comparison,
           Variant,
           cache_dir,
           load_variant,
)

__all__ = ["TABLE_FORMAT", "TABLE_LIMIT", "CacheWarning", "Census", "Comparison", "Variant", "cache_dir",
           "load_variant"]
