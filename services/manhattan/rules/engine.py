"""``ENGINE``: Manhattan's rules as an object satisfying :class:`shared.engine.Engine`.

The methods delegate to the rules modules; ``redeal`` is the contract suite's hook that
redistributes what a seat cannot see (other hands, the deck's and promo deck's order).
"""

from __future__ import annotations

from typing import Any, cast

import shared.rng as rng
from shared.engine import Choice, Engine, Event, Move, State

from . import moves, views
from .bots import BOTS
from .options import MAX_PLAYERS, MIN_PLAYERS
from .state import ManhattanState, new_state, upgrade


def redeal(state: State, seat: int | None, salt: int) -> State:
    """``state`` with the other seats' hands, the deck order, the promo deck and the RNG
    redrawn from ``salt``; ``seat``'s own hand and every public part unchanged."""
    s = rng.seed_state(salt)
    others = [p for p in range(state["num_players"]) if p != seat]
    pool = list(state["deck"]) + [c for p in others for c in state["hands"][p]]
    s, pool = rng.shuffle(s, pool)
    hands = [list(h) for h in state["hands"]]
    for p in others:
        size = len(hands[p])
        hands[p], pool = sorted(pool[:size]), pool[size:]
    s, promo_deck = rng.shuffle(s, list(state["promo_deck"]))
    return {**state, "hands": hands, "deck": pool, "promo_deck": promo_deck, "rng": s}


def _typed(state: State) -> ManhattanState:
    """The kit's plain state as what it is (the kit upgraded it on load)."""
    return cast(ManhattanState, state)


class ManhattanEngine:
    """Manhattan (rules: shared/rules/manhattan.md; state: docs/manhattan.md)."""

    NAME = "manhattan"
    BOTS = BOTS
    MIN_PLAYERS = MIN_PLAYERS
    MAX_PLAYERS = MAX_PLAYERS

    def setup(self, num_players: int, options: dict[str, Any], seed: int) -> State:
        return cast(State, new_state(num_players, options, seed))

    def to_act(self, state: State) -> list[int]:
        return views.to_act(_typed(state))

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every legal move: Manhattan has no subset fields."""
        return moves.legal_moves(_typed(state), seat)

    def choices(self, state: State, seat: int) -> list[Choice]:
        return []

    def apply_move(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        new, events = moves.apply_move(_typed(state), seat, move)
        return cast(State, new), events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(_typed(state), seat)

    def score(self, state: State) -> dict[str, Any]:
        return views.score(_typed(state))

    def is_over(self, state: State) -> bool:
        return views.is_over(_typed(state))

    def result(self, state: State) -> dict[str, Any] | None:
        return views.result(_typed(state))

    def upgrade(self, state: State) -> State:
        return cast(State, upgrade(state))

    def redeal(self, state: State, seat: int | None, salt: int) -> State:
        return redeal(state, seat, salt)


ENGINE: Engine = ManhattanEngine()
