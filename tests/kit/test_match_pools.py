"""Quick match's pools (issue 39): one per tenant, and a table whose seat is freed while it
waits (a leave, an erasure) goes back to its pool, fills and starts (toy game, real
Redis; on Redis Cluster too with ``TEST_REDIS_CLUSTER=1``)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from shared.usecases import matches
from tests.kit.helpers import auth
from tests.kit.test_matches import match
from tests.kit.test_players import new_player, platform  # noqa: F401 (a fixture)


def as_user(api_key: str, external: str) -> dict[str, str]:
    return {**auth(api_key), "X-Player": external}


def platform_match(client: FlaskClient, api_key: str, external: str, **body: Any) -> Any:
    r = client.post("/matches", json=body, headers=as_user(api_key, external))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_tenants_never_share_a_table(platform):  # noqa: F811
    client, acme, globex = platform
    for key, user in ((acme, "a-1"), (globex, "g-1"), (acme, "a-2"), (globex, "g-2")):
        made = client.post("/players", json={"name": user, "external_id": user}, headers=auth(key))
        assert made.status_code == 201, made.get_json()
    first = platform_match(client, acme, "a-1", players=2)
    other = platform_match(client, globex, "g-1", players=2)
    assert other["game_id"] != first["game_id"] and other["seat"] == 0
    assert platform_match(client, acme, "a-2", players=2)["game_id"] == first["game_id"]
    assert platform_match(client, globex, "g-2", players=2)["game_id"] == other["game_id"]
    for game_id, names in ((first["game_id"], ["a-1", "a-2"]), (other["game_id"], ["g-1", "g-2"])):
        view = client.get(f"/games/{game_id}").get_json()
        assert view["status"] == "running"
        assert [p["name"] for p in view["players"]] == names


def test_a_table_someone_left_fills_again_and_starts(toy_client, toy_app):
    keys = [new_player(toy_client, f"P{n}")[1] for n in range(4)]
    first = match(toy_client, keys[0], players=3)
    assert match(toy_client, keys[1], players=3)["game_id"] == first["game_id"]
    left = toy_client.delete(f"/games/{first['game_id']}/players/me", headers=auth(keys[0]))
    assert left.status_code == 200, left.get_json()
    kit = toy_app.extensions["game_kit"].games
    pool = matches.pool_of(kit.writes.load(first["game_id"]))
    assert kit.store.pooled(pool) == {first["game_id"]: 1}
    assert match(toy_client, keys[2], players=3)["game_id"] == first["game_id"]
    last = match(toy_client, keys[3], players=3)
    assert last["game_id"] == first["game_id"] and last["game"]["status"] == "running"
    names = [p["name"] for p in last["game"]["players"]]
    assert names == ["P1", "P2", "P3"]
    assert kit.store.pooled(pool) == {}
    # the one who left may ask again: a new table, not the one it left
    again = match(toy_client, keys[0], players=3)
    assert again["game_id"] != first["game_id"] and again["seat"] == 0


def test_a_table_left_when_full_of_claims_comes_back(toy_client, toy_app):
    keys = [new_player(toy_client, f"P{n}")[1] for n in range(3)]
    first = match(toy_client, keys[0], players=2)
    kit = toy_app.extensions["game_kit"].games
    pool = matches.pool_of(kit.writes.load(first["game_id"]))
    toy_client.delete(f"/games/{first['game_id']}/players/me", headers=auth(keys[0]))
    second = match(toy_client, keys[1], players=2)
    assert second["game_id"] == first["game_id"] and second["seat"] == 0
    third = match(toy_client, keys[2], players=2)
    assert third["game_id"] == first["game_id"] and third["game"]["status"] == "running"
    assert kit.store.pooled(pool) == {}


def test_erasure_frees_a_seat_at_an_open_table(toy_client, toy_app):
    keys = [new_player(toy_client, f"P{n}")[1] for n in range(4)]
    first = match(toy_client, keys[0], players=3)
    match(toy_client, keys[1], players=3)
    assert toy_client.delete("/players/me", headers=auth(keys[0])).status_code == 204
    view = toy_client.get(f"/games/{first['game_id']}").get_json()
    assert [p["name"] for p in view["players"]] == ["P1"]
    for path in ("log", "events"):
        text = toy_client.get(f"/games/{first['game_id']}/{path}").get_data(as_text=True)
        assert '"P0"' not in text, path
    # two more fill the table: the game starts with three players who will play
    match(toy_client, keys[2], players=3)
    last = match(toy_client, keys[3], players=3)
    assert last["game_id"] == first["game_id"] and last["game"]["status"] == "running"
    assert [p["name"] for p in last["game"]["players"]] == ["P1", "P2", "P3"]


def test_erasure_frees_a_seat_of_any_open_game(toy_client):
    _, ann = new_player(toy_client, "Ann")
    game = toy_client.post("/games", json={"players": 3}).get_json()
    r = toy_client.post(f"/games/{game['id']}/players", json={}, headers=auth(ann))
    assert r.status_code == 201
    toy_client.post(f"/games/{game['id']}/players", json={"name": "Bob"})
    assert toy_client.delete("/players/me", headers=auth(ann)).status_code == 204
    view = toy_client.get(f"/games/{game['id']}").get_json()
    assert [(p["seat"], p["name"]) for p in view["players"]] == [(0, "Bob")]
    events = toy_client.get(f"/games/{game['id']}/log").get_json()["events"]
    assert events[-1]["type"] == "player_left" and events[-1]["name"] == "Deleted player"
