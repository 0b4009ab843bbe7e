"""``ENGINE``: Manhattan's rules as an object satisfying :class:`shared.engine.Engine`.

The hot methods (to_act, legal_moves, apply_move, the playout path fork, legal_actions
and play, is_over, view, score, estimate, result) are the rules functions themselves, bound as
static methods: the kit's plain ``State`` is the typed :class:`ManhattanState` (the kit
upgraded it on load), and a delegating method per call costs a noticeable share of a
move. ``redeal`` is the contract suite's hook that redistributes what a seat cannot see
(other hands, the deck's and promo deck's order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import shared.rng as rng
from shared.engine import Choice, Engine, Event, Move, State

from . import listing, moves, playpath, views
from .bots import BOTS
from .options import MAX_PLAYERS, MIN_PLAYERS
from .state import new_state, upgrade


def redeal(state: State, seat: int | None, salt: int) -> State:
    """``state`` with the other seats' hands, the deck order, the promo deck and the RNG
    redrawn from ``salt``; ``seat``'s own hand and every public part unchanged."""
    s = rng.seed_state(salt)
    others = [p for p in range(state["num_players"]) if p != seat]
    # Sorted first: the redeal is a function of what ``seat`` sees and ``salt`` alone,
    # not of how the hidden cards happen to lie (a search bot's determinizations).
    pool = sorted([*state["deck"], *(c for p in others for c in state["hands"][p])])
    s, pool = rng.shuffle(s, pool)
    hands = [list(h) for h in state["hands"]]
    for p in others:
        size = len(hands[p])
        hands[p], pool = sorted(pool[:size]), pool[size:]
    s, promo_deck = rng.shuffle(s, sorted(state["promo_deck"]))
    return {**state, "hands": hands, "deck": pool, "promo_deck": promo_deck, "rng": s}


_to_act = cast(Callable[[State], list[int]], views.to_act)
_legal_moves = cast(Callable[[State, int], list[Move]], listing.legal_moves)
_apply_move = cast(Callable[[State, int, Move], tuple[State, list[Event]]], moves.apply_move)
_fork = cast(Callable[[State], State], playpath.fork)
_legal_actions = cast(Callable[[State, int], Sequence[Move]], listing.legal_actions)
_play = cast(Callable[[State, int, Move], None], playpath.play)
_view = cast(Callable[[State, "int | None"], dict[str, Any]], views.view)
_score = cast(Callable[[State], dict[str, Any]], views.score)
_estimate = cast(Callable[[State], "list[float] | None"], views.estimate)
_is_over = cast(Callable[[State], bool], views.is_over)
_result = cast(Callable[[State], "dict[str, Any] | None"], views.result)


class ManhattanEngine:
    """Manhattan (rules: shared/rules/manhattan.md; state: docs/manhattan.md)."""

    NAME = "manhattan"
    BOTS = BOTS
    MIN_PLAYERS = MIN_PLAYERS
    MAX_PLAYERS = MAX_PLAYERS

    def setup(self, num_players: int, options: dict[str, Any], seed: int) -> State:
        return cast(State, new_state(num_players, options, seed))

    to_act = staticmethod(_to_act)
    legal_moves = staticmethod(_legal_moves)  # every legal move: Manhattan has no subset fields
    apply_move = staticmethod(_apply_move)
    fork = staticmethod(_fork)
    legal_actions = staticmethod(_legal_actions)
    play = staticmethod(_play)
    view = staticmethod(_view)
    score = staticmethod(_score)
    estimate = staticmethod(_estimate)
    is_over = staticmethod(_is_over)
    result = staticmethod(_result)

    def choices(self, state: State, seat: int) -> list[Choice]:
        return []

    def upgrade(self, state: State) -> State:
        return cast(State, upgrade(state))

    def stored(self, state: State) -> State:
        return state  # plain JSON data already

    def redeal(self, state: State, seat: int | None, salt: int) -> State:
        return redeal(state, seat, salt)


ENGINE: Engine = ManhattanEngine()
