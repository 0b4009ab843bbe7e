"""Manhattan's pure rules: ``ENGINE`` satisfies ``shared.engine.Engine``; the module-level
functions are the same rules for tests and tools that call them directly."""

from .bots import BOTS
from .engine import ENGINE
from .game import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    apply_move,
    is_over,
    legal_moves,
    result,
    score,
    setup,
    to_act,
    view,
)

__all__ = [
    "ENGINE",
    "BOTS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "apply_move",
    "is_over",
    "legal_moves",
    "result",
    "score",
    "setup",
    "to_act",
    "view",
]
