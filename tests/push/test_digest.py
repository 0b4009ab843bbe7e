"""The daily ``digest`` (shared/push/digest.py): opt-in, the games waiting for the
player's move in its language, at most once a day, after its quiet hours; sent by the
worker's own code in process, and by a real worker process."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import requests
from flask import Flask

from bench.pushservice import PushService
from shared.ops.config import load_settings
from shared.push.digest import DAY_MS
from shared.store.players import DIGEST_DUE
from shared.worker.loop import Worker
from tests.conftest import serve
from tests.push.conftest import (
    PUBLIC,
    PUSH,
    PUSH_ENV,
    WORKER_ENV,
    auth,
    game,
    player,
    subscribe,
)
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


@pytest.fixture(scope="module")
def pushed_windcity(redis_url: str) -> Iterator[str]:
    """Wind City under gunicorn with push on, beside ``pushed_manhattan``."""
    yield from serve("windcity", redis_url, env_extra=PUSH_ENV)


def _post(url: str, key: str | None = None, **body: Any) -> dict[str, Any]:
    headers = auth(key) if key else {}
    r = requests.post(url, json=body, headers=headers, timeout=10)
    assert r.status_code in (200, 201), r.text
    return dict(r.json())


def test_a_real_worker_sends_one_digest_for_both_games(
    pushed_manhattan: str, pushed_windcity: str, workers
) -> None:
    """A worker serving both games (the default ``WORKER_GAMES``) sends each player
    one digest with its waiting games of both services."""
    base = {"manhattan": pushed_manhattan, "windcity": pushed_windcity}
    service = PushService(PUBLIC)
    service.start()
    try:
        keys = {}
        for name in ("Ann", "Bob"):
            keys[name] = _post(f"{pushed_manhattan}/players", name=name)["key"]
            sub = service.subscribe(name)
            _post(f"{pushed_manhattan}/players/me/push/subscriptions", keys[name], **sub)
            r = requests.patch(
                f"{pushed_windcity}/players/me/push",
                json={"events": ["digest"]},
                headers=auth(keys[name]),
                timeout=10,
            )
            assert r.status_code == 200, r.text
        expected: dict[str, set[tuple[str, str]]] = {"Ann": set(), "Bob": set()}
        for game_name, url in base.items():
            for attempt in range(12):  # the first seat to act is drawn: until Ann's here
                if any(g == game_name for g, _ in expected["Ann"]):
                    break
                order = ("Ann", "Bob") if attempt % 2 else ("Bob", "Ann")
                created = _post(f"{url}/games", players=2)
                game_id = created["id"]
                for name in order:
                    _post(f"{url}/games/{game_id}/players", keys[name])
                started = _post(f"{url}/games/{game_id}/start", created["host_token"])
                for seat in started["to_act"]:
                    expected[order[seat]].add((game_name, game_id))
        assert {g for g, _ in expected["Ann"]} == {"manhattan", "windcity"}
        workers.start(**WORKER_ENV)
        waiting = [name for name in ("Ann", "Bob") if expected[name]]
        wait_for(lambda: all(service.shown(n) for n in waiting), 30, "the digests")
        time.sleep(1.0)
        for name in ("Ann", "Bob"):
            pushes = service.shown(name)
            assert len(pushes) == (1 if expected[name] else 0), pushes
            for push in pushes:
                assert push["type"] == "digest" and push["count"] == len(expected[name])
                assert {(g["game"], g["game_id"]) for g in push["games"]} == expected[name]
                assert push["lang"] == "en" and push["url"] == "/play"
        assert not service.refused
    finally:
        service.stop()
