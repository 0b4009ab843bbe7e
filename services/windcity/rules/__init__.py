"""Wind City rules engine (pure: no I/O, no Flask/Redis): ``ENGINE`` satisfies
shared.engine.Engine; the module-level functions are the same rules for direct callers.

Modules: options (players, options), state (the typed state and houses, setup, stored
states), shapes (the moves', events' and views' types), board (geometry, hurricane
paths), cards (the 25 cards, action orderings), placement (hurricane and houses),
turn (a turn's start and end), plan (the plan move), insurance (prices, the market),
resolve (automatic resolution), hurricane (its movement during resolution), checks
(shared field checks), moves (apply_move), parts (what plan and insure moves may
carry), listing (legal moves, choices), forks (a fork and its caches), fork_listing (a
fork's legal moves), playpath (fork, legal_actions, play in place), views (view, score,
result), bots (strategies), engine (the object).
Rules: /shared/rules/windcity.md.
"""

from __future__ import annotations

from shared.engine import RuleError

from .bots import BOTS
from .engine import ENGINE
from .options import MAX_PLAYERS, MIN_PLAYERS

NAME = ENGINE.NAME
setup = ENGINE.setup
to_act = ENGINE.to_act
legal_moves = ENGINE.legal_moves
apply_move = ENGINE.apply_move
view = ENGINE.view
score = ENGINE.score
is_over = ENGINE.is_over
result = ENGINE.result

__all__ = [
    "BOTS",
    "ENGINE",
    "NAME",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "RuleError",
    "setup",
    "to_act",
    "legal_moves",
    "apply_move",
    "view",
    "score",
    "is_over",
    "result",
]
