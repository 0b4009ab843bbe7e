"""Hints (issue 42): the ``hints`` kit option, ``POST /games/{id}/hint`` counted per seat
and public, refused beyond the allowance and in rated games (Manhattan, real Redis)."""

from __future__ import annotations

from shared.games import hints
from tests.kit.helpers import assert_problem, auth, create, started_game, view
from tests.kit.test_ratings import player


def to_act(client, game_id, tokens):
    seat = view(client, game_id)["to_act"][0]
    return seat, tokens[seat]


def test_a_seat_gets_the_bots_move_until_its_allowance_is_used(manhattan_client):
    c = manhattan_client
    game_id, _, tokens = started_game(c, 2, hints=2, rated=False)
    seat, token = to_act(c, game_id, tokens)
    other = tokens[1 - seat]
    assert view(c, game_id)["hints"] == {"allowed": 2, "used": [0, 0]}
    assert_problem(c.post(f"/games/{game_id}/hint", headers=auth(other)), 409, "not-your-turn")
    assert_problem(c.post(f"/games/{game_id}/hint"), 401, "missing-token")
    r = c.post(f"/games/{game_id}/hint", headers=auth(token))
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    legal = c.get(f"/games/{game_id}/legal-moves", headers=auth(token)).get_json()["moves"]
    assert body["move"] in legal and body["seat"] == seat
    assert (body["used"], body["left"], body["level"]) == (1, 1, "medium")
    used = [0, 0]
    used[seat] = 1
    assert view(c, game_id)["hints"]["used"] == used  # public: anyone's view shows it
    assert any(
        e["type"] == "hint_used" for e in c.get(f"/games/{game_id}/log").get_json()["events"]
    )
    assert c.post(f"/games/{game_id}/hint", headers=auth(token)).status_code == 200
    refused = c.post(f"/games/{game_id}/hint", headers=auth(token))
    assert_problem(refused, 409, "hints-used-up")
    assert refused.headers["Content-Type"] == "application/problem+json"


def test_the_default_allowance_and_zero(manhattan_client):
    c = manhattan_client
    game_id, _, tokens = started_game(c, 2)
    assert view(c, game_id)["hints"]["allowed"] == hints.DEFAULT_HINTS
    game_id, _, tokens = started_game(c, 2, hints=0)
    seat, token = to_act(c, game_id, tokens)
    assert_problem(c.post(f"/games/{game_id}/hint", headers=auth(token)), 409, "hints-used-up")


def test_hints_are_an_option_even_where_the_game_may_turn_out_rated(manhattan_client):
    """Any allowance may be asked for at create (what the document says is valid is
    accepted); a game that turns out rated allows none, whatever it says (the next test)."""
    c = manhattan_client
    for body in ({"hints": 4}, {"hints": 4, "rated": True}, {"hints": 4, "rated": False}):
        r = c.post("/games", json={"players": 2, **body})
        assert r.status_code == 201, r.get_json()
        assert r.get_json()["game"]["hints"]["allowed"] == 4


def test_a_rated_game_refuses_hints(manhattan_client):
    c = manhattan_client
    keys = [player(c, n)[1] for n in ("Ann", "Bob")]
    game_id, host = create(c, players=2)
    tokens = [
        c.post(f"/games/{game_id}/players", json={}, headers=auth(k)).get_json()["token"]
        for k in keys
    ]
    assert c.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    assert view(c, game_id)["hints"]["allowed"] == 0
    seat, token = to_act(c, game_id, tokens)
    assert_problem(c.post(f"/games/{game_id}/hint", headers=auth(token)), 403, "hints-rated-game")
    assert_problem(
        c.post(f"/games/{game_id}/hint", headers=auth(keys[seat])), 403, "hints-rated-game"
    )
