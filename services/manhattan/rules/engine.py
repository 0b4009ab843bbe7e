"""``ENGINE``: Manhattan's rules as an object satisfying :class:`shared.engine.Engine`.

The methods delegate to the rules modules; ``redeal`` is the contract suite's hook that
redistributes what a seat cannot see (other hands, the deck's and promo deck's order).
"""

from __future__ import annotations

from typing import Any

import shared.rng as rng
from shared.engine import Choice, Engine, Event, Move, State

from . import game
from .bots import BOTS


def redeal(state: State, seat: int | None, salt: int) -> State:
    """``state`` with the other seats' hands, the deck order, the promo deck and the RNG
    redrawn from ``salt``; ``seat``'s own hand and every public part unchanged."""
    s = rng.seed_state(salt)
    others = [p for p in range(state["n"]) if p != seat]
    pool = list(state["deck"]) + [c for p in others for c in state["hands"][p]]
    s, pool = rng.shuffle(s, pool)
    hands = [list(h) for h in state["hands"]]
    for p in others:
        size = len(hands[p])
        hands[p], pool = sorted(pool[:size]), pool[size:]
    s, pdeck = rng.shuffle(s, list(state["pdeck"]))
    return {**state, "hands": hands, "deck": pool, "pdeck": pdeck, "rng": s}


class ManhattanEngine:
    """Manhattan (rules: shared/rules/manhattan.md; state: docs/manhattan.md)."""

    NAME = game.NAME
    BOTS = BOTS
    MIN_PLAYERS = game.MIN_PLAYERS
    MAX_PLAYERS = game.MAX_PLAYERS

    def setup(self, num_players: int, options: dict[str, Any], seed: int) -> State:
        return game.setup(num_players, options, seed)

    def to_act(self, state: State) -> list[int]:
        return game.to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every legal move: Manhattan has no subset fields."""
        return game.legal_moves(state, seat)

    def choices(self, state: State, seat: int) -> list[Choice]:
        return []

    def apply_move(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        return game.apply_move(state, seat, move)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return game.view(state, seat)

    def score(self, state: State) -> dict[str, Any]:
        return game.score(state)

    def is_over(self, state: State) -> bool:
        return game.is_over(state)

    def result(self, state: State) -> dict[str, Any] | None:
        return game.result(state)

    def redeal(self, state: State, seat: int | None, salt: int) -> State:
        return redeal(state, seat, salt)


ENGINE: Engine = ManhattanEngine()
