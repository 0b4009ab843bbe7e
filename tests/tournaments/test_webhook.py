"""A tournament's webhook (issue 43): its creator's registration, told ``round_started``,
``standings`` and ``finished``; written by the tournament's own compare-and-set and
delivered by the worker's webhook queue (shared/webhooks/delivery.py) to a real
receiver on 127.0.0.1 that checks every signature."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from standardwebhooks.webhooks import Webhook

from shared.games.notify import TOURNAMENT_TYPES as EVENTS
from shared.usecases import tournament_arena, tournaments
from shared.usecases.autoplay import NothingDue, play_due
from shared.webhooks.delivery import Deliverer
from shared.worker.loop import Worker
from tests.kit.helpers import auth
from tests.tournaments.test_routes import new_player
from tests.webhooks.conftest import KEY, Receiver
from tests.webhooks.test_ssrf import REFUSED

HOOKS = {"WEBHOOK_SIGNING_KEY": KEY, "WEBHOOK_ALLOW_PRIVATE": True}
SPEC: dict[str, Any] = {
    "rounds": 2,
    "table_size": 3,
    "clock": {"turn_seconds": 30},
    "bots": ["random"] * 7,
}


@pytest.fixture
def hooked(make_app) -> Iterator[tuple[Flask, FlaskClient, Receiver]]:
    app = make_app("toy", **HOOKS)
    rec = Receiver()
    rec.start()
    yield app, app.test_client(), rec
    rec.stop()


def _deliver(app: Flask, copies: int = 1) -> None:
    """What the workers' webhook threads do: ``copies`` deliverers at once."""
    store = app.extensions["game_kit"].games.store
    deliverers = [Deliverer([store], HOOKS) for _ in range(copies)]
    threads = [threading.Thread(target=d.settle, args=(10,)) for d in deliverers]
    for t in threads:
        t.start()
    for t, d in zip(threads, deliverers, strict=True):
        t.join(30)
        d.close()


def _race(app: Flask, tid: str, seconds: float = 60) -> None:
    """Two worker copies tick at once (each under its lease) while a third thread steps
    the tournament with no lease at all, until it is over."""
    kit = app.extensions["game_kit"].games
    settings = {**app.config, "WORKER_LEASE_SECONDS": 0.05}
    done = threading.Event()

    def ticks(worker: Worker) -> None:
        while not done.is_set():
            worker.tick()

    def steps() -> None:
        while not done.is_set():
            if tournament_arena.step(kit, tid) is None:
                return

    threads = [threading.Thread(target=ticks, args=(Worker([kit], settings),)) for _ in range(2)]
    threads.append(threading.Thread(target=steps))
    for t in threads:
        t.start()
    try:
        done.wait(0)
        for _ in range(int(seconds * 20)):
            doc, _ = kit.store.tournaments.read(tid)
            if doc["status"] == "finished":
                break
            done.wait(0.05)
    finally:
        done.set()
        for t in threads:
            t.join(30)


def test_each_event_reaches_the_platform_once_signed(hooked) -> None:
    app, client, receiver = hooked
    _, key = new_player(client, "Host")
    spec = {**SPEC, "webhook": {"url": receiver.url("/tn")}}
    r = client.post("/tournaments", json=spec, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    tid, secret = made["id"], made["webhook_secret"]
    assert made["webhook_id"].startswith("wh_") and secret.startswith("whsec_")
    assert "webhook" not in made
    for path in (f"/tournaments/{tid}", "/tournaments"):  # the URL is nobody's to read
        assert receiver.url("/tn") not in client.get(path).get_data(as_text=True)
    assert client.post(f"/tournaments/{tid}/start", headers=auth(key)).status_code == 200
    _race(app, tid)
    _deliver(app, copies=2)
    doc = client.get(f"/tournaments/{tid}").get_json()
    assert doc["status"] == "finished"
    with receiver._lock:
        got = list(receiver.requests)
    signer = Webhook(secret)
    bodies = [signer.verify(r["body"], r["headers"]) for r in got]  # raises on a bad one
    ids = [r["headers"]["webhook-id"] for r in got]
    assert len(ids) == len(set(ids)), "each notification sent once"
    kinds = [(b["type"], b["data"]["round"]) for b in bodies]
    assert kinds == [
        ("round_started", 1),
        ("standings", 1),
        ("round_started", 2),
        ("standings", 2),
        ("finished", 2),
    ]
    assert all(i.startswith(f"msg_tn:{tid}_") for i in ids)
    started = [b["data"] for b in bodies if b["type"] == "round_started"]
    for n, data in enumerate(started):
        assert data["tables"] == [
            {"game": t["game"], "players": t["players"]} for t in doc["history"][n]["tables"]
        ]
        assert data["byes"] == doc["history"][n]["byes"] and data["tournament"] == tid
    final = bodies[-1]["data"]
    assert final["status"] == "finished"
    assert [row["player"] for row in final["standings"]] == [
        row["player"] for row in client.get(f"/tournaments/{tid}/standings").get_json()["items"]
    ]
    versions = [b["data"]["version"] for b in bodies]
    assert versions == sorted(versions)
    # the host reads its registration and what became of each delivery; nobody else does
    seen = client.get(f"/tournaments/{tid}/webhook", headers=auth(key)).get_json()
    assert seen["webhooks"] == [
        {"id": made["webhook_id"], "url": receiver.url("/tn"), "events": list(EVENTS)}
    ]
    assert [d["id"] for d in reversed(seen["deliveries"])] == ids
    assert {(d["status"], d["attempts"]) for d in seen["deliveries"]} == {("delivered", 1)}
    _, other = new_player(client, "Other")
    r = client.get(f"/tournaments/{tid}/webhook", headers=auth(other))
    assert r.status_code == 403 and r.get_json()["code"] == "not-host"
    assert client.get(f"/tournaments/{tid}/webhook").status_code == 401


def test_events_can_be_chosen_and_a_refused_url_is_refused(hooked, make_app) -> None:
    app, client, receiver = hooked
    _, key = new_player(client, "Host")
    spec = {**SPEC, "rounds": 1, "webhook": {"url": receiver.url("/f"), "events": ["finished"]}}
    tid = client.post("/tournaments", json=spec, headers=auth(key)).get_json()["id"]
    client.post(f"/tournaments/{tid}/start", headers=auth(key))
    _race(app, tid)
    _deliver(app)
    assert [b["type"] for b in receiver.bodies("/f")] == ["finished"]
    guarded = make_app("toy", WEBHOOK_SIGNING_KEY=KEY).test_client()  # (the SSRF guard on)
    _, other = new_player(guarded, "Host")
    for url in (REFUSED[0], REFUSED[3], "ftp://example.com/h"):
        body = {**SPEC, "webhook": {"url": url}}
        r = guarded.post("/tournaments", json=body, headers=auth(other))
        assert r.status_code == 422 and r.get_json()["code"] == "webhook-url-refused", url
    unsigned = make_app("toy", WEBHOOK_ALLOW_PRIVATE=True).test_client()
    _, other = new_player(unsigned, "Host")
    body = {**SPEC, "webhook": {"url": receiver.url("/x")}}
    r = unsigned.post("/tournaments", json=body, headers=auth(other))
    assert r.status_code == 422 and r.get_json()["code"] == "webhooks-disabled"
    r = client.post(
        "/tournaments",
        json={**SPEC, "webhook": {"url": receiver.url("/x"), "events": ["game.turn"]}},
        headers=auth(key),
    )
    assert r.status_code == 422 and r.get_json()["code"] == "validation-error"


def test_a_cancelled_tournament_says_finished_with_its_status(hooked) -> None:
    app, client, receiver = hooked
    _, key = new_player(client, "Host")
    spec = {**SPEC, "bots": [], "webhook": {"url": receiver.url("/c")}}
    tid = client.post("/tournaments", json=spec, headers=auth(key)).get_json()["id"]
    client.post(f"/tournaments/{tid}/start", headers=auth(key))
    tournament_arena.step(app.extensions["game_kit"].games, tid)  # too few players
    _deliver(app)
    (body,) = receiver.bodies("/c")
    assert body["type"] == "finished" and body["data"]["status"] == "cancelled"


def _finish_table(games: Any, game_id: str) -> None:
    for _ in range(2000):
        try:
            play_due(games, game_id)
        except NothingDue:
            return


def test_an_arena_tells_its_standings_when_games_end_at_most_once_a_minute(
    hooked, monkeypatch
) -> None:
    app, client, receiver = hooked
    kit = app.extensions["game_kit"].games
    _, key = new_player(client, "Host")
    spec = {
        "format": "arena",
        "minutes": 5,
        "table_size": 3,
        "clock": {"turn_seconds": 30},
        "bots": ["random"] * 9,
        "webhook": {"url": receiver.url("/a")},
    }
    tid = client.post("/tournaments", json=spec, headers=auth(key)).get_json()["id"]
    client.post(f"/tournaments/{tid}/start", headers=auth(key))
    tournament_arena.step(kit, tid)  # three tables of three
    doc, _ = kit.store.tournaments.read(tid)
    first, second, third = (t["game"] for t in doc["live"])
    _finish_table(kit, first)
    tournament_arena.step(kit, tid)  # the first game closes: the standings are told
    _finish_table(kit, second)
    tournament_arena.step(kit, tid)  # the second, within the minute: not told again
    clock = tournaments.now_ms() + tournament_arena.STANDINGS_EVERY_MS
    monkeypatch.setattr(tournament_arena, "now_ms", lambda: clock)
    _finish_table(kit, third)
    tournament_arena.step(kit, tid)  # a minute later, the third ends: told again
    _deliver(app)
    bodies = receiver.bodies("/a")
    assert [b["type"] for b in bodies] == ["round_started", "standings", "standings"]
    assert [b["data"]["games"] for b in bodies[1:]] == [1, 3]
    doc = client.get(f"/tournaments/{tid}").get_json()
    assert (
        bodies[-1]["data"]["standings"]
        == (client.get(f"/tournaments/{tid}/standings").get_json()["items"])
    )
    assert doc["status"] == "running"
