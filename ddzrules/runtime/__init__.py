"""The generic trick-taking runtime: deal, landlord phase, declarations, tricks, scoring.

The runtime knows no variant. The compiled :class:`~ddzrules.rules.variant.Variant`
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


# One module per job, bottom first; every name is re-exported here, where it always was:
#   values   the values exchanged with plugins and bots (Action, MultiplierEvent, Phase,
#            MatchInfo, PlayerView) and GameState, what a plugin may use of a game
#   loading  finding plugins (entry points) and loading them from the command line
#   checks   what the runtime accepts of plugin code's answers
#   plays    the play phase's legal actions, made fast
#   game     GameRules, the calls into plugin code, and Game
from ddzrules.runtime.checks import FACTOR_LIMIT, HOOK_CHECKS, PHASE_CHECKS, SCORE_LIMIT
from ddzrules.runtime.game import (
                                      MAX_REDEALS,
                                      ROLE_HOOKS,
                                      ROLES,
                                      TABLE_KINDS,
                                      Game,
                                      GameRules,
                                      call_declared,
                                      call_plugin,
)
from ddzrules.runtime.loading import (
                                      PluginRegistry,
                                      default_registry,
                                      implemented_hooks,
                                      import_class,
                                      load_plugin_class,
)
from ddzrules.runtime.values import (
                                      Action,
                                      GameState,
                                      MatchInfo,
                                      MultiplierEvent,
                                      Phase,
                                      PlayerView,
                                      TableRules,
)

__all__ = [
    "FACTOR_LIMIT", "HOOK_CHECKS", "MAX_REDEALS", "PHASE_CHECKS", "ROLES", "ROLE_HOOKS", "SCORE_LIMIT",
    "TABLE_KINDS", "Action", "Game", "GameRules", "GameState", "MatchInfo", "MultiplierEvent", "Phase",
    "PlayerView", "PluginRegistry", "TableRules", "call_declared", "call_plugin", "default_registry", "implemented_hooks",
    "import_class", "load_plugin_class",
]
