"""Random complete games checked after every move (seeded, so failures reproduce), the
same seed and moves giving the same game, and the state's size."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from services.manhattan import rules as m

from .playout import dumps, play_game, random_state

CONFIGS = [(n, six, promo) for n in (2, 3, 4) for six in (False, True) for promo in (False, True)]
GAMES_PER_CONFIG = 167  # 12 configurations: 2004 complete games


@pytest.mark.parametrize(("n", "six", "promo"), CONFIGS)
def test_random_playouts(n: int, six: bool, promo: bool) -> None:
    options = {"six_rounds": six, "promo_cards": promo}
    rng = random.Random(f"{n}-{six}-{promo}")
    seen: Counter = Counter()
    for g in range(GAMES_PER_CONFIG):
        seed = rng.getrandbits(64)
        state, played, game_seen = play_game(n, options, seed, rng=rng)
        seen += game_seen
        assert m.is_over(state) and m.to_act(state) == []
        rounds = 6 if six else 4
        assert game_seen["round_scored"] == rounds and game_seen["game_over"] == 1
        assert len(state["rounds"]) == rounds
        assert sum(len(sel) for sel in state["selected"]) == 0
        assert all(stock == [0, 0, 0, 0] for stock in state["stock"])
        res = m.result(state)
        assert res is not None and res["winners"]
        assert [row["total"] for row in res["standings"]] == sorted(state["scores"], reverse=True)
        if promo:
            assert len(state["promos_revealed"]) == rounds
            assert len(set(state["promos_revealed"])) == rounds
        if g % 40 == 0:
            replay = m.setup(n, options, seed)
            for seat, move in played:
                replay, _ = m.apply_move(replay, seat, move)
            assert dumps(replay) == dumps(state)
    # the paths the checks are meant to exercise were actually taken
    assert seen["deck_reshuffled"] > 0


def test_state_is_compact() -> None:
    rng = random.Random(5)
    biggest = 0
    for seed in range(20):
        state = m.setup(4, {"six_rounds": True, "promo_cards": True}, seed)
        while not m.is_over(state):
            seat = m.to_act(state)[0]
            state, _ = m.apply_move(state, seat, rng.choice(m.legal_moves(state, seat)))
            biggest = max(biggest, len(dumps(state)))
    assert biggest < 6 * 1024, biggest


def test_same_seed_same_moves_same_state() -> None:
    for n in (2, 3, 4):
        a = random_state(n, {"promo_cards": True}, 77, 500)
        b = random_state(n, {"promo_cards": True}, 77, 500)
        assert m.is_over(a) and dumps(a) == dumps(b)
        c = random_state(n, {"promo_cards": True}, 78, 500)
        assert dumps(c) != dumps(a)
