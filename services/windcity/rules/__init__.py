"""Wind City rules engine (pure: no I/O, no Flask/Redis): ``ENGINE`` satisfies
shared.engine.Engine; the module-level functions are the same rules for direct callers.

Modules: options (players, options), state (the typed state, setup, old documents),
board (geometry), cards (the 25 cards), placement (houses), turn (plan + insurance
market), resolve (automatic resolution), moves (checks, apply, listing), views (view,
score, result), bots (strategies), engine (the object).
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
