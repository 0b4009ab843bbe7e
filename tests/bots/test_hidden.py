"""The search bots never read what their seat may not see.

With the same seed, :func:`shared.bots.decide` returns the identical move on a state and
on ``engine.redeal(state, seat, other_salt)`` (the same game with everything the seat
cannot see redrawn: other hands, deck order, the RNG), on hundreds of states of each
game reached by random play, including Wind City's simultaneous insurance answers (any
seat of those to act). The budget is a small iteration count with no time cap, so the
decision is a function of the seat's view and the seed alone.
"""

from __future__ import annotations

import random

import pytest

from services.manhattan.rules import ENGINE as MANHATTAN
from services.windcity.rules import ENGINE as WINDCITY
from shared.bots import LEVELS, decide
from shared.engine import Engine, State

STATES = 300  # per game


def positions(engine: Engine, count: int, seed: int) -> list[tuple[State, int]]:
    """``count`` (state, seat) pairs with a real choice, from random games of 2-4."""
    rng = random.Random(seed)
    out: list[tuple[State, int]] = []
    game = 0
    while len(out) < count:
        game += 1
        state = engine.setup(rng.choice([2, 3, 4]), {}, rng.getrandbits(32))
        while not engine.is_over(state) and len(out) < count:
            acting = engine.to_act(state)
            seat = rng.choice(acting)
            legal = engine.legal_moves(state, seat)
            if len(legal) > 1 and rng.random() < 0.15:
                out.append((state, seat))
            state, _ = engine.apply_move(state, seat, rng.choice(legal))
    return out


@pytest.mark.parametrize("engine", [MANHATTAN, WINDCITY], ids=lambda e: e.NAME)
def test_decisions_ignore_what_the_seat_cannot_see(engine: Engine) -> None:
    differs = 0
    for i, (state, seat) in enumerate(positions(engine, STATES, 32)):
        other = engine.redeal(state, seat, 1000 + i)
        differs += engine.view(other, None) != engine.view(state, None) or other != state
        for level in ("medium", "greedy"):
            mine = decide(engine, state, seat, level, seed=i, iterations=6, ms=0)
            theirs = decide(engine, other, seat, level, seed=i, iterations=6, ms=0)
            assert mine == theirs, (engine.NAME, i, seat, level)
            assert mine in engine.legal_moves(state, seat) or engine.apply_move(state, seat, mine)
    assert differs > STATES // 2  # the redeals did change hidden parts


def test_levels() -> None:
    assert {"random", "greedy", "medium", "strong"} <= set(LEVELS)
