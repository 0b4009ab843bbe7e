"""shared/http/fastpath.py: a game's read and its moves answered without Flask's machinery,
exactly as Flask answers them.

Two apps on the same Redis play the same games (same seeds, same moves, same request
ids): one with the hot path, one with Flask alone. Every answer, success or problem,
must be the same bytes and headers (but for the game ids, tokens' effects and clocks),
and the same metrics and log lines must come out."""

from __future__ import annotations

import functools
import logging
import random
import re
import uuid
from collections import Counter
from typing import Any

import orjson
import pytest
from flask import Flask, Response
from flask.testing import FlaskClient

from shared.http.fastpath import AFTER, BEFORE, HotPath, hook_name
from shared.http.middleware.request_log import fresh_id
from shared.ops import metrics
from tests.kit.helpers import auth

TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")
DURATION = re.compile(r" [\d.]+ms ")


class Side:
    """One app and one game on it, driven request by request."""

    def __init__(self, app: Flask, hot: bool, seed: int, players: int = 3) -> None:
        if not hot:
            assert isinstance(app.wsgi_app, HotPath)
            app.wsgi_app = app.wsgi_app.inner  # type: ignore[method-assign,assignment]
        self.app, self.client = app, app.test_client()
        created = self.client.post("/games", json={"players": players, "seed": seed}).get_json()
        self.id, self.host = created["id"], created["host_token"]
        self.tokens = [
            self.client.post(f"/games/{self.id}/players", json={"name": f"p{i}"}).get_json()[
                "token"
            ]
            for i in range(players)
        ]
        self.client.post(f"/games/{self.id}/start", headers=auth(self.host))

    def answered(self) -> int:
        hot = self.app.wsgi_app
        return hot.answered if isinstance(hot, HotPath) else 0


def call(side: Side, method: str, path: str, rid: str, **kw: Any) -> Any:
    headers = {"X-Request-Id": rid, **kw.pop("headers", {})}
    return side.client.open(path.replace("{id}", side.id), method=method, headers=headers, **kw)


def shape(side: Side, response: Response) -> tuple[Any, ...]:
    """The answer with this side's game id and the clocks blanked."""
    text = response.get_data(as_text=True).replace(side.id, "<id>")
    text = TIMESTAMP.sub("<time>", text)
    body = orjson.loads(text) if text else None
    if isinstance(body, dict):
        body.pop("seed_commitment", None)
        if isinstance(body.get("game"), dict):
            body["game"].pop("seed_commitment", None)
    headers = [(k, v.replace(side.id, "<id>")) for k, v in response.headers.items()]
    return response.status, headers, body


def same(hot: Side, flask: Side, method: str, path: str, rid: str, **kw: Any) -> Response:
    """Send the request to both sides; their answers must match."""
    a = call(hot, method, path, rid, **dict(kw))
    b = call(flask, method, path, rid, **dict(kw))
    assert shape(hot, a) == shape(flask, b), (method, path)
    return a


def pair(make_app: Any, seed: int, **config: Any) -> tuple[Side, Side]:
    return (
        Side(make_app("manhattan", **config), True, seed),
        Side(make_app("manhattan", **config), False, seed),
    )


def samples() -> Counter[tuple[str, ...]]:
    found: Counter[tuple[str, ...]] = Counter()
    for family in (metrics.REQUESTS, metrics.MOVES_REJECTED):
        for metric in family.collect():
            for sample in metric.samples:
                if sample.name.endswith("_total"):
                    found[tuple(sample.labels.values())] += int(sample.value)
    return found


@pytest.mark.parametrize("config", [{}, {"CORS_ORIGINS": "https://a.example"}])
def test_whole_games_answer_the_same_through_either_path(make_app, config, caplog):
    hot, flask = pair(make_app, 7, **config)
    rng = random.Random(7)
    origin = {"Origin": "https://a.example"} if config else {}
    n = 0
    while True:
        view = same(hot, flask, "GET", "/games/{id}", f"r{n}a").get_json()
        if view["status"] != "running":
            break
        token_of = {side: side.tokens[view["to_act"][0]] for side in (hot, flask)}
        for side in (hot, flask):
            side.client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token_of[side]}"
        read = same(hot, flask, "GET", "/games/{id}?include=legal_moves", f"r{n}b", headers=origin)
        move = rng.choice(read.get_json()["legal_moves"])
        key = {"Idempotency-Key": f"k{n}"}
        same(hot, flask, "POST", "/games/{id}/moves", f"r{n}c", json=move, headers=key | origin)
        if n % 7 == 0:  # a retry: the first answer again, nothing applied
            same(hot, flask, "POST", "/games/{id}/moves", f"r{n}d", json=move, headers=key)
        n += 1
    assert hot.answered() > 2 * n  # the hot side really answered most of them
    assert n > 20


def test_problems_and_their_counts_and_log_lines_are_the_same(make_app, caplog):
    hot, flask = pair(make_app, 3, LOG_LEVEL="INFO")
    view = hot.client.get(f"/games/{hot.id}?include=legal_moves").get_json()
    seat = view["to_act"][0]
    other = (seat + 1) % 3
    legal = hot.client.get(
        f"/games/{hot.id}?include=legal_moves", headers=auth(hot.tokens[seat])
    ).get_json()["legal_moves"]
    move = legal[0]
    tokens = {
        "seat": lambda s: s.tokens[seat],
        "other": lambda s: s.tokens[other],
        "host": lambda s: s.host,
    }
    for side in (hot, flask):  # a move without a token: both apps refuse it alike
        assert side.client.post(f"/games/{side.id}/moves", json=move).status_code == 401
    cases: list[tuple[str, str, str, dict[str, str], Any]] = [
        ("GET", "/games/{id}", "none", {}, None),
        ("GET", "/games/{id}", "seat", {"Authorization": "Basic abc"}, None),
        ("GET", "/games/{id}", "seat", {"Authorization": "Bearer nope"}, None),
        ("GET", "/games/nosuchgame", "seat", {}, None),
        ("GET", "/games/{id}?include=legal_moves", "host", {}, None),
        ("GET", "/games/{id}?include=nothing", "seat", {}, None),
        ("GET", "/games/{id}", "seat", {"If-None-Match": '"1"'}, None),
        ("POST", "/games/{id}/moves", "none", {}, move),
        ("POST", "/games/{id}/moves", "host", {}, move),
        ("POST", "/games/{id}/moves", "other", {}, move),
        ("POST", "/games/{id}/moves", "seat", {"Idempotency-Key": "bad key"}, move),
        ("POST", "/games/{id}/moves", "seat", {"If-Match": '"99"'}, move),
        ("POST", "/games/nosuchgame/moves", "seat", {}, move),
        ("POST", "/games/{id}/moves", "seat", {}, {"type": "nonsense"}),
        ("POST", "/games/{id}/moves", "seat", {"If-Match": '"1", "4"'}, move),
        ("POST", "/games/{id}/moves", "seat", {"Idempotency-Key": "k"}, move),
        ("POST", "/games/{id}/moves", "seat", {"Idempotency-Key": "k"}, legal[-1]),
    ]
    before = samples()
    caplog.set_level(logging.INFO, logger="boardgames.request")
    caplog.clear()
    for n, (method, path, who, headers, body) in enumerate(cases):
        for side in (hot, flask):
            side.client.environ_base.pop("HTTP_AUTHORIZATION", None)
            if who != "none":
                side.client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {tokens[who](side)}"
        kw = {} if body is None else {"json": body}
        same(hot, flask, method, path, f"case{n}", headers=headers, **kw)
    lines = [r for r in caplog.records if r.name == "boardgames.request"]
    fields = ("method", "route", "path", "status", "game_id", "seat", "request_id", "code")
    by_side: dict[str, list[tuple[Any, ...]]] = {hot.id: [], flask.id: []}
    for record in lines:
        path = record.__dict__["path"]
        side_id = hot.id if hot.id in path else flask.id if flask.id in path else None
        if side_id is not None:
            found = (str(record.__dict__.get(f)).replace(side_id, "<id>") for f in fields)
            line = DURATION.sub("<ms>", record.getMessage().replace(side_id, "<id>"))
            by_side[side_id].append((*found, line))
    assert by_side[hot.id] == by_side[flask.id] and len(by_side[hot.id]) == len(cases) - 2
    counted = samples() - before
    assert all(v % 2 == 0 for v in counted.values()), counted  # both sides counted alike
    assert hot.answered() > 0


def test_a_hook_it_does_not_know_turns_it_off(make_app):
    app = make_app("manhattan")
    seen = []

    @app.after_request
    def _mine(response: Response) -> Response:
        seen.append(response.status_code)
        return response

    side = Side(app, True, 1)
    assert side.client.get(f"/games/{side.id}").status_code == 200
    assert side.answered() == 0 and seen[-1] == 200


def test_a_kit_hook_wrapped_is_a_hook_it_does_not_know(make_app):
    app = make_app("manhattan")
    hooks = app.after_request_funcs[None]
    seen = []

    def counted(hook: Any) -> Any:
        @functools.wraps(hook)
        def wrapper(response: Response) -> Response:
            seen.append(response.status_code)
            return hook(response)

        return wrapper

    hooks[:] = [counted(hook) for hook in hooks]
    side = Side(app, True, 1)
    assert side.client.get(f"/games/{side.id}").status_code == 200
    assert side.answered() == 0 and seen[-1] == 200


def test_its_tables_name_exactly_the_hooks_the_kit_adds(make_app, tmp_path):
    keys = tmp_path / "keys.json"
    keys.write_text('{"keys": []}')
    everything = {"CORS_ORIGINS": "*", "RATE_LIMIT_AUTH_FAILURES": "5/minute"}
    app = make_app("manhattan", API_KEYS_FILE=str(keys), **everything)
    assert [hook_name(h) for h in app.before_request_funcs[None]] == list(BEFORE)
    assert [hook_name(h) for h in reversed(app.after_request_funcs[None])] == list(AFTER)
    side = Side(make_app("manhattan", **everything), True, 1)
    assert side.client.get(f"/games/{side.id}").status_code == 200
    hot = side.app.wsgi_app
    assert isinstance(hot, HotPath) and side.answered() == 1 and len(hot.after) == 4


def test_a_client_keeping_contexts_gets_flasks_path(make_app):
    side = Side(make_app("manhattan"), True, 1)
    client: FlaskClient
    with side.app.test_client() as client:
        assert client.get(f"/games/{side.id}").status_code == 200
    assert side.answered() == 0
    assert side.client.get(f"/games/{side.id}").status_code == 200
    assert side.answered() == 1


def test_an_error_met_on_the_hot_path_is_answered_without_doing_the_work_again(make_app):
    side = Side(make_app("manhattan"), True, 2)
    writes = side.app.extensions["game_kit"].games.writes
    reads = []
    original = writes.read

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(args[0])
        return original(*args, **kwargs)

    writes.read = counted
    seat = side.client.get(f"/games/{side.id}").get_json()["to_act"][0]
    legal = side.client.get(
        f"/games/{side.id}?include=legal_moves", headers=auth(side.tokens[seat])
    ).get_json()["legal_moves"]
    wrong = auth(side.tokens[(seat + 1) % 3])
    first = side.client.post(f"/games/{side.id}/moves", json=legal[0], headers=wrong)
    assert first.status_code == 409 and first.get_json()["code"] == "not-your-turn"
    reads.clear()
    answered = side.answered()
    r = side.client.get(f"/games/{side.id}", headers=auth("not-a-token"))
    assert r.status_code == 403 and r.get_json()["code"] == "invalid-token"
    r = side.client.post(f"/games/{side.id}/moves", json=legal[0], headers=wrong)
    assert r.status_code == 409 and r.get_json()["code"] == "not-your-turn"
    assert reads == [side.id, side.id] and side.answered() == answered
    assert r.headers["X-Request-Id"] and r.headers["X-Content-Type-Options"] == "nosniff"


def test_a_body_never_seen_is_loaded_on_the_hot_path_and_a_bad_one_is_flasks(make_app):
    side = Side(make_app("manhattan"), True, 4)
    seat = side.client.get(f"/games/{side.id}").get_json()["to_act"][0]
    headers = auth(side.tokens[seat])
    legal = side.client.get(f"/games/{side.id}?include=legal_moves", headers=headers)
    answered = side.answered()
    bad = side.client.post(f"/games/{side.id}/moves", data=b'{"type": 1', headers=headers)
    assert bad.status_code == 400 and bad.get_json()["code"] == "invalid-json"
    assert side.answered() == answered
    move = legal.get_json()["legal_moves"][0]
    r = side.client.post(f"/games/{side.id}/moves", json=move, headers=headers)
    assert r.status_code == 200 and side.answered() == answered + 1


def test_fresh_request_ids_are_uuid4_hex():
    ids = {fresh_id() for _ in range(1000)}
    assert len(ids) == 1000
    for rid in ids:
        found = uuid.UUID(hex=rid)
        assert found.hex == rid and found.version == 4 and found.variant == uuid.RFC_4122


def test_routing_by_host_is_left_to_flask(make_app):
    side = Side(make_app("manhattan", SERVER_NAME="localhost"), True, 1)
    assert side.client.get(f"/games/{side.id}").status_code == 200
    assert side.answered() == 0
