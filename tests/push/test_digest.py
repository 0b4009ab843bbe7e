"""The daily ``digest`` (shared/push/digest.py): opt-in, the games waiting for the
player's move in its language, at most once a day, after its quiet hours; sent by the
worker's own code in process, and by a real worker process."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import requests
from flask import Flask

from shared.ops.config import load_settings
from shared.push.digest import DAY_MS
from shared.store.players import DIGEST_DUE
from shared.worker.loop import Worker
from tests.push.conftest import PUBLIC, PUSH, WORKER_ENV, auth, game, player, subscribe
from tests.push.pushservice import PushService
from tests.worker.helpers import wait_for

DIGEST_FIELDS = {
    "type", "count", "more", "games", "url", "tag", "title", "body", "lang", "timestamp",
}  # fmt: skip


def _worker(app: Flask) -> Worker:
    settings = load_settings({**PUSH, "REDIS_URL": app.config["REDIS_URL"]})
    settings["WORKER_BOT_PROCESSES"] = 0
    return Worker([app.extensions["game_kit"].games], settings)


def _waiting_for(client, ann: str, others: list[str]) -> set[str]:
    """Two games with each of ``others``, Ann first then second: the ids of those where
    Ann is to act (one of each pair: the same seed starts the same seat)."""
    mine = set()
    for other in others:
        for keys in ((ann, other), (other, ann)):
            game_id, (seat,) = game(client, *keys)
            if keys[seat] == ann:
                mine.add(game_id)
    return mine


def test_a_digest_lists_the_waiting_games_once_a_day(pushed, redis_client) -> None:
    app, client, service = pushed
    ann_id, ann = player(client, "Ann")
    bob_id, bob = player(client, "Bob")
    _, cat = player(client, "Cat")
    subscribe(client, ann, service.subscribe("ann"))
    subscribe(client, bob, service.subscribe("bob"))
    assert redis_client.zscore(DIGEST_DUE, bob_id) is None, "opt-in: Bob never asked"
    body = {"events": ["your_turn", "digest"], "language": "ja"}
    r = client.patch("/players/me/push", json=body, headers=auth(ann))
    assert r.status_code == 200 and r.get_json()["events"] == ["your_turn", "digest"]
    mine = _waiting_for(client, ann, [bob, cat])
    assert len(mine) == 2
    worker = _worker(app)
    before = int(time.time() * 1000)
    assert worker.digester.tick() == 1
    (push,) = service.shown("ann")
    assert set(push) == DIGEST_FIELDS and push["type"] == "digest"
    assert push["count"] == 2 and not push["more"] and push["url"] == "/play"
    assert {g["game_id"] for g in push["games"]} == mine
    assert all(g["game"] == "toy" and g["deadline"] is None for g in push["games"])
    assert push["title"] == "あなたを待っているゲーム"
    assert push["body"] == "2 件のゲームがあなたの手番を待っています。"
    assert not [name for name in ("Bob", "Cat", "token", "seed") if name in str(push)]
    headers = service.pushes("ann")[0]["headers"]
    assert headers["urgency"] == "low" and headers["topic"] == "digest"
    assert not service.shown("bob") and not service.refused
    assert worker.digester.tick() == 0
    assert len(service.shown("ann")) == 1, "at most once a day"
    due = redis_client.zscore(DIGEST_DUE, ann_id)
    assert before + DAY_MS <= due <= time.time() * 1000 + DAY_MS
    worker.deliverer.close()


def test_the_digest_waits_for_the_end_of_quiet_hours(pushed, redis_client) -> None:
    app, client, service = pushed
    ann_id, ann = player(client, "Ann")
    _, bob = player(client, "Bob")
    subscribe(client, ann, service.subscribe("ann"))
    tokyo = datetime.now(UTC).astimezone(ZoneInfo("Asia/Tokyo"))
    end = tokyo + timedelta(hours=1)
    quiet = {"start": (tokyo - timedelta(hours=1)).strftime("%H:%M"), "end": end.strftime("%H:%M")}
    body = {"events": ["digest"], "quiet_hours": quiet, "time_zone": "Asia/Tokyo", "language": "de"}
    assert client.patch("/players/me/push", json=body, headers=auth(ann)).status_code == 200
    mine = _waiting_for(client, ann, [bob])
    worker = _worker(app)
    assert worker.digester.tick() == 1
    assert not service.received, "held back by the quiet hours"
    ends = end.replace(second=0, microsecond=0)
    assert redis_client.zscore(DIGEST_DUE, ann_id) == int(ends.timestamp() * 1000)
    assert worker.digester.tick() == 0, "not due before they end"
    redis_client.zadd(DIGEST_DUE, {ann_id: int(time.time() * 1000)})  # the hours passed
    quiet_over = {"quiet_hours": None}
    assert client.patch("/players/me/push", json=quiet_over, headers=auth(ann)).status_code == 200
    assert worker.digester.tick() == 1
    (push,) = service.shown("ann")
    assert push["count"] == 1 and [g["game_id"] for g in push["games"]] == list(mine)
    assert push["title"] == "Spiele, die auf dich warten"
    assert push["body"] == "Eine Partie toy wartet auf deinen Zug."
    worker.deliverer.close()


def test_turning_it_off_or_failing_pushes(pushed, redis_client) -> None:
    app, client, service = pushed
    ann_id, ann = player(client, "Ann")
    _, bob = player(client, "Bob")
    subscribe(client, ann, service.subscribe("ann"))
    assert client.patch("/players/me/push", json={"events": ["digest"]}, headers=auth(ann))
    _waiting_for(client, ann, [bob])
    worker = _worker(app)
    service.status["/push/ann"] = 500
    assert worker.digester.tick() == 1
    assert len(service.shown("ann")) == 1, "tried, answered 500"
    due = redis_client.zscore(DIGEST_DUE, ann_id)
    assert due < time.time() * 1000 + DAY_MS / 2, "a failed digest is tried again soon"
    assert worker.digester.tick() == 0, "not before its lease runs out"
    del service.status["/push/ann"]
    redis_client.zadd(DIGEST_DUE, {ann_id: int(time.time() * 1000)})  # the lease ran out
    assert worker.digester.tick() == 1
    assert len(service.shown("ann")) == 2
    assert redis_client.zscore(DIGEST_DUE, ann_id) > time.time() * 1000 + DAY_MS / 2
    r = client.patch("/players/me/push", json={"events": ["your_turn"]}, headers=auth(ann))
    assert r.status_code == 200
    assert redis_client.zscore(DIGEST_DUE, ann_id) is None
    worker.deliverer.close()


def test_a_real_worker_sends_the_digest(pushed_manhattan: str, workers, redis_client) -> None:
    base = pushed_manhattan
    service = PushService(PUBLIC)
    service.start()
    try:
        keys = []
        for n, name in enumerate(("Ann", "Bob")):
            r = requests.post(f"{base}/players", json={"name": name}, timeout=10)
            keys.append(r.json()["key"])
            sub = service.subscribe(f"p{n}")
            r = requests.post(
                f"{base}/players/me/push/subscriptions",
                json=sub,
                headers=auth(keys[-1]),
                timeout=10,
            )
            assert r.status_code == 201, r.text
            body = {"events": ["digest"]}
            r = requests.patch(
                f"{base}/players/me/push", json=body, headers=auth(keys[-1]), timeout=10
            )
            assert r.status_code == 200, r.text
        r = requests.post(f"{base}/games", json={"players": 2}, timeout=10)
        game_id, host = r.json()["id"], r.json()["host_token"]
        for key in keys:
            r = requests.post(
                f"{base}/games/{game_id}/players", json={}, headers=auth(key), timeout=10
            )
            assert r.status_code == 201, r.text
        r = requests.post(f"{base}/games/{game_id}/start", headers=auth(host), timeout=10)
        (seat,) = r.json()["to_act"]
        workers.start(**WORKER_ENV)
        wait_for(lambda: bool(service.shown(f"p{seat}")), 30, "the digest")
        (push,) = service.shown(f"p{seat}")
        assert push["type"] == "digest" and push["games"][0]["game_id"] == game_id
        assert push["games"][0]["game"] == "manhattan" and push["body"] == (
            "A game of manhattan is waiting for your move."
        )
        assert not service.shown(f"p{1 - seat}") and not service.refused
    finally:
        service.stop()
