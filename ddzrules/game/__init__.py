"""The generic trick-taking runtime: deal, landlord phase, declarations, tricks, scoring.

The runtime knows no variant. The compiled :class:`~ddzrules.variant.Variant`
says what a play is and what beats what; the plugins a spec activates (see
:mod:`ddzrules.hookspecs`) choose the landlord, add declarations, count
multipliers and settle. Every action goes through :meth:`Game.apply`, which
checks it against :meth:`Game.legal_actions` first (an action object that
legal_actions just listed for this very state is known legal and not checked
again), so an illegal action raises :class:`~ddzrules.errors.PlayError` and leaves
the state unchanged.

>>> rules = GameRules.load("hubei-3p")
>>> game = rules.new_game(seed=7)
>>> game.phase, len(game.hands[0]) if False else sum(game.hands[0])
('landlord', 17)
"""


# One module per job, bottom first; every name is re-exported here (and by
# ddzrules.runtime, its old import path):
#   values       the values exchanged with plugins and bots (Action, MultiplierEvent, Phase,
#                MatchInfo, PlayerView) and GameState, what a plugin may use of a game
#   loading      finding plugins (entry points) and loading them from the command line
#   checks       what the runtime accepts of plugin code's answers
#   plays        the play phase's legal actions, made fast
#   state        State, a game's data, its copies, and GameCore, what transactions take
#   transaction  each action's transaction: what plugin code writes, put back when it fails
#   face         GameFace, the state's fields shown (what plugin code sets checked), and
#                PlayRules, the play-rules seam: what the flow's functions take and ask
#   door         the one door to plugin code (call_plugin, Hook)
#   rules        the rules: a variant and its activated plugins, checked
#   tables       the table seam: landlord, free-for-all, partnerships
#   deal, play   the flow, functions of a game: the deal and phases, then the turns
#                (PlayRules: the play-rules seam)
#   climbing     the default play rules
#   determinize  worlds for a search
#   game         GameRules and Game, the public face
#   narration    games told in words (the command line's and the playground's)
from ddzrules.game.checks import FACTOR_LIMIT, HOOK_CHECKS, PHASE_CHECKS, SCORE_LIMIT
from ddzrules.game.climbing import CLIMBING, Climbing
from ddzrules.game.door import call_declared, call_plugin
from ddzrules.game.game import PLAY_RULES, Game, GameRules
from ddzrules.game.loading import (
    PluginRegistry,
    default_registry,
    implemented_hooks,
    import_class,
    load_plugin_class,
)
from ddzrules.game.play import PlayRules
from ddzrules.game.rules import MAX_REDEALS, ROLE_HOOKS, ROLES
from ddzrules.game.state import State
from ddzrules.game.tables import (
    TABLE_KINDS,
    FreeForAllTable,
    LandlordTable,
    PartnershipsTable,
    Table,
)
from ddzrules.game.values import (
    Action,
    GameState,
    MatchInfo,
    MultiplierEvent,
    Phase,
    PlayerView,
    TableRules,
)
from ddzrules.spec.model import DEFAULT_PLAY_RULES

__all__ = [
    "CLIMBING", "DEFAULT_PLAY_RULES", "FACTOR_LIMIT", "HOOK_CHECKS", "MAX_REDEALS", "PHASE_CHECKS", "PLAY_RULES",
    "ROLES", "ROLE_HOOKS", "SCORE_LIMIT", "TABLE_KINDS", "Action", "Climbing", "FreeForAllTable", "Game",
    "GameRules", "GameState", "LandlordTable", "MatchInfo", "MultiplierEvent", "PartnershipsTable", "Phase", "State",
    "PlayRules", "PlayerView", "PluginRegistry", "Table", "TableRules", "call_declared", "call_plugin",
    "default_registry", "implemented_hooks", "import_class", "load_plugin_class",
]
