"""SSRF: private, loopback, link-local and metadata addresses are refused at registration
and again at delivery (unless WEBHOOK_ALLOW_PRIVATE), with a real Redis."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address

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
    # IPv6 addresses carrying a private IPv4 address (issue 29): NAT64, the metadata
    # address through NAT64, IPv4-translated, IPv4-compatible, 6to4, Teredo, and the
    # local-use NAT64 prefix (refused whole)
    "http://[64:ff9b::127.0.0.1]:8080/h",
    "http://[64:ff9b::a9fe:a9fe]/h",
    "http://[::ffff:0:10.0.0.1]:8080/h",
    "http://[::127.0.0.1]:8080/h",
    "http://[2002:7f00:1::1]:8080/h",
    "http://[2002:a9fe:a9fe::1]/h",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:8080/h",
    "http://[64:ff9b:1::7f00:1]:8080/h",
    "http://[64:ff9b:1::808:808]/h",
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


def _6to4(v4: str) -> str:
    return str(IPv6Address((0x2002 << 112) | (int(IPv4Address(v4)) << 80) | 1))


CARRIERS = {
    "NAT64": lambda v4: f"64:ff9b::{v4}",
    "IPv4-translated": lambda v4: f"::ffff:0:{v4}",
    "IPv4-compatible": lambda v4: f"::{v4}",
    "6to4": _6to4,
}


@pytest.mark.parametrize("form", CARRIERS)
def test_the_ipv4_address_inside_is_what_is_judged(form: str) -> None:
    """An IPv6 address carrying a public IPv4 address passes; the same form carrying
    loopback, a private, shared or the metadata address, or 0.0.0.0 is refused."""
    carry = CARRIERS[form]
    assert not ssrf.is_forbidden(carry("8.8.8.8"))
    for private in ("127.0.0.1", "10.1.2.3", "169.254.169.254", "100.64.0.1", "0.0.0.0"):
        assert ssrf.is_forbidden(carry(private)), (form, private)
    assert [str(a) for a in ssrf.embedded(IPv6Address(carry("8.8.8.8")))] == ["8.8.8.8"]


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
        strict.settle(10)
        strict.close()
        listed = client.get(f"/games/{gid}/webhooks", headers={"Authorization": f"Bearer {host}"})
        first = listed.get_json()["deliveries"][-1]
        assert first["status"] == "pending" and first["attempts"] == 1
        assert "private" in first["last_error"]
        assert receiver.requests == []
        lenient = Deliverer([store], {"WEBHOOK_SIGNING_KEY": KEY, "WEBHOOK_ALLOW_PRIVATE": True})
        lenient.idle_ms = 0  # claim the entry the strict worker left pending at once
        for key in list(store.webhook_state(gid)):  # and forget its backoff
            store.client.hdel(store.webhook_state_key(gid), key)
        lenient.settle(10)
        lenient.close()
        assert [b["type"] for b in receiver.bodies()] == ["game.started", "game.turn"]
    finally:
        receiver.stop()
