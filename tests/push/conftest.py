"""Web Push proofs: a VAPID key pair, a stand-in push service on 127.0.0.1
(bench/pushservice.py), the toy service with push on, and the worker's own
delivery code run in process (as tests/webhooks do)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from bench.pushservice import PushService
from shared.push.keys import generate
from shared.push.sending import Pusher
from shared.webhooks.delivery import Deliverer
from tests.conftest import serve
from tests.worker.conftest import workers  # noqa: F401  (the fixture)

PRIVATE, PUBLIC = generate()
PUSH = {"PUSH_VAPID_PRIVATE_KEY": PRIVATE, "WEBHOOK_ALLOW_PRIVATE": True}
PUSH_ENV = {"PUSH_VAPID_PRIVATE_KEY": PRIVATE, "WEBHOOK_ALLOW_PRIVATE": "1"}
WORKER_ENV = {
    **PUSH_ENV,
    "WEBHOOK_BACKOFF_BASE_SECONDS": "0.2",
    "WEBHOOK_BACKOFF_MAX_SECONDS": "0.5",
    "WEBHOOK_CLAIM_IDLE_SECONDS": "0.5",
    "WEBHOOK_TIMEOUT_SECONDS": "1",
}


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def player(client: FlaskClient, name: str) -> tuple[str, str]:
    r = client.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"], r.get_json()["key"]


def subscribe(client: FlaskClient, key: str, sub: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/players/me/push/subscriptions", json=sub, headers=auth(key))
    assert r.status_code in (200, 201), r.get_json()
    return dict(r.get_json())


def game(client: FlaskClient, *keys: str, **options: Any) -> tuple[str, list[int]]:
    """A started toy game, seat n taken by ``keys[n]``'s player; its seats to act."""
    r = client.post("/games", json={"players": len(keys), "rounds": 1, "seed": 4, **options})
    assert r.status_code == 201, r.get_json()
    game_id, host = r.get_json()["id"], r.get_json()["host_token"]
    for key in keys:
        r = client.post(f"/games/{game_id}/players", json={}, headers=auth(key))
        assert r.status_code == 201, r.get_json()
    r = client.post(f"/games/{game_id}/start", headers=auth(host))
    assert r.status_code == 200, r.get_json()
    return str(game_id), list(r.get_json()["to_act"])


def deliverer(app: Flask, **settings: Any) -> Deliverer:
    both = {**PUSH, **settings}
    d = Deliverer([app.extensions["game_kit"].games.store], both, Pusher(both))
    d.idle_ms = 0
    return d


def deliver(app: Flask, **settings: Any) -> None:
    """What a worker does: deliver everything due (the worker's own code)."""
    d = deliverer(app, **settings)
    d.settle(10)
    d.close()


@pytest.fixture(scope="session")
def pushed_manhattan(redis_url: str) -> Iterator[str]:
    """Manhattan under gunicorn with push on (the worker tests' processes)."""
    yield from serve("manhattan", redis_url, env_extra=PUSH_ENV)


@pytest.fixture
def pushed(make_app) -> Iterator[tuple[Flask, FlaskClient, PushService]]:
    app = make_app("toy", **PUSH)
    service = PushService(PUBLIC)
    service.start()
    yield app, app.test_client(), service
    service.stop()
