"""The old import path of :mod:`ddzrules.game` (the runtime: deal, landlord phase,
declarations, tricks, scoring), kept: every name it exported is re-exported here."""

from ddzrules.game import (
    FACTOR_LIMIT,
    HOOK_CHECKS,
    MAX_REDEALS,
    PHASE_CHECKS,
    ROLE_HOOKS,
    ROLES,
    SCORE_LIMIT,
    TABLE_KINDS,
    Action,
    Game,
    GameRules,
    GameState,
    MatchInfo,
    MultiplierEvent,
    Phase,
    PlayerView,
    PluginRegistry,
    TableRules,
    call_declared,
    call_plugin,
    default_registry,
    implemented_hooks,
    import_class,
    load_plugin_class,
)

__all__ = [
    "FACTOR_LIMIT", "HOOK_CHECKS", "MAX_REDEALS", "PHASE_CHECKS", "ROLES", "ROLE_HOOKS", "SCORE_LIMIT",
    "TABLE_KINDS", "Action", "Game", "GameRules", "GameState", "MatchInfo", "MultiplierEvent", "Phase",
    "PlayerView", "PluginRegistry", "TableRules", "call_declared", "call_plugin", "default_registry",
    "implemented_hooks",
    "import_class", "load_plugin_class",
]
