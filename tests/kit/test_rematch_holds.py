"""Rematch holds and erasure (issue 39): the name a held seat is taken under is the one
its event tells, a deleted player's hold goes with it, and racing rematches leave one
game in the listing (toy game, real Redis)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from flask.testing import FlaskClient

from tests.kit.helpers import assert_problem, auth, create, join
from tests.kit.test_players import new_player
from tests.kit.test_rematch import ended_game, play_to_end


def keyed_ended_game(client: FlaskClient, seat_name: str) -> tuple[str, str, list[str]]:
    """A finished game: a player (registry name ``Ann``) seated as ``seat_name``, and
    ``Bob``; the game id, Ann's key and both seat tokens."""
    _, key = new_player(client, "Ann")
    game_id, host = create(client, players=2, rounds=1, seed=4)
    r = client.post(f"/games/{game_id}/players", json={"name": seat_name}, headers=auth(key))
    tokens = [r.get_json()["token"], join(client, game_id, "Bob")[1]]
    assert client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    assert play_to_end(client, game_id, tokens)["status"] == "finished"
    return game_id, key, tokens


def rematch_of(client: FlaskClient, game_id: str, token: str) -> str:
    r = client.post(f"/games/{game_id}/rematch", headers=auth(token))
    assert r.status_code in (200, 201), r.get_json()
    return str(r.get_json()["game_id"])


def joined_names(client: FlaskClient, game_id: str) -> list[str]:
    events = client.get(f"/games/{game_id}/log").get_json()["events"]
    return [e["name"] for e in events if e["type"] == "player_joined"]


def test_a_hold_taken_with_a_player_key_is_told_under_its_seat_name(toy_client):
    game_id, key, _ = keyed_ended_game(toy_client, "Annabel")
    next_id = rematch_of(toy_client, game_id, key)
    r = toy_client.post(f"/games/{next_id}/players", json={}, headers=auth(key))
    assert r.status_code == 201
    assert joined_names(toy_client, next_id) == ["Annabel"]
    assert toy_client.delete("/players/me", headers=auth(key)).status_code == 204
    for path in ("log", "events"):
        text = toy_client.get(f"/games/{next_id}/{path}").get_data(as_text=True)
        assert "Ann" not in text.replace("Deleted player", ""), path


def test_a_hold_taken_under_another_name_keeps_its_own_in_the_event(toy_client):
    game_id, tokens = ended_game(toy_client)
    next_id = rematch_of(toy_client, game_id, tokens[0])
    r = toy_client.post(f"/games/{next_id}/players", json={"name": "Bob"}, headers=auth(tokens[0]))
    assert r.status_code == 201
    assert [p["name"] for p in r.get_json()["game"]["players"]] == ["Ann"]
    assert joined_names(toy_client, next_id) == ["Ann"]


def test_a_deleted_players_hold_goes_with_it(toy_client):
    game_id, key, tokens = keyed_ended_game(toy_client, "Annabel")
    next_id = rematch_of(toy_client, game_id, tokens[1])
    assert toy_client.delete("/players/me", headers=auth(key)).status_code == 204
    # the old seat token takes no hold: the seat it gets is a new one, under a new name
    r = toy_client.post(f"/games/{next_id}/players", json={}, headers=auth(tokens[0]))
    assert_problem(r, 422, "validation-error")
    r = toy_client.post(f"/games/{next_id}/players", json={"name": "Zed"}, headers=auth(tokens[0]))
    assert r.status_code == 201
    assert [p["name"] for p in r.get_json()["game"]["players"]] == ["Zed"]
    for path in ("", "/log", "/events"):
        text = toy_client.get(f"/games/{next_id}{path}").get_data(as_text=True)
        assert "Annabel" not in text, path


def test_racing_rematches_leave_one_id_in_the_listing(make_app, redis_client):
    app = make_app("toy")
    client = app.test_client()
    game_id, tokens = ended_game(client)
    store = app.extensions["game_kit"].games.store

    def ask(n: int) -> str:
        return rematch_of(app.test_client(), game_id, tokens[n % 2])

    with ThreadPoolExecutor(10) as pool:
        ids = set(pool.map(ask, range(10)))
    assert len(ids) == 1
    indexed = set(redis_client.zrange(store.index_key, 0, -1))
    assert indexed == {game_id, *ids}
    assert set(redis_client.zrange(store.tracking.status_key("open"), 0, -1)) == ids
