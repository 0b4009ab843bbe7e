"""SSRF: private, loopback, link-local and metadata addresses are refused at registration
and again at delivery (unless WEBHOOK_ALLOW_PRIVATE), with a real Redis."""

from __future__ import annotations

import pytest

from shared.store import GameStore
from shared.webhooks import ssrf
from shared.webhooks.delivery import Deliverer
from tests.webhooks.conftest import KEY, Receiver

REFUSED = [
    "http://127.0.0.1:8080/h",
    "http://localhost:8080/h",  # a name resolving to 127.0.0.1
    "http://10.0.0.5/h",
    "http://192.168.1.1/h",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]:8080/h",
    "http://[::ffff:127.0.0.1]:8080/h",
    "http://0.0.0.0:8080/h",
    "ftp://example.com/h",
    "http://example.com:22/h",
    "http://user:pw@example.com/h",
    "not a url",
]


@pytest.mark.parametrize("url", REFUSED)
def test_registration_refuses(make_app, url: str) -> None:
    client = make_app("manhattan", WEBHOOK_SIGNING_KEY=KEY).test_client()
    r = client.post("/games", json={"players": 2, "webhook": {"url": url}})
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["code"] == "webhook-url-refused"
    assert r.headers["Content-Type"].startswith("application/problem+json")


def test_allowed_with_the_setting_and_public_addresses_pass(make_app) -> None:
    client = make_app(
        "manhattan", WEBHOOK_SIGNING_KEY=KEY, WEBHOOK_ALLOW_PRIVATE=True
    ).test_client()
    r = client.post("/games", json={"players": 2, "webhook": {"url": "http://localhost:8080/"}})
    assert r.status_code == 201, r.get_json()
    assert not ssrf.is_forbidden("93.184.215.14")
    assert not ssrf.is_forbidden("2606:2800:21f:cb07:6820:80da:af6b:8b2c")


def test_no_signing_key_no_webhooks(make_app) -> None:
    client = make_app("manhattan", WEBHOOK_ALLOW_PRIVATE=True).test_client()
    r = client.post("/games", json={"players": 2, "webhook": {"url": "http://localhost:8080/"}})
    assert r.status_code == 422
    assert r.get_json()["code"] == "webhooks-disabled"


def test_checked_again_at_delivery(make_app, redis_client) -> None:
    """Registered while private addresses were allowed, delivered by a worker that does
    not allow them: the receiver on 127.0.0.1 is never called (DNS-rebinding shape)."""
    receiver = Receiver()
    receiver.start()
    try:
        app = make_app("manhattan", WEBHOOK_SIGNING_KEY=KEY, WEBHOOK_ALLOW_PRIVATE=True)
        client = app.test_client()
        r = client.post("/games", json={"players": 2, "webhook": {"url": receiver.url("/g")}})
        gid, host = r.get_json()["id"], r.get_json()["host_token"]
        for name in ("a", "b"):
            client.post(f"/games/{gid}/players", json={"name": name})
        client.post(f"/games/{gid}/start", headers={"Authorization": f"Bearer {host}"})
        store: GameStore = app.extensions["game_kit"].games.store
        strict = Deliverer([store], {"WEBHOOK_SIGNING_KEY": KEY, "WEBHOOK_ALLOW_PRIVATE": False})
        assert strict.tick() == 1
        listed = client.get(f"/games/{gid}/webhooks", headers={"Authorization": f"Bearer {host}"})
        first = listed.get_json()["deliveries"][-1]
        assert first["status"] == "pending" and first["attempts"] == 1
        assert "private" in first["last_error"]
        assert receiver.requests == []
        lenient = Deliverer([store], {"WEBHOOK_SIGNING_KEY": KEY, "WEBHOOK_ALLOW_PRIVATE": True})
        lenient.idle_ms = 0  # claim the entry the strict worker left pending at once
        for key in list(store.webhook_state(gid)):  # and forget its backoff
            store.client.hdel(store.webhook_state_key(gid), key)
        lenient.tick()
        assert [b["type"] for b in receiver.bodies()] == ["game.started", "game.turn"]
    finally:
        receiver.stop()
