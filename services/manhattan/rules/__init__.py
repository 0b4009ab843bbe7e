"""Manhattan's pure rules: the engine contract of ``shared.engine`` as module-level names."""

from .bots import BOTS
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
