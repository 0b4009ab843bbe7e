"""Rematch (issue 30): the next game after an ended one, created once however many ask,
with the former players' seats held for them (toy game, real Redis)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask.testing import FlaskClient

from shared.usecases import autoplay
from tests.kit.helpers import assert_problem, auth, create, join


def play_to_end(client: FlaskClient, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """Every seat to act plays its first legal move (a bot's seat, ``""``: the worker's
    step, in-process) until the game is over."""
    while True:
        view = client.get(f"/games/{game_id}").get_json()
        if view["status"] != "running":
            return dict(view)
        for seat in view["to_act"]:
            if not tokens[seat]:
                kit = client.application.extensions["game_kit"].games
                autoplay.play_due(kit, game_id)
                continue
            moves = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
            move = moves.get_json()["moves"][0]
            r = client.post(f"/games/{game_id}/moves", json=move, headers=auth(tokens[seat]))
            assert r.status_code == 200, r.get_json()


def ended_game(client: FlaskClient, **options: Any) -> tuple[str, list[str]]:
    game_id, host = create(client, players=2, rounds=1, seed=4, **options)
    tokens = [join(client, game_id, name)[1] for name in ("Ann", "Bob")]
    assert client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    assert play_to_end(client, game_id, tokens)["status"] == "finished"
    return game_id, tokens


def test_the_first_request_makes_the_next_game_and_later_ones_get_it(toy_client):
    game_id, tokens = ended_game(toy_client)
    first = toy_client.post(f"/games/{game_id}/rematch", headers=auth(tokens[1]))
    assert first.status_code == 201
    body = first.get_json()
    assert body["host_token"] and body["game"]["status"] == "open"
    assert body["game"]["options"] == {"players": 2, "rounds": 1}
    again = toy_client.post(f"/games/{game_id}/rematch", headers=auth(tokens[0]))
    assert again.status_code == 200
    assert again.get_json()["game_id"] == body["game_id"] and again.get_json()["host_token"] is None
    ended = toy_client.get(f"/games/{game_id}").get_json()
    assert ended["next_game"] == body["game_id"]
    listed = {g["id"]: g for g in toy_client.get("/games").get_json()["games"]}
    assert listed[game_id]["next_game"] == body["game_id"]
    assert listed[body["game_id"]]["next_game"] is None


def test_racing_requests_get_one_game(make_app):
    app = make_app("toy")
    client = app.test_client()
    game_id, tokens = ended_game(client)

    def ask(n: int) -> str:
        r = app.test_client().post(f"/games/{game_id}/rematch", headers=auth(tokens[n % 2]))
        assert r.status_code in (200, 201), r.get_json()
        return str(r.get_json()["game_id"])

    with ThreadPoolExecutor(8) as pool:
        ids = set(pool.map(ask, range(16)))
    assert len(ids) == 1
    assert client.get(f"/games/{game_id}").get_json()["next_game"] in ids


def test_held_seats_go_back_to_their_players_and_the_game_starts(toy_client):
    game_id, tokens = ended_game(toy_client)
    next_id = toy_client.post(f"/games/{game_id}/rematch", headers=auth(tokens[0])).get_json()[
        "game_id"
    ]
    r = toy_client.post(f"/games/{next_id}/players", json={"name": "Eve"})
    assert_problem(r, 409, "seats-held")
    r = toy_client.post(f"/games/{next_id}/players", json={}, headers=auth(tokens[1]))
    assert r.status_code == 201 and r.get_json()["game"]["players"][0]["name"] == "Bob"
    r = toy_client.post(f"/games/{next_id}/players", json={}, headers=auth(tokens[0]))
    assert r.status_code == 201
    view = toy_client.get(f"/games/{next_id}").get_json()
    assert view["status"] == "running" and [p["name"] for p in view["players"]] == ["Bob", "Ann"]


def test_held_seats_are_free_once_the_hold_ends(make_app):
    client = make_app("toy", REMATCH_HOLD_SECONDS=0).test_client()
    game_id, tokens = ended_game(client)
    next_id = client.post(f"/games/{game_id}/rematch", headers=auth(tokens[0])).get_json()[
        "game_id"
    ]
    assert client.post(f"/games/{next_id}/players", json={"name": "Eve"}).status_code == 201


def test_bots_sit_again_and_a_player_key_takes_its_seat(toy_client):
    key = toy_client.post("/players", json={"name": "Ann"}).get_json()["key"]
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)
    ann = toy_client.post(f"/games/{game_id}/players", json={}, headers=auth(key)).get_json()
    bot = toy_client.post(f"/games/{game_id}/players", json={"bot": "random"}, headers=auth(host))
    assert bot.status_code == 201
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    play_to_end(toy_client, game_id, [ann["token"], ""])  # the bot's seat never acts here
    next_game = toy_client.post(f"/games/{game_id}/rematch", headers=auth(key)).get_json()["game"]
    assert [(p["name"], p["bot"]) for p in next_game["players"]] == [("Random bot 1", "random")]
    r = toy_client.post(f"/games/{next_game['id']}/players", json={}, headers=auth(key))
    assert r.status_code == 201
    page = toy_client.get("/players/me/games?status=running", headers=auth(key)).get_json()
    assert [g["id"] for g in page["games"]] == [next_game["id"]]


def test_only_players_of_an_ended_game_may_ask(toy_client):
    game_id, host = create(toy_client, players=2, rounds=1)
    seat, token = join(toy_client, game_id, "Ann")
    assert_problem(
        toy_client.post(f"/games/{game_id}/rematch", headers=auth(token)), 409, "game-not-over"
    )
    assert_problem(
        toy_client.post(f"/games/{game_id}/rematch", headers=auth(host)), 403, "seat-token-required"
    )
    assert_problem(toy_client.post(f"/games/{game_id}/rematch"), 401, "missing-token")
