"""Schemathesis against each service's own OpenAPI document, every operation.

Each service runs as a WSGI app on a fresh Redis-backed app (the session's private
Redis). Every generated case is sent either as generated or aimed at a real game: a
running game with the token of the seat to act (sometimes with one of its legal moves as
the body, so games progress), another seat's or the host's token, or an open game. The
checks: Schemathesis's defaults (no 5xx, status codes, content types, headers and bodies
conform to the document) plus our own: every error is RFC 9457 problem+json with a code.

``FUZZ_EXAMPLES`` (default 20) bounds the examples per operation; ``make fuzz`` sets 2000.
The seed is fixed (``FUZZ_SEED``, default 20240601), so a run is reproducible.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import hypothesis
import pytest
import schemathesis
from flask import Flask
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.conftest import _factory

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "20"))
SEED = int(os.environ.get("FUZZ_SEED", "20240601"))
PROBLEM = "application/problem+json"
REQUESTS: Counter[str] = Counter()  # requests sent, per service
STATUSES: Counter[tuple[str, str, int]] = Counter()  # (service, operation, status)
# (game, Authorization, Idempotency-Key) -> the move applied under it: the same key with
# another move is a documented 422 idempotency-key-reused, a refusal for the key's state
APPLIED_KEYS: dict[tuple[str, str, str], str] = {}


@schemathesis.check
def problem_json(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every error response is problem+json with a matching status and a code."""
    if response.status_code < 400:
        return None
    content_type = response.headers.get("content-type") or response.headers.get("Content-Type")
    if isinstance(content_type, list):
        content_type = content_type[0]
    assert content_type and content_type.startswith(PROBLEM), f"not problem+json: {content_type}"
    body = json.loads(response.content)
    assert body.get("status") == response.status_code, body
    assert isinstance(body.get("code"), str) and body["code"], body
    assert {"type", "title", "detail"} <= set(body), body
    assert "Traceback" not in response.text
    return True


class Seeds:
    """Real games to aim generated cases at, recreated when they moved on."""

    def __init__(self, app: Flask, game: str) -> None:
        self.app = app
        self.rng = random.Random(SEED)
        self.client = app.test_client()
        self.game = game
        self.running: dict[str, Any] | None = None

    def _create(self, players: int) -> tuple[str, str]:
        r = self.client.post("/games", json={"players": players})
        assert r.status_code == 201, r.get_json()
        return r.get_json()["id"], r.get_json()["host_token"]

    def open_game(self) -> tuple[str, str]:
        game_id, host = self._create(3)
        r = self.client.post(f"/games/{game_id}/players", json={"name": "first"})
        assert r.status_code == 201
        return game_id, host

    def running_game(self) -> dict[str, Any]:
        game = self.running
        if game is not None:
            r = self.client.get(f"/games/{game['id']}")
            body = r.get_json() if r.status_code == 200 else {}
            # a seat the fuzzer resigned is played by bots (no worker runs here): new game
            active = all(p.get("status", "active") == "active" for p in body.get("players", []))
            if body.get("status") == "running" and active:
                game["to_act"] = body["to_act"]
                return game
        game_id, host = self._create(2)
        tokens = []
        for name in ("ann", "bob"):
            r = self.client.post(f"/games/{game_id}/players", json={"name": name})
            assert r.status_code == 201
            tokens.append(r.get_json()["token"])
        r = self.client.post(f"/games/{game_id}/start", headers={"Authorization": f"Bearer {host}"})
        assert r.status_code == 200, r.get_json()
        self.running = {
            "id": game_id,
            "host": host,
            "tokens": tokens,
            "to_act": r.get_json()["to_act"],
        }
        return self.running

    def legal(self, game: dict[str, Any], token: str) -> list[dict[str, Any]]:
        r = self.client.get(
            f"/games/{game['id']}/legal-moves", headers={"Authorization": f"Bearer {token}"}
        )
        return r.get_json()["moves"] if r.status_code == 200 else []


def _negative_outside_body_and_query(case: Any) -> bool:
    """Whether the case is invalid somewhere _aim would overwrite (path or headers)."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_negative:
        return False
    where = {loc for loc in ParameterLocation if meta.is_negative_at(loc)}
    location = getattr(meta.phase.data, "parameter_location", None)
    if location is not None:
        where.add(location)
    return not where or bool(where - {ParameterLocation.BODY, ParameterLocation.QUERY})


def _aim(case: Any, rng: random.Random, seeds: Seeds) -> dict[str, str]:
    """Point the case at a real game (or leave it as generated); returns the explicit
    headers to send (a real token replaces a generated one, never added where the case
    has none: Schemathesis's missing-header cases must stay missing)."""
    if "game_id" not in (case.path_parameters or {}):
        return {}
    if _negative_outside_body_and_query(case):
        return {}  # keep the invalid part invalid: the API must reject it
    target = rng.choice(["generated", "to_act", "to_act", "other", "host", "open", "none"])
    if case.method == "POST" and case.path.endswith("/players") and rng.random() < 0.5:
        target = "open"  # only an open game takes a player: reach the success path often
    if target == "generated":
        return {}
    headers = dict(case.headers or {})
    if target == "open":
        game_id, token = seeds.open_game()
    else:
        game = seeds.running_game()
        game_id = game["id"]
        acting = game["to_act"][0] if game["to_act"] else 0
        if target == "to_act":
            token = game["tokens"][acting]
            if case.method == "POST" and case.path.endswith("/moves"):
                legal = seeds.legal(game, token)
                if legal and rng.random() < 0.5:
                    case.body = rng.choice(legal)
                    headers.pop("If-Match", None)
        elif target == "other":
            token = game["tokens"][1 - acting]
        elif target == "host":
            token = game["host"]
        else:
            token = None
    case.path_parameters = {**case.path_parameters, "game_id": game_id}
    explicit = {}
    if token is not None and "Authorization" in headers:
        explicit["Authorization"] = f"Bearer {token}"  # sent instead of the generated one
    case.headers = headers
    return explicit


def _bound(case: Any) -> None:
    """Keep long-polls short: the test must stay bounded in time."""
    if case.query and "wait" in case.query:
        case.query = {**case.query, "wait": 0}


def _fuzz_app(game: str, redis_url: str) -> Flask:
    return _factory(game)(
        {
            "REDIS_URL": redis_url,
            "TESTING": True,
            "SSE_MAX_SECONDS": 0.2,
            "SSE_HEARTBEAT_SECONDS": 0.1,
        }
    )


def summary_lines() -> list[str]:
    """Requests per service, and how many of them succeeded (tests/fuzz/conftest.py)."""
    lines = []
    for service, count in sorted(REQUESTS.items()):
        ok = sum(n for (s, _, st), n in STATUSES.items() if s == service and st < 300)
        lines.append(
            f"{service}: {count} requests ({ok} 2xx), up to {EXAMPLES} examples per operation"
        )
    return lines


@pytest.fixture(scope="module", autouse=True)
def reached_deep_paths() -> Any:
    """After the run: it reached deep paths (moves applied, players joined), not only 404s."""
    yield
    for service in {s for (s, _, _) in STATUSES}:
        reached = {op for (s, op, st) in STATUSES if s == service and st < 300}
        for op in ("POST /games/{game_id}/moves", "POST /games/{game_id}/players"):
            ran = any(s == service and o == op for (s, o, _) in STATUSES)
            assert not ran or op in reached, f"{service}: {op} never succeeded"


@pytest.fixture(scope="module")
def manhattan_fuzz_app(redis_url: str) -> Flask:
    return _fuzz_app("manhattan", redis_url)


@pytest.fixture(scope="module")
def windcity_fuzz_app(redis_url: str) -> Flask:
    return _fuzz_app("windcity", redis_url)


@pytest.fixture(scope="module")
def manhattan_seeds(manhattan_fuzz_app: Flask) -> Seeds:
    return Seeds(manhattan_fuzz_app, "manhattan")


@pytest.fixture(scope="module")
def windcity_seeds(windcity_fuzz_app: Flask) -> Seeds:
    return Seeds(windcity_fuzz_app, "windcity")


SETTINGS = hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)

# The documents are loaded at import from apps that never touch Redis (the address is
# unused); each case is then sent to the fixture's Redis-backed app of the same factory.
# A schema-valid request may still be refused for the game's state: 409 (rules, turn),
# 412 (If-Match names another version), 404 (no such game), 401/403 (token), 429.
_CONFIG = schemathesis.Config.from_dict(
    {
        "seed": SEED,
        "checks": {
            "positive_data_acceptance": {
                "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "412", "429"]
            }
        },
    }
)
_DOC_CONFIG = {"REDIS_URL": "redis://127.0.0.1:9/0", "TESTING": True}


def _load(game: str) -> Any:
    return schemathesis.openapi.from_wsgi(
        "/openapi.json", _factory(game)(_DOC_CONFIG), config=_CONFIG
    )


manhattan = _load("manhattan")
windcity = _load("windcity")


def _run(case: Any, seeds: Seeds, service: str) -> None:
    explicit = _aim(case, seeds.rng, seeds)
    _bound(case)
    REQUESTS[service] += 1
    excluded = []
    listing = case.path in ("/games", "/players/me/games")
    if listing and case.method == "GET" and "cursor" in (case.query or {}):
        # A cursor is opaque: only values from ``next_cursor`` are valid, which a schema
        # cannot express; any other string is a documented 422 (checked by problem_json).
        excluded.append(positive_data_acceptance)
    body = case.body if isinstance(case.body, dict) else {}
    hook = case.path == "/players/me/webhook" and "url" in body
    if isinstance(case.body, dict) and ("webhook" in case.body or hook):
        # A webhook URL must reach a public address (checked by resolving its host, the
        # SSRF guard), which a schema cannot express: a refusal is a documented 422
        # webhook-url-refused (checked by problem_json).
        excluded.append(positive_data_acceptance)
    if case.path == "/players" and "external_id" in body:
        # A platform's reference needs API keys, which this service has off: a
        # documented 422 on external_id (checked by problem_json).
        excluded.append(positive_data_acceptance)
    key = _key_use(case, explicit)
    if key is not None and APPLIED_KEYS.get(key[0], key[1]) != key[1]:
        excluded.append(positive_data_acceptance)
    response = case.call_and_validate(
        app=seeds.app,
        headers=explicit or None,
        additional_checks=[problem_json],
        excluded_checks=excluded,
    )
    STATUSES[(service, f"{case.method} {case.path}", response.status_code)] += 1
    if key is not None and response.status_code == 200:
        APPLIED_KEYS.setdefault(*key)


def _key_use(case: Any, explicit: dict[str, str]) -> tuple[tuple[str, str, str], str] | None:
    """For a move with an Idempotency-Key: ``((game, auth, key), canonical body)``."""
    headers = {**(case.headers or {}), **explicit}
    if not (case.method == "POST" and case.path.endswith("/moves")):
        return None
    if "Idempotency-Key" not in headers:
        return None
    game_id = str((case.path_parameters or {}).get("game_id"))
    where = (game_id, str(headers.get("Authorization")), str(headers["Idempotency-Key"]))
    return where, json.dumps(case.body, sort_keys=True, default=str)


@manhattan.parametrize()
@hypothesis.seed(SEED)
@SETTINGS
def test_manhattan_openapi(case: Any, manhattan_seeds: Seeds) -> None:
    _run(case, manhattan_seeds, "manhattan")


@windcity.parametrize()
@hypothesis.seed(SEED)
@SETTINGS
def test_windcity_openapi(case: Any, windcity_seeds: Seeds) -> None:
    _run(case, windcity_seeds, "windcity")
