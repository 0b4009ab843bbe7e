"""Players (issue 30): a player and its key, seats bound to it, "my games", private
tables and tables that start when full (toy game, real Redis)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from clients.cli import admin
from tests.conftest import CLUSTER
from tests.kit.helpers import assert_problem, auth, create, join, sent_to_redis


def new_player(client: FlaskClient, name: str) -> tuple[str, str]:
    r = client.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    return body["id"], body["key"]


def join_as(client: FlaskClient, game_id: str, key: str, **body: Any) -> dict[str, Any]:
    r = client.post(f"/games/{game_id}/players", json=body, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return dict(r.get_json())


def my_games(client: FlaskClient, key: str, query: str = "") -> dict[str, Any]:
    r = client.get(f"/players/me/games{query}", headers=auth(key))
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def test_a_player_gets_a_key_shown_once_and_stored_hashed(toy_client, redis_client):
    r = toy_client.post("/players", json={"name": "Ann"})
    assert r.status_code == 201
    body = r.get_json()
    assert list(body) == ["id", "name", "external_id", "created_at", "key"]
    assert body["key"].startswith(f"bgp_{body['id']}_") and body["name"] == "Ann"
    stored = redis_client.hgetall(f"players:{{{body['id']}}}")
    assert body["key"] not in str(stored) and stored["name"] == "Ann"
    me = toy_client.get("/players/me", headers=auth(body["key"]))
    assert me.status_code == 200
    assert me.get_json() == {k: v for k, v in body.items() if k != "key"}


@pytest.mark.parametrize("header", [None, "Bearer bgp_0123456789abcdef_" + "x" * 43, "Bearer abc"])
def test_me_needs_a_valid_player_key(toy_client, header):
    headers = {} if header is None else {"Authorization": header}
    r = toy_client.get("/players/me", headers=headers)
    expected = {None: (401, "player-key-required"), "Bearer abc": (403, "player-key-required")}
    status, code = expected.get(header, (403, "invalid-player-key"))
    assert_problem(r, status, code)


def test_a_forged_key_with_a_real_player_id_is_refused(toy_client):
    player_id, key = new_player(toy_client, "Ann")
    forged = key[:-1] + ("A" if key[-1] != "A" else "B")
    assert_problem(toy_client.get("/players/me", headers=auth(forged)), 403, "invalid-player-key")


def test_joining_with_a_player_key_binds_the_seat(toy_client):
    _, ann = new_player(toy_client, "Ann")
    _, bob = new_player(toy_client, "Bob")
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)  # seat 0 calls first
    joined = join_as(toy_client, game_id, ann)  # the player's own name
    assert joined["seat"] == 0 and joined["token"] and joined["game"]["players"][0]["name"] == "Ann"
    join_as(toy_client, game_id, bob, name="Bobby")
    assert toy_client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    # the key acts for its seat: the view, legal moves and a move
    view = toy_client.get(f"/games/{game_id}", headers=auth(ann)).get_json()
    assert view["you"] == 0
    r = toy_client.post(
        f"/games/{game_id}/moves", json={"type": "call", "value": 2}, headers=auth(ann)
    )
    assert r.status_code == 200, r.get_json()
    # and the seat token the join gave still works
    r = toy_client.get(f"/games/{game_id}/legal-moves", headers=auth(joined["token"]))
    assert r.status_code == 200


def test_a_player_key_acts_only_for_its_own_seats(toy_client):
    _, ann = new_player(toy_client, "Ann")
    _, eve = new_player(toy_client, "Eve")
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)  # seat 0 calls first
    join_as(toy_client, game_id, ann)
    join(toy_client, game_id, "Bob")
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    # Eve sits nowhere: she watches as anyone may, and may not move or resign
    assert toy_client.get(f"/games/{game_id}", headers=auth(eve)).get_json()["you"] is None
    move = {"type": "call", "value": 1}
    r = toy_client.post(f"/games/{game_id}/moves", json=move, headers=auth(eve))
    assert_problem(r, 403, "player-not-seated")
    assert_problem(
        toy_client.post(f"/games/{game_id}/resign", headers=auth(eve)), 403, "player-not-seated"
    )
    assert_problem(
        toy_client.delete(f"/games/{game_id}", headers=auth(ann)), 403, "host-token-required"
    )


def test_a_player_sits_once_in_a_game(toy_client):
    _, ann = new_player(toy_client, "Ann")
    game_id, _ = create(toy_client, players=3, rounds=1)
    join_as(toy_client, game_id, ann)
    r = toy_client.post(f"/games/{game_id}/players", json={"name": "Ann2"}, headers=auth(ann))
    assert_problem(r, 409, "already-seated")


def test_a_player_who_creates_a_game_may_host_it(toy_client):
    _, ann = new_player(toy_client, "Ann")
    r = toy_client.post("/games", json={"players": 2, "rounds": 1}, headers=auth(ann))
    game_id = r.get_json()["id"]
    join_as(toy_client, game_id, ann)
    join(toy_client, game_id, "Bob")
    assert toy_client.post(f"/games/{game_id}/start", headers=auth(ann)).status_code == 200


def test_my_games_newest_activity_first_with_my_turn(toy_client):
    _, ann = new_player(toy_client, "Ann")
    ids = []
    for n in range(3):
        game_id, host = create(toy_client, players=2, rounds=1, seed=n)
        join_as(toy_client, game_id, ann)
        join(toy_client, game_id, f"Bob{n}")
        ids.append((game_id, host))
    first, host = ids[0]
    toy_client.post(f"/games/{first}/start", headers=auth(host))  # the newest activity
    page = my_games(toy_client, ann)
    assert [g["id"] for g in page["games"]] == [first, ids[2][0], ids[1][0]]
    entry = page["games"][0]
    assert entry["status"] == "running" and entry["seat"] == 0 and entry["game"] == "toy"
    caller = entry["my_turn"]  # the toy game's first caller is seat 0
    assert caller is True and entry["players"] == [{"seat": 1, "name": "Bob0", "bot": None}]
    assert [g["id"] for g in my_games(toy_client, ann, "?turn=mine")["games"]] == [first]
    assert len(my_games(toy_client, ann, "?status=open")["games"]) == 2
    assert my_games(toy_client, ann, "?status=finished")["games"] == []


def test_my_games_pages_follow_the_cursor(toy_client):
    _, ann = new_player(toy_client, "Ann")
    made = []
    for _ in range(5):
        game_id, _ = create(toy_client, players=2, rounds=1)
        join_as(toy_client, game_id, ann)
        made.append(game_id)
    seen, cursor = [], ""
    while True:
        page = my_games(toy_client, ann, f"?limit=2{cursor}")
        seen += [g["id"] for g in page["games"]]
        if page["next_cursor"] is None:
            break
        cursor = f"&cursor={page['next_cursor']}"
    assert seen == made[::-1]


def test_a_move_with_players_seated_still_costs_two_round_trips(toy_client):
    _, ann = new_player(toy_client, "Ann")
    _, bob = new_player(toy_client, "Bob")
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)  # seat 0 calls first
    ann_token = join_as(toy_client, game_id, ann)["token"]
    join_as(toy_client, game_id, bob)
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    with sent_to_redis() as sent:
        r = toy_client.post(
            f"/games/{game_id}/moves", json={"type": "call", "value": 1}, headers=auth(ann_token)
        )
    assert r.status_code == 200
    if not CLUSTER:
        assert len(sent) == 2  # the read, then one EVALSHA that also keeps both players' indexes
        return
    # on a cluster the indexes are in the players' slots: one pipeline each after the write
    assert [c.split(b"\r\n")[2] for c in sent[:2]] == [b"MGET", b"EVALSHA"]
    extra = [c for c in sent[2:] if b":whq:" not in c]  # (the webhooks' ready signal)
    assert len(extra) == 2 and all(b":pl:{" in c for c in extra)


def test_a_move_made_with_a_player_key_costs_two_round_trips_and_checks_the_key(toy_client):
    _, ann = new_player(toy_client, "Ann")
    _, bob = new_player(toy_client, "Bob")
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)  # seat 0 calls first
    join_as(toy_client, game_id, ann)
    join_as(toy_client, game_id, bob)
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    move = {"type": "call", "value": 1}
    forged = ann[:-4] + ("AAAA" if not ann.endswith("AAAA") else "BBBB")
    for key in (forged, bob + "x"):  # a wrong secret, a malformed key: nothing is played
        r = toy_client.post(f"/games/{game_id}/moves", json=move, headers=auth(key))
        assert_problem(r, 403, "invalid-player-key")
    assert toy_client.get(f"/games/{game_id}").get_json()["version"] == 4
    r = toy_client.post(f"/games/{game_id}/moves", json=move, headers=auth(bob))
    assert_problem(r, 409, "not-your-turn")
    with sent_to_redis() as sent:
        r = toy_client.post(f"/games/{game_id}/moves", json=move, headers=auth(ann))
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["game"]["you"] == 0
    commands = [c.split(b"\r\n")[2] for c in sent]
    if not CLUSTER:  # the game, its tail and the key (and suspension) in one pipeline; the write
        assert commands == [b"GET", b"EVALSHA"] and b"HMGET" in sent[0]
        return
    # on a cluster the registry is in another slot: one more round trip, first
    assert commands[:3] == [b"HMGET", b"MGET", b"EVALSHA"]


def test_unlisted_games_are_in_no_listing_and_need_their_code(toy_client):
    r = toy_client.post("/games", json={"players": 2, "rounds": 1, "visibility": "unlisted"})
    body = r.get_json()
    game_id, code = body["id"], body["invite_code"]
    assert len(code) >= 22 and body["join_link"] == f"/play?game={game_id}&invite={code}"
    public_id, _ = create(toy_client, players=2, rounds=1)
    listed = [g["id"] for g in toy_client.get("/games").get_json()["games"]]
    assert listed == [public_id]
    r = toy_client.post(f"/games/{game_id}/players", json={"name": "Ann"})
    assert_problem(r, 403, "invite-required")
    r = toy_client.post(f"/games/{game_id}/players", json={"name": "Ann", "invite": code[::-1]})
    assert_problem(r, 403, "invalid-invite")
    r = toy_client.post(f"/games/{game_id}/players", json={"name": "Ann", "invite": code})
    assert r.status_code == 201


def test_a_public_game_made_to_start_when_full_starts_with_its_last_seat(toy_client):
    game_id, _ = create(toy_client, players=2, rounds=1, start="when_full")
    join(toy_client, game_id, "Ann")
    assert toy_client.get(f"/games/{game_id}").get_json()["status"] == "open"
    seat, token = join(toy_client, game_id, "Bob")
    view = toy_client.get(f"/games/{game_id}", headers=auth(token)).get_json()
    assert view["status"] == "running" and view["version"] == 3


@pytest.fixture
def platform(make_app: Callable[..., Flask], tmp_path: Path) -> tuple[FlaskClient, str, str]:
    keys = tmp_path / "keys.json"
    acme, _ = admin.add(keys, "acme", 0, 0)
    globex, _ = admin.add(keys, "globex", 0, 0)
    return make_app("toy", API_KEYS_FILE=str(keys)).test_client(), acme, globex


def test_a_platform_names_its_players_and_acts_for_them(platform):
    client, acme, globex = platform
    assert_problem(client.post("/players", json={"name": "Ann"}), 401, "api-key-required")
    made = client.post("/players", json={"name": "Ann", "external_id": "u-1"}, headers=auth(acme))
    assert made.status_code == 201 and made.get_json()["external_id"] == "u-1"
    again = client.post("/players", json={"name": "Ann", "external_id": "u-1"}, headers=auth(acme))
    assert again.status_code == 200 and again.get_json()["key"] is None
    assert again.get_json()["id"] == made.get_json()["id"]
    other = client.post(
        "/players", json={"name": "Zed", "external_id": "u-1"}, headers=auth(globex)
    )
    assert other.status_code == 201 and other.get_json()["id"] != made.get_json()["id"]
    as_ann = {**auth(acme), "X-Player": "u-1"}
    assert client.get("/players/me", headers=as_ann).get_json()["name"] == "Ann"
    game_id = client.post(
        "/games", json={"players": 2, "rounds": 1}, headers=auth(acme)
    ).get_json()["id"]
    r = client.post(f"/games/{game_id}/players", json={}, headers=as_ann)
    assert r.status_code == 201 and r.get_json()["seat"] == 0
    page = client.get("/players/me/games", headers=as_ann).get_json()
    assert [g["id"] for g in page["games"]] == [game_id]
    # another key cannot act for acme's player, nor name an unknown one
    r = client.get("/players/me", headers={**auth(globex), "X-Player": "u-2"})
    assert_problem(r, 404, "player-not-found")
    r = client.get("/players/me", headers={**auth("bgk_nope"), "X-Player": "u-1"})
    assert_problem(r, 403, "invalid-api-key")


def test_export_holds_the_player_its_games_seats_and_moves(toy_client):
    player_id, ann = new_player(toy_client, "Ann")
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)
    join_as(toy_client, game_id, ann, name="Annie")
    join(toy_client, game_id, "Bob")
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    move = {"type": "call", "value": 2}
    assert (
        toy_client.post(f"/games/{game_id}/moves", json=move, headers=auth(ann)).status_code == 200
    )
    body = toy_client.get("/players/me/export", headers=auth(ann)).get_json()
    assert body["player"]["id"] == player_id and body["player"]["name"] == "Ann"
    (game,) = body["games"]
    assert (game["id"], game["seat"], game["name"]) == (game_id, 0, "Annie")
    assert game["moves"] == [{"version": 5, "move": move}]


def test_delete_revokes_the_key_and_erases_the_name_everywhere(toy_client):
    _, ann = new_player(toy_client, "Ann")
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)
    token = join_as(toy_client, game_id, ann, name="Annabel")["token"]
    join(toy_client, game_id, "Bob")
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    assert toy_client.delete("/players/me", headers=auth(ann)).status_code == 204
    assert_problem(toy_client.get("/players/me", headers=auth(ann)), 403, "invalid-player-key")
    view = toy_client.get(f"/games/{game_id}").get_json()
    assert [p["name"] for p in view["players"]] == ["Deleted player", "Bob"]
    log = toy_client.get(f"/games/{game_id}/log").get_data(as_text=True)
    events = toy_client.get(f"/games/{game_id}/events").get_data(as_text=True)
    assert "Annabel" not in log and "Annabel" not in events and "Deleted player" in log
    # the game goes on: the seat token still plays the seat
    move = {"type": "call", "value": 1}
    assert (
        toy_client.post(f"/games/{game_id}/moves", json=move, headers=auth(token)).status_code
        == 200
    )


def test_the_worker_erases_a_deleted_player_in_the_other_service(make_app, redis_client):
    from shared.worker.loop import Worker, build_games

    windcity = make_app("windcity").test_client()
    manhattan = make_app("manhattan").test_client()
    ann_id, ann = new_player(manhattan, "Ann")
    made = windcity.post("/games", json={"players": 2}).get_json()
    wc_id = made["id"]
    join_as(windcity, wc_id, ann, name="Annabel")
    join(windcity, wc_id, "Bob")
    assert (
        windcity.post(f"/games/{wc_id}/start", headers=auth(made["host_token"])).status_code == 200
    )
    said = windcity.post(f"/games/{wc_id}/chat", json={"text": "hi"}, headers=auth(ann))
    assert said.get_json()["message"]["name"] == "Annabel"
    assert manhattan.delete("/players/me", headers=auth(ann)).status_code == 204
    settings = dict(manhattan.application.config)
    worker = Worker(build_games({**settings, "WORKER_GAMES": "manhattan,windcity"}), settings)
    worker.tick()
    view = windcity.get(f"/games/{wc_id}").get_json()
    assert [p["name"] for p in view["players"]] == ["Deleted player", "Bob"]
    (message,) = windcity.get(f"/games/{wc_id}/chat").get_json()["messages"]
    assert (message["name"], message["player"], message["text"]) == ("Deleted player", None, "hi")
    stored = str(redis_client.xrange(f"wc:{{{wc_id}}}:chat"))  # rewritten, not only shown so
    assert "hi" in stored and "Annabel" not in stored and ann_id not in stored
    assert redis_client.smembers("players:erasing") == set()
