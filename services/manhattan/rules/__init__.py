"""Manhattan's pure rules: ``ENGINE`` satisfies ``shared.engine.Engine``; the module-level
functions are the same rules for tests and tools that call them directly.

Modules: options (players, options), state (the typed state, setup, old documents),
board and cards (geometry, sides, the deck), listing (legal moves: legal_actions and
legal_moves), moves (apply_move: checks, copies, the in-place steps), round_end (a
round's end: scored, then the next round or the game's end), playpath (the playout
path: fork, play), scoring (a round's points, standings), promos (promotion cards),
views (view, score, result), bots (strategies), engine (the object).
Rules: /shared/rules/manhattan.md.
"""

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
