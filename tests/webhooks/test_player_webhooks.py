"""A player's webhook (issue 30): ``/players/me/webhook``, told ``your_turn`` and
``game_over`` of every game the player sits in; delivered by the worker's own code
(in process, and once by real worker processes) to a real receiver."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient
from standardwebhooks.webhooks import Webhook

from shared.webhooks.delivery import Deliverer
from tests.webhooks.conftest import KEY, WORKER_ENV, Receiver
from tests.webhooks.test_ssrf import REFUSED
from tests.worker.helpers import wait_for

HOOKS = {"WEBHOOK_SIGNING_KEY": KEY, "WEBHOOK_ALLOW_PRIVATE": True}
ALLOWED_DATA = {
    "game_id", "game", "version", "status", "to_act", "deadlines", "seat", "turn", "result",
}  # fmt: skip
HIDDEN = ("hand", "seed", "salt", "token", "state", "card", "rng", "key")


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _player(client: FlaskClient, name: str) -> tuple[str, str]:
    r = client.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"], r.get_json()["key"]


def _hook(client: FlaskClient, key: str, url: str, **body: Any) -> dict[str, Any]:
    r = client.put("/players/me/webhook", json={"url": url, **body}, headers=_auth(key))
    assert r.status_code in (200, 201), r.get_json()
    return dict(r.get_json())


def _game(client: FlaskClient, *keys: str) -> str:
    """A started toy game of one round, seat n taken by ``keys[n]``'s player."""
    r = client.post("/games", json={"players": len(keys), "rounds": 1, "seed": 4})
    assert r.status_code == 201, r.get_json()
    game_id, host = r.get_json()["id"], r.get_json()["host_token"]
    for key in keys:
        r = client.post(f"/games/{game_id}/players", json={}, headers=_auth(key))
        assert r.status_code == 201, r.get_json()
    r = client.post(f"/games/{game_id}/start", headers=_auth(host))
    assert r.status_code == 200, r.get_json()
    return str(game_id)


def _step(client: FlaskClient, game_id: str, keys: tuple[str, ...]) -> bool:
    """Every seat to act makes its first legal move; whether the game still runs."""
    view = client.get(f"/games/{game_id}").get_json()
    if view["status"] != "running":
        return False
    for seat in view["to_act"]:
        moves = client.get(f"/games/{game_id}/legal-moves", headers=_auth(keys[seat]))
        r = client.post(
            f"/games/{game_id}/moves", json=moves.get_json()["moves"][0], headers=_auth(keys[seat])
        )
        assert r.status_code == 200, r.get_json()
    return True


def _deliver(app: Flask) -> None:
    """What a worker does: deliver everything due (the worker's own code)."""
    deliverer = Deliverer([app.extensions["game_kit"].games.store], HOOKS)
    deliverer.idle_ms = 0
    deliverer.settle(10)
    deliverer.close()


@pytest.fixture
def hooked(make_app) -> Iterator[tuple[Flask, FlaskClient, Receiver]]:
    app = make_app("toy", **HOOKS)
    rec = Receiver()
    rec.start()
    yield app, app.test_client(), rec
    rec.stop()


@pytest.mark.parametrize("url", [REFUSED[0], REFUSED[3], REFUSED[9], "ftp://example.com/h"])
def test_a_refused_url_is_refused_as_for_the_games(make_app, url: str) -> None:
    client = make_app("toy", WEBHOOK_SIGNING_KEY=KEY).test_client()
    _, key = _player(client, "Ann")
    r = client.put("/players/me/webhook", json={"url": url}, headers=_auth(key))
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["code"] == "webhook-url-refused"
    assert client.get("/players/me/webhook", headers=_auth(key)).status_code == 404


def test_what_a_registration_needs(make_app) -> None:
    client = make_app("toy", **HOOKS).test_client()
    _, key = _player(client, "Ann")
    url = "http://127.0.0.1:8089/h"
    for body in ({}, {"url": url, "events": ["game.turn"]}, {"url": url, "events": []}):
        r = client.put("/players/me/webhook", json=body, headers=_auth(key))
        assert r.status_code == 422 and r.get_json()["code"] == "validation-error", body
    r = client.put("/players/me/webhook", json={"url": url})
    assert r.status_code == 401 and r.get_json()["code"] == "player-key-required"
    game_id = client.post("/games", json={"players": 2}).get_json()["id"]
    seat_token = client.post(f"/games/{game_id}/players", json={"name": "x"}).get_json()["token"]
    r = client.put("/players/me/webhook", json={"url": url}, headers=_auth(seat_token))
    assert r.status_code == 403 and r.get_json()["code"] == "player-key-required"
    unsigned = make_app("toy", WEBHOOK_ALLOW_PRIVATE=True).test_client()
    r = unsigned.put("/players/me/webhook", json={"url": url}, headers=_auth(key))
    assert r.status_code == 422 and r.get_json()["code"] == "webhooks-disabled"


def test_set_read_replace_delete(make_app, redis_client) -> None:
    client = make_app("toy", **HOOKS).test_client()
    player, key = _player(client, "Ann")
    first = client.put(
        "/players/me/webhook", json={"url": "http://127.0.0.1:8089/a"}, headers=_auth(key)
    )
    assert first.status_code == 201
    made = first.get_json()
    assert list(made) == ["id", "url", "events", "secret"]
    assert made["events"] == ["your_turn", "game_over", "tournament_game"] and made[
        "secret"
    ].startswith("whsec_")
    seen = client.get("/players/me/webhook", headers=_auth(key)).get_json()
    assert seen == {k: made[k] for k in ("id", "url", "events")}
    stored = redis_client.hget(f"players:{{{player}}}", "webhook")
    assert made["secret"] not in stored and json.loads(stored)["id"] == made["id"]
    again = _hook(client, key, "http://127.0.0.1:8089/b", events=["game_over"])
    assert again["id"] != made["id"] and again["secret"] != made["secret"]
    assert again["events"] == ["game_over"]
    replaced = json.loads(redis_client.hget(f"players:{{{player}}}", "webhook"))
    assert replaced["since"] == json.loads(stored)["since"]  # what waited goes on
    assert client.delete("/players/me/webhook", headers=_auth(key)).status_code == 204
    r = client.get("/players/me/webhook", headers=_auth(key))
    assert r.status_code == 404 and r.get_json()["code"] == "webhook-not-found"
    assert client.delete("/players/me/webhook", headers=_auth(key)).status_code == 204


def test_a_player_hears_its_turns_and_the_end_and_nothing_else(hooked) -> None:
    """Ann (with a webhook) and Bob (without) play; Cara (with one) plays elsewhere with
    Bob. Ann hears her own turns and the end of her game, signed under her secret, with
    public facts only; Cara hears only her own game."""
    app, client, receiver = hooked
    _, ann = _player(client, "Ann")
    _, bob = _player(client, "Bob")
    _, cara = _player(client, "Cara")
    ann_secret = _hook(client, ann, receiver.url("/ann"))["secret"]
    cara_secret = _hook(client, cara, receiver.url("/cara"))["secret"]
    game = _game(client, ann, bob)
    other = _game(client, bob, cara)
    while _step(client, game, (ann, bob)):
        _deliver(app)
    _deliver(app)
    final = client.get(f"/games/{game}").get_json()
    assert final["status"] == "finished"
    bodies = receiver.bodies("/ann")
    assert [b["type"] for b in bodies].count("game_over") == 1
    assert bodies[-1]["type"] == "game_over" and bodies[-1]["data"]["result"] == final["result"]
    turns = [b for b in bodies if b["type"] == "your_turn"]
    assert turns and all(0 in b["data"]["turn"] for b in turns)
    for body in bodies:
        assert body["data"]["game_id"] == game and body["data"]["seat"] == 0
        assert body["data"]["game"] == "toy"
        assert set(body["data"]) <= ALLOWED_DATA, body
        text = json.dumps(body["data"]).lower()
        assert not any(f'"{word}' in text for word in HIDDEN), text
    versions = [b["data"]["version"] for b in bodies]
    assert versions == sorted(versions)
    for req in receiver.requests:
        secret = ann_secret if req["path"] == "/ann" else cara_secret
        Webhook(secret).verify(req["body"], req["headers"])  # raises if not
    assert {b["data"]["game_id"] for b in receiver.bodies("/cara")} <= {other}
    assert {b["data"]["seat"] for b in receiver.bodies("/cara")} <= {1}


def test_deleting_stops_deliveries_and_a_new_one_hears_only_what_follows(hooked) -> None:
    app, client, receiver = hooked
    _, ann = _player(client, "Ann")
    _, bob = _player(client, "Bob")
    _hook(client, ann, receiver.url("/ann"))
    game = _game(client, ann, bob)  # Ann (seat 0) calls first
    _deliver(app)
    assert [b["type"] for b in receiver.bodies("/ann")] == ["your_turn"]
    assert client.delete("/players/me/webhook", headers=_auth(ann)).status_code == 204
    _step(client, game, (ann, bob))  # Ann calls: both pick, Ann's turn again
    _deliver(app)
    time.sleep(0.2)
    assert len(receiver.requests) == 1
    secret = _hook(client, ann, receiver.url("/again"))["secret"]
    _deliver(app)
    assert receiver.bodies("/again") == []  # what came while it had none is never sent
    while _step(client, game, (ann, bob)):
        pass
    _deliver(app)
    again = receiver.bodies("/again")
    assert again and again[-1]["type"] == "game_over"
    for req in receiver.requests[1:]:
        Webhook(secret).verify(req["body"], req["headers"])


def test_delivered_by_the_worker_processes(hooked_manhattan: str, receiver, workers) -> None:
    """Real gunicorn, real worker processes: Ann's webhook hears her first turn."""
    base = hooked_manhattan
    receiver.start()
    keys = []
    for name in ("Ann", "Bob"):
        r = requests.post(f"{base}/players", json={"name": name}, timeout=10)
        assert r.status_code == 201, r.text
        keys.append(r.json()["key"])
    r = requests.put(
        f"{base}/players/me/webhook",
        json={"url": receiver.url("/ann"), "events": ["your_turn"]},
        headers=_auth(keys[0]),
        timeout=10,
    )
    assert r.status_code == 201, r.text
    secret = r.json()["secret"]
    r = requests.post(f"{base}/games", json={"players": 2}, timeout=10)
    game_id, host = r.json()["id"], r.json()["host_token"]
    for key in keys:
        r = requests.post(
            f"{base}/games/{game_id}/players", json={}, headers=_auth(key), timeout=10
        )
        assert r.status_code == 201, r.text
    r = requests.post(f"{base}/games/{game_id}/start", headers=_auth(host), timeout=10)
    assert r.status_code == 200, r.text
    to_act = r.json()["to_act"]
    workers.start(**WORKER_ENV)
    if 0 in to_act:
        wait_for(lambda: receiver.bodies("/ann"), 30, "your_turn delivered")
        body = receiver.bodies("/ann")[0]
        assert body["type"] == "your_turn" and body["data"]["game_id"] == game_id
        Webhook(secret).verify(receiver.requests[0]["body"], receiver.requests[0]["headers"])
    else:  # Bob starts: Ann hears her turn once Bob has moved
        moves = requests.get(
            f"{base}/games/{game_id}/legal-moves", headers=_auth(keys[1]), timeout=10
        ).json()["moves"]
        requests.post(
            f"{base}/games/{game_id}/moves", json=moves[0], headers=_auth(keys[1]), timeout=10
        )
        wait_for(lambda: receiver.bodies("/ann"), 30, "your_turn delivered")
        assert receiver.bodies("/ann")[0]["type"] == "your_turn"
