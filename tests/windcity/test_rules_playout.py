"""Random complete games with invariants checked after every move (see playout.Checker)."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from services.windcity import rules as E

from .playout import play_game

GAMES = int(os.environ.get("WINDCITY_PLAYOUTS", "2000"))
OPTIONS: list[dict[str, Any]] = [
    {},
    {"play_area": "full"},
    {"score_money": False},
    {"max_turns": 10},
    {"play_area": "full", "max_turns": 12, "score_money": False},
]


def game_params(i: int) -> tuple[int, dict[str, Any]]:
    return 2 + i % 4, OPTIONS[(i // 4) % len(OPTIONS)]


@pytest.mark.parametrize("chunk", range(10))
def test_random_playouts(chunk):
    reasons: dict[str, int] = {}
    per = GAMES // 10
    for i in range(chunk * per, (chunk + 1) * per):
        n, opts = game_params(i)
        final = play_game(i, n, opts)
        reason = E.result(final)["reason"]
        reasons[reason] = reasons.get(reason, 0) + 1
    assert sum(reasons.values()) == per
    assert set(reasons) <= {"north_edge", "last_player", "max_turns"}


def test_replay_is_byte_identical():
    import random

    from .playout import random_move

    for seed in (1, 2, 3):
        logs = []
        for _ in range(2):
            rnd = random.Random(seed)
            st = E.setup(4, {}, seed)
            out = [json.dumps(st)]
            while not E.is_over(st):
                seat = rnd.choice(E.to_act(st))
                st, _ = E.apply_move(st, seat, random_move(st, seat, rnd))
                out.append(json.dumps(st))
            logs.append(out)
        assert logs[0] == logs[1]
