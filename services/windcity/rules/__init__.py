"""Wind City rules engine (pure: no I/O, no Flask/Redis): ``ENGINE`` satisfies
shared.engine.Engine; the module-level functions are the same rules for direct callers.

Modules: board (geometry), cards (the 25 cards), shared.rng (splitmix64), options,
placement (setup), turn (plan + insurance market), resolve (automatic resolution),
moves (checks, apply, listing), views (view, score, result), engine (the object).
Rules: /shared/rules/windcity.md.
"""

from __future__ import annotations

from shared.engine import RuleError

from .bots import BOTS
from .engine import ENGINE
from .moves import apply_move, legal_moves
from .options import MAX_PLAYERS, MIN_PLAYERS
from .placement import new_state as setup
from .views import is_over, result, score, to_act, view

NAME = ENGINE.NAME

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
