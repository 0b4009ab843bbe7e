"""What one client may make the webhooks do (issue 29): ``POST /games/{id}/webhooks/test``
is rate-limited per game and client address out of the box, and a game's outbox takes
no more test notifications once it holds ``WEBHOOK_OUTBOX_MAX`` (game writes still add
theirs: the transactional outbox never refuses a write). Flask's test client on the
real test Redis; no worker runs, so nothing is delivered or trimmed here."""

from __future__ import annotations

from typing import Any

from tests.kit.helpers import assert_problem, auth
from tests.webhooks.conftest import KEY

HOOK = "http://127.0.0.1:8089/"  # never called: no worker runs here


def _client(make_app, **config: Any) -> Any:
    settings = {"WEBHOOK_SIGNING_KEY": KEY, "WEBHOOK_ALLOW_PRIVATE": True, **config}
    return make_app("manhattan", **settings).test_client()


def _hooked_game(client: Any, seat_hooks: int = 1) -> tuple[str, str, list[str]]:
    """An open 2-seat game with a game webhook and ``seat_hooks`` seat webhooks; its id,
    host token and seat tokens."""
    r = client.post("/games", json={"players": 2, "webhook": {"url": HOOK}})
    assert r.status_code == 201, r.get_json()
    game_id, host = r.get_json()["id"], r.get_json()["host_token"]
    tokens = []
    for seat in range(2):
        body: dict[str, Any] = {"name": f"p{seat}"}
        if seat < seat_hooks:
            body["webhook"] = {"url": HOOK}
        r = client.post(f"/games/{game_id}/players", json=body)
        assert r.status_code == 201, r.get_json()
        tokens.append(r.get_json()["token"])
    return game_id, host, tokens


def test_webhook_tests_are_limited_per_game_and_client_by_default(make_app, redis_client):
    """With no setting at all: 10 a minute per game and client address, then 429
    ``rate-limited`` with Retry-After, and the refused call queued nothing; another
    address, or another game, still has its own count."""
    client = _client(make_app)
    game_id, host, _ = _hooked_game(client)
    other_game, other_host, _ = _hooked_game(client)
    url = f"/games/{game_id}/webhooks/test"
    for _ in range(10):
        assert client.post(url, headers=auth(host)).status_code == 202
    queued = redis_client.xlen(f"mh:{{{game_id}}}:outbox")
    r = client.post(url, headers=auth(host))
    assert_problem(r, 429, "rate-limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert redis_client.xlen(f"mh:{{{game_id}}}:outbox") == queued == 20  # 2 registrations
    elsewhere = {"REMOTE_ADDR": "192.0.2.7"}
    assert client.post(url, headers=auth(host), environ_base=elsewhere).status_code == 202
    r = client.post(f"/games/{other_game}/webhooks/test", headers=auth(other_host))
    assert r.status_code == 202


def test_the_webhook_test_limit_is_a_setting(make_app):
    client = _client(make_app, RATE_LIMIT_WEBHOOK_TESTS="2/minute")
    game_id, host, _ = _hooked_game(client)
    url = f"/games/{game_id}/webhooks/test"
    assert [client.post(url, headers=auth(host)).status_code for _ in range(3)] == [202, 202, 429]
    client = _client(make_app, RATE_LIMIT_WEBHOOK_TESTS="off")
    game_id, host, _ = _hooked_game(client)
    url = f"/games/{game_id}/webhooks/test"
    assert {client.post(url, headers=auth(host)).status_code for _ in range(15)} == {202}


def test_a_full_outbox_takes_no_more_tests_but_every_game_write(make_app, redis_client):
    """``WEBHOOK_OUTBOX_MAX=5``: a test that would take the outbox over 5 is 409
    ``webhook-outbox-full`` and queues nothing (not even part of it); the game's own
    writes still add their notifications past the cap."""
    client = _client(make_app, WEBHOOK_OUTBOX_MAX=5, RATE_LIMIT_WEBHOOK_TESTS="off")
    game_id, host, tokens = _hooked_game(client)
    outbox = f"mh:{{{game_id}}}:outbox"
    url = f"/games/{game_id}/webhooks/test"
    assert client.post(url, headers=auth(host)).status_code == 202  # 2 (game and seat 0)
    assert client.post(url, headers=auth(host)).status_code == 202  # 4
    assert_problem(client.post(url, headers=auth(host)), 409, "webhook-outbox-full")
    assert redis_client.xlen(outbox) == 4
    assert client.post(url, headers=auth(tokens[0])).status_code == 202  # seat 0's own: 5
    assert_problem(client.post(url, headers=auth(tokens[0])), 409, "webhook-outbox-full")
    assert redis_client.xlen(outbox) == 5
    r = client.post(f"/games/{game_id}/start", headers=auth(host))
    assert r.status_code == 200
    assert redis_client.xlen(outbox) > 5  # game.started and game.turn, past the cap
