"""``ENGINE``: Wind City's rules as an object satisfying :class:`shared.engine.Engine`.

The kit's plain ``State`` is a :class:`~.state.WindCityState` (the kit upgraded it on
load: its houses are Houses), or a state loaded from JSON by a caller that skipped
``upgrade`` (its houses are lists). The hot methods (to_act, is_over, apply_move and the
playout path fork, legal_actions, play) are the rules functions themselves, bound as
static methods (a delegating method per call costs a noticeable share of a move): they
read no house, or take either kind of state. The others pass the state through
:func:`~.state.typed` first. ``redeal`` is the contract suite's hook that redistributes
what a seat cannot see (the deck order and, unless it is the active seat, the drawn card
and the secret part of the plan).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import shared.rng as rng
from shared.engine import Choice, Engine, Event, Move, State

from . import listing, moves, playpath, views
from .bots import BOTS
from .cards import CARDS, KAUF, ORDERINGS
from .options import MAX_PLAYERS, MIN_PLAYERS
from .state import WindCityState, new_state, typed, upgrade


def _plan_for(card: int, salt_state: int) -> tuple[int, list[int]]:
    """A random legal action ordering without Kauf for ``card``."""
    kinds = CARDS[card]
    orders = [o for o in ORDERINGS if all(kinds[a - 1][0] != KAUF for a in o)]
    s, i = rng.below(salt_state, len(orders))
    return s, list(orders[i])


def redeal(state: WindCityState, seat: int | None, salt: int) -> WindCityState:
    """``state`` with the deck order and the RNG redrawn from ``salt``; when ``seat`` is
    not the active seat, also the drawn card and the plan's secret actions and Kauf."""
    s = rng.seed_state(salt)
    card = state["card"]
    secret_card = card is not None and seat != state["active"]
    # Sorted first: the redeal is a function of what ``seat`` sees and ``salt`` alone,
    # not of how the hidden cards happen to lie (a search bot's determinizations).
    pool = sorted([*state["deck"], *([card] if card is not None and secret_card else [])])
    s, pool = rng.shuffle(s, pool)
    new: WindCityState = {**state, "deck": pool, "rng": s}
    if secret_card:
        new["card"], new["deck"] = pool[0], pool[1:]
        plan = state["plan"]
        if plan is not None:
            s, actions = _plan_for(pool[0], s)
            new["plan"] = {**plan, "actions": actions, "kauf": None}
            new["rng"] = s
    return new


_to_act = cast(Callable[[State], list[int]], views.to_act)  # reads no house
_is_over = cast(Callable[[State], bool], views.is_over)  # reads no house
_apply_move = cast(Callable[[State, int, Move], tuple[State, list[Event]]], moves.apply_move)
_fork = cast(Callable[[State], State], playpath.fork)
_legal_actions = cast(Callable[[State, int], Sequence[Move]], playpath.legal_actions)
_play = cast(Callable[[State, int, Move], None], playpath.play)


class WindCityEngine:
    """Wind City (rules: shared/rules/windcity.md; state: docs/windcity.md)."""

    NAME = "windcity"
    BOTS = BOTS
    MIN_PLAYERS = MIN_PLAYERS
    MAX_PLAYERS = MAX_PLAYERS

    def setup(self, num_players: int, options: dict[str, Any], seed: int) -> State:
        return cast(State, new_state(num_players, options, seed))

    to_act = staticmethod(_to_act)
    apply_move = staticmethod(_apply_move)
    is_over = staticmethod(_is_over)
    fork = staticmethod(_fork)
    legal_actions = staticmethod(_legal_actions)
    play = staticmethod(_play)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return cast(list[Move], listing.legal_moves(typed(state), seat))

    def choices(self, state: State, seat: int) -> list[Choice]:
        return listing.choices(typed(state), seat)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return cast(dict[str, Any], views.view(typed(state), seat))

    def score(self, state: State) -> dict[str, Any]:
        return cast(dict[str, Any], views.score(typed(state)))

    def estimate(self, state: State) -> list[float] | None:
        return None  # no scoring to estimate between turns: the search plays to its horizon

    def result(self, state: State) -> dict[str, Any] | None:
        return cast("dict[str, Any] | None", views.result(typed(state)))

    def upgrade(self, state: State) -> State:
        return cast(State, upgrade(state))

    def stored(self, state: State) -> State:
        houses = state["houses"]
        return {**state, "houses": {square: list(house) for square, house in houses.items()}}

    def redeal(self, state: State, seat: int | None, salt: int) -> State:
        return cast(State, redeal(typed(state), seat, salt))


ENGINE: Engine = WindCityEngine()
