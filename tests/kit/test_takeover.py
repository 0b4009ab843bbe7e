"""The ``takeover`` option (issue 32): the bot level that plays a seat that resigns, times
out or is abandoned; ``strong`` unless the game says otherwise. Toy game, real Redis; the
worker's step runs in-process with a ``think`` that records the level it was asked for
(the search levels' path, shared/worker/thinking.py in the worker)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from shared.engine import Engine, Move, State
from shared.games import Games, ratings, seats
from shared.games.errors import Invalid
from shared.usecases import matches
from shared.usecases.autoplay import play_due
from tests.kit.helpers import assert_problem, auth, create, join, view
from tests.kit.test_matches import match
from tests.kit.test_players import new_player
from tests.kit.test_rematch import ended_game


class Recorder:
    """A ``think`` for :func:`play_due`: records each search level it is asked for and
    plays the first legal move."""

    def __init__(self) -> None:
        self.levels: list[str] = []

    def __call__(
        self, engine: Engine, state: State, seat: int, level: str, seed: int, key: Any
    ) -> Move:
        self.levels.append(level)
        return engine.legal_moves(state, seat)[0]


def _kit(client: Any) -> Games:
    kit: Games = client.application.extensions["game_kit"].games
    return kit


def _running(client: Any, **options: Any) -> tuple[str, list[str], int]:
    """A running 2-seat game: its id, the seat tokens and the seat to act first."""
    game_id, host = create(client, players=2, **options)
    tokens = [join(client, game_id, name)[1] for name in ("Ann", "Bob")]
    started = client.post(f"/games/{game_id}/start", headers=auth(host)).get_json()
    return game_id, tokens, started["to_act"][0]


@pytest.mark.parametrize(
    "options, level, searched",
    [
        ({}, "strong", True),
        ({"takeover": "medium"}, "medium", True),
        ({"takeover": "random"}, "random", False),
    ],
)
def test_a_resigned_seat_is_played_by_the_takeover_level(toy_client, options, level, searched):
    game_id, tokens, caller = _running(toy_client, **options)
    r = toy_client.post(f"/games/{game_id}/resign", headers=auth(tokens[caller]))
    assert r.status_code == 200
    assert r.get_json()["players"][caller]["bot"] == level
    think = Recorder()
    doc, _ = play_due(_kit(toy_client), game_id, think)
    assert doc["version"] == r.get_json()["version"] + 1  # the resigned seat moved
    assert think.levels == ([level] if searched else [])


@pytest.mark.parametrize("options, level", [({}, "strong"), ({"takeover": "medium"}, "medium")])
def test_a_timed_out_seat_is_played_by_the_takeover_level(make_app, options, level):
    client = make_app("toy", CLOCK_MIN_TURN_SECONDS=1).test_client()
    clock = {"turn_seconds": 1, "max_timeouts": 1}
    game_id, _, caller = _running(client, clock=clock, **options)
    time.sleep(1.05)
    think = Recorder()
    doc, _ = play_due(_kit(client), game_id, think)
    assert think.levels == [level]
    assert (doc["players"][caller]["status"], doc["players"][caller]["bot"]) == (
        "abandoned",
        level,
    )


def test_the_option_is_checked_stored_when_not_the_default_and_shown(toy_client):
    r = toy_client.post("/games", json={"takeover": "expert"})
    problem = assert_problem(r, 422, "validation-error")
    assert "takeover" in problem["errors"]["json"]
    with pytest.raises(Invalid) as refused:  # the games layer checks it too
        _kit(toy_client).lifecycle.create({"takeover": "expert"})
    assert refused.value.code == "validation-error"
    medium, _ = create(toy_client, takeover="medium")
    assert view(toy_client, medium)["options"] == {"players": 4, "rounds": 3, "takeover": "medium"}
    assert _kit(toy_client).writes.load(medium)["takeover"] == "medium"
    for options in ({}, {"takeover": "strong"}):  # the default: nothing stored, nothing shown
        game_id, _ = create(toy_client, **options)
        assert "takeover" not in view(toy_client, game_id)["options"]
        assert "takeover" not in _kit(toy_client).writes.load(game_id)
    events = toy_client.get(f"/games/{medium}/events").get_json()["events"]
    assert events[0]["options"]["takeover"] == "medium"


def test_a_rematch_keeps_the_option(toy_client):
    game_id, tokens = ended_game(toy_client, takeover="greedy")
    body = toy_client.post(f"/games/{game_id}/rematch", headers=auth(tokens[0])).get_json()
    assert body["game"]["options"]["takeover"] == "greedy"
    plain, tokens = ended_game(toy_client)
    body = toy_client.post(f"/games/{plain}/rematch", headers=auth(tokens[0])).get_json()
    assert "takeover" not in body["game"]["options"]


def test_a_match_pools_tables_by_the_option(toy_client):
    keys = [new_player(toy_client, f"P{n}")[1] for n in range(4)]
    a = match(toy_client, keys[0], players=4)
    assert match(toy_client, keys[1], players=4, takeover="strong")["game_id"] == a["game_id"]
    b = match(toy_client, keys[2], players=4, takeover="greedy")
    assert b["game_id"] != a["game_id"]
    assert b["game"]["options"]["takeover"] == "greedy"
    assert match(toy_client, keys[3], players=4, takeover="greedy")["game_id"] == b["game_id"]
    doc = _kit(toy_client).writes.load(b["game_id"])
    assert matches.pool_of(doc) != matches.pool_of(_kit(toy_client).writes.load(a["game_id"]))
    assert_problem(
        toy_client.post("/matches", json={"takeover": "expert"}, headers=auth(keys[0])),
        422,
        "validation-error",
    )


def test_every_bot_level_has_a_fixed_rating_stronger_ones_higher():
    assert set(ratings.BOTS) == set(seats.BOTS)
    mus = [ratings.BOTS[level][0] for level in seats.BOTS]  # weakest first
    assert mus == sorted(mus) and len(set(mus)) == len(mus)
    assert seats.TAKEOVER_BOT == "strong"
