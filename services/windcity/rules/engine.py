"""``ENGINE``: Wind City's rules as an object satisfying :class:`shared.engine.Engine`.

Most methods are the rules modules' functions themselves (static: no extra call per
move; mypy checks them against the protocol); ``redeal`` is the contract suite's hook that
redistributes what a seat cannot see (the deck order and, unless it is the active seat,
the drawn card and the secret part of the plan).
"""

from __future__ import annotations

from typing import Any, cast

import shared.rng as rng
from shared.engine import Engine, State

from . import listing, moves, playpath, views
from .bots import BOTS
from .cards import CARDS, KAUF
from .options import MAX_PLAYERS, MIN_PLAYERS
from .state import new_state, upgrade
from .turn import ORDERINGS


def _plan_for(card: int, salt_state: int) -> tuple[int, list[int]]:
    """A random legal action ordering without Kauf for ``card``."""
    kinds = CARDS[card]
    orders = [o for o in ORDERINGS if all(kinds[a - 1][0] != KAUF for a in o)]
    s, i = rng.below(salt_state, len(orders))
    return s, list(orders[i])


def redeal(state: State, seat: int | None, salt: int) -> State:
    """``state`` with the deck order and the RNG redrawn from ``salt``; when ``seat`` is
    not the active seat, also the drawn card and the plan's secret actions and Kauf."""
    s = rng.seed_state(salt)
    secret_card = state["card"] is not None and seat != state["active"]
    pool = list(state["deck"]) + ([state["card"]] if secret_card else [])
    s, pool = rng.shuffle(s, pool)
    new = {**state, "deck": pool, "rng": s}
    if secret_card:
        new["card"], new["deck"] = pool[0], pool[1:]
        if state["plan"] is not None:
            s, actions = _plan_for(new["card"], s)
            new["plan"] = {**state["plan"], "actions": actions, "kauf": None}
            new["rng"] = s
    return new


class WindCityEngine:
    """Wind City (rules: shared/rules/windcity.md; state: docs/windcity.md)."""

    NAME = "windcity"
    BOTS = BOTS
    MIN_PLAYERS = MIN_PLAYERS
    MAX_PLAYERS = MAX_PLAYERS

    def setup(self, num_players: int, options: dict[str, Any], seed: int) -> State:
        return cast(State, new_state(num_players, options, seed))

    to_act = staticmethod(views.to_act)
    legal_moves = staticmethod(listing.legal_moves)
    choices = staticmethod(moves.choices)
    apply_move = staticmethod(moves.apply_move)
    view = staticmethod(views.view)
    score = staticmethod(views.score)
    is_over = staticmethod(views.is_over)
    result = staticmethod(views.result)

    fork = staticmethod(playpath.fork)
    legal_actions = staticmethod(playpath.legal_actions)
    play = staticmethod(playpath.play)

    def upgrade(self, state: State) -> State:
        return cast(State, upgrade(state))

    def redeal(self, state: State, seat: int | None, salt: int) -> State:
        return redeal(state, seat, salt)


ENGINE: Engine = WindCityEngine()
