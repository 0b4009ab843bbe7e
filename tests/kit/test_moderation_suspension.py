"""Suspension (issue 41): a suspended player refused on every route (player key, API
key + X-Player, a move's key read with the game), lifted or ended by itself, and its
seats handed to the takeover bot by the worker in one tick (toy game, real Redis)."""

from __future__ import annotations

import pytest

from tests.kit.helpers import assert_problem, auth
from tests.kit.test_moderation import game_with, player

# -- suspension ---------------------------------------------------------------------------


def test_a_suspended_player_is_refused_everywhere_until_lifted(mod_client, mod_keys, redis_client):
    ann_id, ann = player(mod_client, mod_keys, "Ann")
    bob_id, bob = player(mod_client, mod_keys, "Bob")
    gid = game_with(mod_client, mod_keys, ann, bob)
    r = mod_client.put(
        f"/admin/players/{ann_id}/suspension",
        json={"seconds": 3600, "reason": "abuse"},
        headers=auth(mod_keys["admin"]),
    )
    assert r.status_code == 200 and r.get_json()["player"] == ann_id
    until = r.get_json()["until"]
    for method, path in (
        ("get", "/players/me"),
        ("get", "/players/me/blocks"),
        ("post", "/matches"),
    ):
        refused = getattr(mod_client, method)(path, headers=auth(ann))
        assert_problem(refused, 403, "player-suspended")
        assert refused.get_json()["until"] == until
    move = mod_client.post(
        f"/games/{gid}/moves", json={"type": "call", "value": 1}, headers=auth(ann)
    )
    assert_problem(move, 403, "player-suspended")
    assert mod_client.get("/players/me", headers=auth(bob)).status_code == 200
    assert redis_client.sismember("players:suspending", ann_id)
    lifted = mod_client.delete(
        f"/admin/players/{ann_id}/suspension",
        json={"reason": "appeal"},
        headers=auth(mod_keys["admin"]),
    )
    assert lifted.status_code == 204
    assert mod_client.get("/players/me", headers=auth(ann)).status_code == 200
    again = mod_client.delete(
        f"/admin/players/{ann_id}/suspension", headers=auth(mod_keys["admin"])
    )
    assert_problem(again, 404, "not-suspended")
    actions = [
        e["action"]
        for e in mod_client.get("/admin/audit", headers=auth(mod_keys["admin"])).get_json()[
            "entries"
        ]
    ]
    assert actions == ["player.unsuspend", "player.suspend"]


def test_a_suspended_player_cannot_talk_with_its_seat_token_either(mod_app, mod_client, mod_keys):
    """A seat token of a player's seat talks as that player (its blocks hold so): a
    suspension silences it too, before and after the worker hands the seat to a bot,
    until it is lifted; a seat token of no player's seat is nobody's to suspend."""
    from shared.worker.loop import Worker

    ann_id, ann = player(mod_client, mod_keys, "Ann")
    r = mod_client.post("/games", json={"players": 2, "rounds": 1}, headers=auth(mod_keys["plain"]))
    gid, host = r.get_json()["id"], r.get_json()["host_token"]
    seat = mod_client.post(f"/games/{gid}/players", json={}, headers=auth(ann)).get_json()
    other = mod_client.post(f"/games/{gid}/players", json={"name": "Guest"}).get_json()
    assert mod_client.post(f"/games/{gid}/start", headers=auth(host)).status_code == 200
    url, text = f"/games/{gid}/chat", {"text": "you all stink"}
    assert mod_client.post(url, json=text, headers=auth(seat["token"])).status_code == 201
    admin = auth(mod_keys["admin"])
    reason = {"seconds": 600, "reason": "abuse"}
    mod_client.put(f"/admin/players/{ann_id}/suspension", json=reason, headers=admin)
    for bearer in (seat["token"], ann):
        refused = mod_client.post(url, json=text, headers=auth(bearer))
        assert_problem(refused, 403, "player-suspended")
    assert (
        mod_client.post(url, json={"phrase": "gg"}, headers=auth(other["token"])).status_code == 201
    )
    said = [m["text"] for m in mod_client.get(url, headers=auth(host)).get_json()["messages"]]
    assert said == ["you all stink", None]  # nothing stored from the refused ones
    Worker([mod_app.extensions["game_kit"].games], dict(mod_app.config)).tick()
    assert mod_client.get(f"/games/{gid}").get_json()["players"][0]["status"] == "abandoned"
    refused = mod_client.post(url, json=text, headers=auth(seat["token"]))
    assert_problem(refused, 403, "player-suspended")
    mod_client.delete(f"/admin/players/{ann_id}/suspension", json={}, headers=admin)
    assert mod_client.post(url, json=text, headers=auth(seat["token"])).status_code == 201


def test_an_api_key_acting_for_a_suspended_player_is_refused(mod_client, mod_keys):
    r = mod_client.post(
        "/players", json={"name": "Plat", "external_id": "u9"}, headers=auth(mod_keys["plain"])
    )
    pid = r.get_json()["id"]
    mod_client.put(
        f"/admin/players/{pid}/suspension",
        json={"seconds": 60, "reason": "x"},
        headers=auth(mod_keys["admin"]),
    )
    headers = {**auth(mod_keys["plain"]), "X-Player": "u9"}
    assert_problem(mod_client.get("/players/me", headers=headers), 403, "player-suspended")


def test_a_suspension_ends_by_itself(mod_client, mod_keys, redis_client):
    ann_id, ann = player(mod_client, mod_keys, "Ann")
    redis_client.hset(f"players:{{{ann_id}}}", "suspended", "1000")  # long past
    assert mod_client.get("/players/me", headers=auth(ann)).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {"reason": "x"},
        {"seconds": 0, "reason": "x"},
        {"seconds": 5},
        {"seconds": 5, "until": "2020-01-01T00:00:00Z", "reason": "x"},
        {"until": "2020-01-01T00:00:00Z", "reason": "x"},
    ],
)
def test_a_suspension_needs_one_end_in_the_future_and_a_reason(mod_client, mod_keys, body):
    ann_id, _ = player(mod_client, mod_keys, "Ann")
    r = mod_client.put(
        f"/admin/players/{ann_id}/suspension", json=body, headers=auth(mod_keys["admin"])
    )
    assert_problem(r, 422, "validation-error")


def test_the_worker_hands_a_suspended_players_seat_to_the_bot_in_one_tick(
    mod_app, mod_client, mod_keys
):
    from shared.worker.loop import Worker

    ann_id, ann = player(mod_client, mod_keys, "Ann")
    _, bob = player(mod_client, mod_keys, "Bob")
    r = mod_client.post(
        "/games",
        json={"players": 2, "rounds": 2, "seed": 4, "takeover": "greedy"},
        headers=auth(mod_keys["plain"]),
    )
    gid, host = r.get_json()["id"], r.get_json()["host_token"]
    mod_client.post(f"/games/{gid}/players", json={}, headers=auth(ann))
    mod_client.post(f"/games/{gid}/players", json={}, headers=auth(bob))
    assert mod_client.post(f"/games/{gid}/start", headers=auth(host)).status_code == 200
    before = mod_client.get(f"/games/{gid}").get_json()
    assert before["to_act"] == [0]  # Ann (seat 0) is to act
    open_game = game_with(mod_client, mod_keys, ann, players=3)
    mod_client.put(
        f"/admin/players/{ann_id}/suspension",
        json={"seconds": 600, "reason": "x"},
        headers=auth(mod_keys["admin"]),
    )
    kit = mod_app.extensions["game_kit"].games
    worker = Worker([kit], dict(mod_app.config))
    worker.tick()
    after = mod_client.get(f"/games/{gid}").get_json()
    assert after["players"][0]["status"] == "abandoned" and after["players"][0]["bot"] == "greedy"
    assert after["version"] > before["version"] + 1  # the takeover, and the bot's move
    log = mod_client.get(f"/games/{gid}/log").get_json()["events"]
    assert any(e["type"] == "seat_abandoned" and e["seat"] == 0 for e in log)
    assert mod_client.get(f"/games/{open_game}").get_json()["players"] == []  # freed
    assert mod_app.extensions["game_kit"].games.store.moderation.suspending() == []
