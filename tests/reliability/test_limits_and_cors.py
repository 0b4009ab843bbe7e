"""Rate limits (429 + Retry-After), open-game expiry and CORS, on real apps and a real Redis."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from flask import Flask

from shared.http.middleware.ratelimit import parse_rate
from tests.conftest import free_port
from tests.kit.helpers import assert_problem, auth, post_move, sent_to_redis, started_game, view


def _legal(client: Any, game_id: str, token: str) -> list[dict[str, Any]]:
    r = client.get(f"/games/{game_id}/legal-moves", headers=auth(token))
    assert r.status_code == 200
    return r.get_json()["moves"]


def _acting(client: Any, game_id: str, tokens: list[str]) -> str:
    return tokens[view(client, game_id)["to_act"][0]]


# -- moves ----------------------------------------------------------------------------


def test_move_limit_answers_429_with_retry_after_and_changes_nothing(
    make_app: Callable[..., Flask],
) -> None:
    client = make_app("manhattan", RATE_LIMIT_MOVES="3/minute").test_client()
    game_id, _, tokens = started_game(client, 2)
    waiting = tokens[1 - view(client, game_id)["to_act"][0]]
    for _ in range(3):  # rejected moves count too: the limit is on requests
        r = client.post(
            f"/games/{game_id}/moves", json={"type": "discard", "lot": 1}, headers=auth(waiting)
        )
        assert r.status_code == 409
    version = view(client, game_id)["version"]
    r = client.post(
        f"/games/{game_id}/moves", json={"type": "discard", "lot": 1}, headers=auth(waiting)
    )
    body = assert_problem(r, 429, "rate-limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert "3 per 60 s" in body["detail"]
    assert view(client, game_id)["version"] == version
    # The other seat has its own counter: its legal move still goes through.
    acting = _acting(client, game_id, tokens)
    move = _legal(client, game_id, acting)[0]
    r = client.post(f"/games/{game_id}/moves", json=move, headers=auth(acting))
    assert r.status_code == 200, r.get_json()
    # ...and the limited seat is limited in this game only.
    other_id, _, other_tokens = started_game(client, 2)
    r = client.post(
        f"/games/{other_id}/moves",
        json={"type": "discard", "lot": 1},
        headers=auth(other_tokens[0]),
    )
    assert r.status_code != 429


def test_move_limit_window_passes(make_app: Callable[..., Flask]) -> None:
    client = make_app("windcity", RATE_LIMIT_MOVES="2/second").test_client()
    game_id, _, tokens = started_game(client, 2)
    token = _acting(client, game_id, tokens)
    statuses: list[int] = []
    deadline = time.monotonic() + 5
    while statuses != [200, 409, 409, 429] and time.monotonic() < deadline:
        # three requests inside one window: align to the start of a second
        time.sleep(1 - time.time() % 1 + 0.01)
        statuses = [
            client.get(f"/games/{game_id}").status_code,  # reads are never limited
            *(
                client.post(
                    f"/games/{game_id}/moves",
                    json={"type": "place_house", "square": "C7"},
                    headers=auth(token),
                ).status_code
                for _ in range(3)
            ),
        ]
    assert statuses[0] == 200
    assert statuses[1:] == [409, 409, 429]  # the engine's rejections count, the 3rd is over
    time.sleep(1 - time.time() % 1 + 0.05)
    move = _legal(client, game_id, token)[0]
    r = client.post(f"/games/{game_id}/moves", json=move, headers=auth(token))
    assert r.status_code == 200, r.get_json()


def test_no_limits_by_default(manhattan_client: Any) -> None:
    game_id, _, tokens = started_game(manhattan_client, 2)
    waiting = tokens[1 - view(manhattan_client, game_id)["to_act"][0]]
    for _ in range(60):
        r = manhattan_client.post(
            f"/games/{game_id}/moves", json={"type": "discard", "lot": 1}, headers=auth(waiting)
        )
        assert r.status_code == 409
    for i in range(3):
        r = manhattan_client.post("/games", json={"players": 4})
        gid = r.get_json()["id"]
        for j in range(4):
            r = manhattan_client.post(f"/games/{gid}/players", json={"name": f"p{i}{j}"})
            assert r.status_code == 201


_COMMAND = re.compile(rb"\*\d+\r\n\$\d+\r\n([A-Za-z]+)\r\n")


@contextmanager
def _count_round_trips() -> Iterator[list[str]]:
    """Every round trip the request's own thread sends to Redis: a command's name, or
    ``pipeline:`` and the names of the commands sent together."""
    trips: list[str] = []
    with sent_to_redis() as sent:
        yield trips
    for packed in sent:
        names = [n.decode().upper() for n in _COMMAND.findall(packed)]
        trips.append(names[0] if len(names) == 1 else "pipeline:" + ",".join(names))


@pytest.mark.parametrize("idempotency_key", [None, "k-1"])
def test_limited_move_costs_two_round_trips(
    make_app: Callable[..., Flask], idempotency_key: str | None
) -> None:
    app = make_app("manhattan", RATE_LIMIT_MOVES="100/second")
    client = app.test_client()
    game_id, _, tokens = started_game(client, 2)
    token = _acting(client, game_id, tokens)
    move = _legal(client, game_id, token)[0]
    headers = auth(token)
    if idempotency_key:
        headers["Idempotency-Key"] = idempotency_key
    with _count_round_trips() as trips:
        r = client.post(f"/games/{game_id}/moves", json=move, headers=headers)
    assert r.status_code == 200, r.get_json()
    assert len(trips) == 2, trips
    assert "INCR" in trips[0] and trips[1] in {"EVALSHA", "EVAL"}


# -- joins ----------------------------------------------------------------------------


def test_join_limit_per_client_address(make_app: Callable[..., Flask]) -> None:
    client = make_app("manhattan", RATE_LIMIT_JOINS="2/minute").test_client()
    game_id = client.post("/games", json={"players": 4}).get_json()["id"]
    for name in ("ann", "bob"):
        r = client.post(f"/games/{game_id}/players", json={"name": name})
        assert r.status_code == 201
    r = client.post(f"/games/{game_id}/players", json={"name": "cy"})
    assert_problem(r, 429, "rate-limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert len(view(client, game_id)["players"]) == 2
    other = {"REMOTE_ADDR": "127.0.0.9"}
    r = client.post(f"/games/{game_id}/players", json={"name": "cy"}, environ_base=other)
    assert r.status_code == 201


@pytest.mark.parametrize(
    "setting",
    ["RATE_LIMIT_MOVES", "RATE_LIMIT_JOINS", "RATE_LIMIT_CREATES", "RATE_LIMIT_AUTH_FAILURES"],
)
def test_rate_setting_is_checked_at_start(make_app: Callable[..., Flask], setting: str) -> None:
    with pytest.raises(ValueError, match="not a rate"):
        make_app("manhattan", **{setting: "lots"})


@pytest.mark.parametrize(
    ("text", "amount", "seconds"),
    [("20/second", 20, 1), ("10/minute", 10, 60), ("5/10s", 5, 10), ("600/hour", 600, 3600)]
    + [("3 per 2 minutes", 3, 120), ("1/d", 1, 86400)],
)
def test_rates_parse(text: str, amount: int, seconds: int) -> None:
    rate = parse_rate(text)
    assert rate is not None and (rate.amount, rate.get_expiry()) == (amount, seconds)


@pytest.mark.parametrize("text", ["", "off", " OFF ", "0", None])
def test_rates_off(text: str | None) -> None:
    assert parse_rate(text) is None


def test_counters_expire(make_app: Callable[..., Flask], redis_client: redis.Redis) -> None:
    app = make_app("manhattan", RATE_LIMIT_MOVES="5/minute", RATE_LIMIT_JOINS="5/minute")
    client = app.test_client()
    game_id, _, tokens = started_game(client, 2)
    client.post(
        f"/games/{game_id}/moves", json={"type": "discard", "lot": 1}, headers=auth(tokens[0])
    )
    client.post(f"/games/{game_id}/players", json={"name": "late"})
    keys = redis_client.keys("mh:*rl:*")
    assert any(f"{{{game_id}}}:rl:" in k for k in keys)  # in the game's hash slot
    assert any("games.join_game" in k for k in keys)  # flask-limiter's, per address
    for key in keys:
        assert 0 < redis_client.ttl(key) <= 61


# -- creates --------------------------------------------------------------------------


def test_create_limit_per_client_address(
    make_app: Callable[..., Flask], redis_client: redis.Redis
) -> None:
    client = make_app("manhattan", RATE_LIMIT_CREATES="2/minute").test_client()
    for _ in range(2):
        assert client.post("/games", json={"players": 2}).status_code == 201
    r = client.post("/games", json={"players": 2})
    body = assert_problem(r, 429, "rate-limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert "games created" in body["detail"] and "2 per 60 s" in body["detail"]
    assert len(client.get("/games").get_json()["games"]) == 2  # the refused one made nothing
    other = {"REMOTE_ADDR": "10.1.2.3"}
    assert client.post("/games", json={"players": 2}, environ_base=other).status_code == 201
    # IPv6: one /64 is one client, whatever its interface bits
    for n in range(2):
        v6 = {"REMOTE_ADDR": f"2001:db8:1:2::{n + 1:x}"}
        assert client.post("/games", json={"players": 2}, environ_base=v6).status_code == 201
    v6 = {"REMOTE_ADDR": "2001:db8:1:2:ffff::9"}
    assert_problem(client.post("/games", json={"players": 2}, environ_base=v6), 429, "rate-limited")
    # reads and joins are not creates
    assert client.get("/games").status_code == 200


def test_open_game_expires_after_game_ttl_open_from_creation(
    make_app: Callable[..., Flask], redis_client: redis.Redis
) -> None:
    client = make_app("manhattan", GAME_TTL_OPEN=3).test_client()
    open_id = client.post("/games", json={"players": 2}).get_json()["id"]
    started_id, _, _ = started_game(client, 2)
    prefix = f"mh:{{{open_id}}}"
    assert 0 < redis_client.ttl(f"{prefix}:game") <= 3
    time.sleep(1.1)
    r = client.post(f"/games/{open_id}/players", json={"name": "ann"})
    assert r.status_code == 201
    assert 0 < redis_client.ttl(f"{prefix}:game") <= 2  # a join does not extend it
    assert 0 < redis_client.ttl(f"{prefix}:events") <= 2
    assert redis_client.ttl(f"mh:{{{started_id}}}:game") > 3600  # started: GAME_TTL_IDLE
    time.sleep(2.2)
    assert_problem(client.get(f"/games/{open_id}"), 404, "game-not-found")
    listed = [g["id"] for g in client.get("/games").get_json()["games"]]
    assert listed == [started_id]


def test_open_game_ttl_defaults_to_a_day(manhattan_client: Any, redis_client: redis.Redis) -> None:
    game_id = manhattan_client.post("/games", json={"players": 2}).get_json()["id"]
    assert 86400 - 5 < redis_client.ttl(f"mh:{{{game_id}}}:game") <= 86400


# -- failed authentication ------------------------------------------------------------

BOGUS = {"Authorization": "Bearer not-a-token-of-this-game"}


def test_auth_failures_per_address_get_429(make_app: Callable[..., Flask]) -> None:
    client = make_app("manhattan", RATE_LIMIT_AUTH_FAILURES="3/minute").test_client()
    game_id, host, tokens = started_game(client, 2)
    # a valid token used where it is not allowed is no failed authentication
    for _ in range(5):
        r = client.get(f"/games/{game_id}/legal-moves", headers=auth(host))
        assert_problem(r, 403, "seat-token-required")
    assert_problem(client.get(f"/games/{game_id}", headers=BOGUS), 403, "invalid-token")
    r = client.post(f"/games/{game_id}/moves", json={"type": "discard", "lot": 1}, headers=BOGUS)
    assert_problem(r, 403, "invalid-token")
    r = client.get(f"/games/{game_id}", headers={"Authorization": "Basic eDp5"})
    assert_problem(r, 401, "missing-token")
    r = client.get(f"/games/{game_id}", headers=BOGUS)  # the 4th failure: over the rate
    body = assert_problem(r, 429, "rate-limited")
    assert "failed authentications" in body["detail"]
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    # from now on, any token from this address is refused unread, even a valid one...
    r = client.get(f"/games/{game_id}", headers=auth(tokens[0]))
    assert_problem(r, 429, "rate-limited")
    version = view(client, game_id)["version"]  # ...but requests without one still work
    acting = tokens[view(client, game_id)["to_act"][0]]
    move = {"type": "discard", "lot": 1}
    assert_problem(post_move(client, game_id, acting, move), 429, "rate-limited")
    assert view(client, game_id)["version"] == version
    # another address has its own count
    other = {"REMOTE_ADDR": "10.9.9.9"}
    r = client.get(f"/games/{game_id}", headers=auth(tokens[0]), environ_base=other)
    assert r.status_code == 200
    r = client.get(f"/games/{game_id}", headers=BOGUS, environ_base=other)
    assert_problem(r, 403, "invalid-token")


def test_auth_failures_are_counted_across_processes(make_app: Callable[..., Flask]) -> None:
    first = make_app("manhattan", RATE_LIMIT_AUTH_FAILURES="2/minute").test_client()
    second = make_app("manhattan", RATE_LIMIT_AUTH_FAILURES="2/minute").test_client()
    game_id, _, tokens = started_game(first, 2)
    for _ in range(2):
        assert_problem(first.get(f"/games/{game_id}", headers=BOGUS), 403, "invalid-token")
    # the other worker has not blocked the address yet: its next failure is over the rate
    assert second.get(f"/games/{game_id}", headers=auth(tokens[0])).status_code == 200
    assert_problem(second.get(f"/games/{game_id}", headers=BOGUS), 429, "rate-limited")
    assert_problem(second.get(f"/games/{game_id}", headers=auth(tokens[0])), 429, "rate-limited")


def test_auth_failures_not_limited_by_default(manhattan_client: Any) -> None:
    game_id, _, _ = started_game(manhattan_client, 2)
    for _ in range(30):
        r = manhattan_client.get(f"/games/{game_id}", headers=BOGUS)
        assert_problem(r, 403, "invalid-token")


# -- the limiter's storage down -------------------------------------------------------


def test_limit_storage_down_is_503_not_500(make_app: Callable[..., Flask]) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    limits = {"RATE_LIMIT_CREATES": "5/minute", "RATE_LIMIT_JOINS": "5/minute"}
    limits |= {"RATE_LIMIT_AUTH_FAILURES": "5/minute", "RATE_LIMIT_MOVES": "5/second"}
    app = make_app("manhattan", REDIS_URL=dead, REDIS_SOCKET_TIMEOUT=0.5, **limits)
    client = app.test_client()
    for method, path, headers in [
        ("POST", "/games", {}),
        ("POST", "/games/abc/players", {}),
        ("GET", "/games/abc", BOGUS),
        ("POST", "/games/abc/moves", BOGUS),
    ]:
        body = {"name": "ann"} if path.endswith("players") else {"type": "discard", "lot": 1}
        r = client.open(
            path, method=method, json=body if method == "POST" else None, headers=headers
        )
        assert_problem(r, 503, "storage-unavailable")
        assert int(r.headers["Retry-After"]) >= 1


def test_a_failed_count_of_an_auth_failure_keeps_the_answer(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("manhattan", RATE_LIMIT_AUTH_FAILURES="1/minute")
    client = app.test_client()
    game_id, _, _ = started_game(client, 2)
    strategy = app.extensions["address_limits"].limiter.limiter

    def down(*_: Any, **__: Any) -> bool:
        raise redis.exceptions.ConnectionError("gone")

    monkeypatch.setattr(strategy, "hit", down)
    for _ in range(3):  # Redis went away after the game was read: the 403 stands
        assert_problem(client.get(f"/games/{game_id}", headers=BOGUS), 403, "invalid-token")


# -- CORS -----------------------------------------------------------------------------

ORIGIN = "https://play.example.com"
PREFLIGHT = {
    "Origin": ORIGIN,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization, if-match, idempotency-key, content-type",
}


def test_cors_off_by_default(manhattan_client: Any) -> None:
    r = manhattan_client.get("/games", headers={"Origin": ORIGIN})
    assert r.status_code == 200
    assert "Access-Control-Allow-Origin" not in r.headers
    r = manhattan_client.options("/games", headers=PREFLIGHT)
    assert "Access-Control-Allow-Origin" not in r.headers


def test_cors_allow_list(make_app: Callable[..., Flask]) -> None:
    client = make_app("manhattan", CORS_ORIGINS=f"{ORIGIN}, http://localhost:3000").test_client()
    game_id, _, tokens = started_game(client, 2)
    r = client.options(f"/games/{game_id}/moves", headers=PREFLIGHT)
    assert r.status_code == 204
    assert r.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "POST" in r.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in r.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "if-match", "idempotency-key", "content-type"} <= allowed
    assert int(r.headers["Access-Control-Max-Age"]) > 0
    r = client.get(f"/games/{game_id}", headers={"Origin": ORIGIN, **auth(tokens[0])})
    assert r.status_code == 200
    assert r.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "ETag" in r.headers["Access-Control-Expose-Headers"]
    assert "Origin" in r.headers["Vary"] and "Authorization" in r.headers["Vary"]
    r = client.get("/games/nope", headers={"Origin": "http://localhost:3000"})
    assert r.status_code == 404  # errors carry the headers too, so the page can read them
    assert r.headers["Access-Control-Allow-Origin"] == "http://localhost:3000"
    evil = {**PREFLIGHT, "Origin": "https://evil.example"}
    r = client.options(f"/games/{game_id}/moves", headers=evil)
    assert "Access-Control-Allow-Origin" not in r.headers
    r = client.get(f"/games/{game_id}", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in r.headers


def test_cors_any_origin(make_app: Callable[..., Flask]) -> None:
    client = make_app("windcity", CORS_ORIGINS="*").test_client()
    r = client.options("/games", headers={**PREFLIGHT, "Origin": "capacitor://localhost"})
    assert r.status_code == 204
    assert r.headers["Access-Control-Allow-Origin"] == "capacitor://localhost"
