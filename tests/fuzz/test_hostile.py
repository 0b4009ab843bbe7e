"""Hypothesis: hostile input at every operation of both services' OpenAPI documents.

Schemathesis (test_openapi.py) generates from the documents, so it sends what the
documents describe. These generators send what an attacker types instead, one class of
input per strategy, each of which once gave a 5xx or was silently accepted:

- bodies nested far deeper than any request (up to 60,000 levels): ``400 invalid-json``;
- integers of 21 to 6,000 digits (past Python's 4,300-digit int-from-string limit) in
  any body field, list or query number: ``422``;
- duplicate keys, and ``NaN``/``Infinity``: ``400 invalid-json``;
- odd event ids in ``after`` and SSE's ``Last-Event-ID`` (2^64 and beyond, 20 digits,
  Unicode digits, a trailing newline, signs, spaces): ``422`` unless it is an event id.

Every answer: no 5xx, problem+json with a code for every error, ``nosniff``. Cases are
aimed at a real running game with the acting seat's token, so authenticated paths run.
``FUZZ_EXAMPLES`` scales the examples (x10 here: each case is one cheap request).
"""

from __future__ import annotations

import json
import re
from typing import Any

import hypothesis
import pytest
from flask import Flask
from hypothesis import strategies as st

from shared.http.jsonbody import MAX_DEPTH
from tests.conftest import _factory
from tests.fuzz.test_openapi import EXAMPLES, SEED
from tests.kit.helpers import PROBLEM, auth, started_game

EVENT_ID = re.compile(r"[0-9]{1,19}(-[0-9]{1,19})?")  # the documented rule, as an oracle
SETTINGS = hypothesis.settings(
    max_examples=EXAMPLES * 10,
    deadline=None,
    database=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)


# -- generators -------------------------------------------------------------------------

keys = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    keys,
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=12,
)


@st.composite
def deep_bodies(draw: st.DrawFn) -> str:
    """Arrays and objects nested deeper than MAX_DEPTH, closed or not."""
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}"), ('[{"b":', "}]")]))
    depth = draw(st.integers(MAX_DEPTH + 1, 60_000 // (len(opener) + len(closer))))
    inner = json.dumps(draw(scalars))
    return opener * depth + (inner + closer * depth if draw(st.booleans()) else "")


def huge_int(low: int = 21, high: int = 6_000) -> st.SearchStrategy[str]:
    """Integer literals of ``low`` to ``high`` digits, either sign."""
    return st.tuples(st.sampled_from(["", "-"]), st.integers(1, 9), st.integers(low, high)).map(
        lambda t: f"{t[0]}{t[1]}{'0' * (t[2] - 1)}"
    )


@st.composite
def huge_int_bodies(draw: st.DrawFn, fields: list[str]) -> str:
    """A well-formed object with a huge integer in one of the operation's fields (or in
    a list in it): well-formed JSON, so the schema answers 422."""
    number = draw(huge_int())
    value = draw(st.sampled_from([number, f"[1, {number}]", f"[{number}]"]))
    field = draw(st.sampled_from(fields or ["x"]))
    others = draw(st.dictionaries(keys.filter(lambda k: k != field), values, max_size=2))
    head = json.dumps(others)[1:-1]
    return "{" + (head + ", " if head else "") + json.dumps(field) + ": " + value + "}"


@st.composite
def duplicate_key_bodies(draw: st.DrawFn, fields: list[str]) -> str:
    """An object (maybe inside a list or another object) with one key twice."""
    key = draw(st.sampled_from(fields) | keys) if fields else draw(keys)
    first, second = draw(values), draw(values)
    obj = (
        "{"
        + f"{json.dumps(key)}: {json.dumps(first)}, {json.dumps(key)}: {json.dumps(second)}"
        + "}"
    )
    return draw(st.sampled_from([obj, f"[{obj}]", '{"outer": ' + obj + "}"]))


constant_bodies = st.sampled_from(["NaN", "Infinity", "-Infinity"]).map(
    lambda c: '{"players": ' + c + "}"
)

odd_event_ids = st.one_of(
    st.integers(2**64, 10**40).map(str),
    st.integers(10**19, 2**64 - 1).map(str),  # 20 digits, inside 64 bits
    st.integers(0, 10**19 - 1).map(str),  # fine
    st.tuples(st.integers(0, 2**70), st.integers(0, 2**70)).map(lambda t: f"{t[0]}-{t[1]}"),
    huge_int(21, 5_000),
    st.sampled_from(["\uff15", "\u0665", "5\n", " 1", "1 ", "+1", "-1", "1-", "-", "1-2-3", ""]),
    st.text(max_size=30),
)


# -- the app and its operations ---------------------------------------------------------


def _operations(app: Flask) -> list[tuple[str, str, dict[str, Any]]]:
    spec = app.test_client().get("/openapi.json").get_json()
    ops = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method != "parameters":
                ops.append((method.upper(), path, op))
    return ops


def _fields(spec: dict[str, Any], node: Any) -> set[str]:
    """Every property name reachable from a schema node (through $ref, oneOf, items)."""
    found: set[str] = set()
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            return _fields(spec, spec["components"]["schemas"][name])
        found |= set(node.get("properties", {}))
        for child in [*node.get("properties", {}).values(), *node.get("oneOf", [])]:
            found |= _fields(spec, child)
        if "items" in node:
            found |= _fields(spec, node["items"])
    return found


class Target:
    """A service app with a running game to aim at (recreated when it is over)."""

    def __init__(self, game: str, redis_url: str) -> None:
        self.app = _factory(game)(
            {
                "REDIS_URL": redis_url,
                "TESTING": True,
                "SSE_MAX_SECONDS": 0.02,
                "SSE_HEARTBEAT_SECONDS": 0.02,
            }
        )
        self.client = self.app.test_client()
        self.spec = self.client.get("/openapi.json").get_json()
        self.ops = _operations(self.app)
        self.game: tuple[str, str, list[str]] | None = None

    def body_fields(self, op: dict[str, Any]) -> list[str]:
        content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        return sorted(_fields(self.spec, content.get("schema", {})))

    def running(self) -> tuple[str, str, list[str]]:
        if self.game is not None:
            r = self.client.get(f"/games/{self.game[0]}")
            if r.status_code == 200 and r.get_json()["status"] == "running":
                return self.game
        self.game = started_game(self.client, 2)
        return self.game

    def send(self, method: str, path: str, **kwargs: Any) -> Any:
        game_id, host, tokens = self.running()
        headers = kwargs.pop("headers", {})
        token = host if path.endswith("/start") or method == "DELETE" else tokens[0]
        url = path.replace("{game_id}", game_id)
        response = self.client.open(
            url, method=method, headers={**auth(token), **headers}, buffered=True, **kwargs
        )
        check(response)
        return response


def check(response: Any) -> None:
    """No 5xx; every error problem+json with a code; nosniff everywhere."""
    assert response.status_code < 500, (response.status_code, response.get_data()[:300])
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    if response.status_code >= 400:
        assert response.mimetype == PROBLEM, response.headers
        body = json.loads(response.get_data())
        assert body["status"] == response.status_code and body["code"], body
        assert "Traceback" not in response.get_data(as_text=True)


def _problem_code(response: Any) -> tuple[int, str]:
    return response.status_code, json.loads(response.get_data()).get("code", "")


@pytest.fixture(scope="module", params=["manhattan", "windcity"])
def target(request: pytest.FixtureRequest, redis_url: str) -> Target:
    return Target(request.param, redis_url)


# -- the properties ---------------------------------------------------------------------


@hypothesis.seed(SEED)
@SETTINGS
@hypothesis.given(data=st.data())
def test_hostile_bodies_at_every_operation(target: Target, data: st.DataObject) -> None:
    method, path, op = data.draw(st.sampled_from(target.ops), label="operation")
    fields = target.body_fields(op)
    kind, body = data.draw(
        st.one_of(
            deep_bodies().map(lambda b: ("invalid", b)),
            duplicate_key_bodies(fields).map(lambda b: ("invalid", b)),
            constant_bodies.map(lambda b: ("invalid", b)),
            huge_int_bodies(fields).map(lambda b: ("huge", b)),
        ),
        label="body",
    )
    assert len(body.encode()) < 65_536  # under MAX_CONTENT_LENGTH: the parser sees it
    r = target.send(method, path, data=body, headers={"Content-Type": "application/json"})
    if "requestBody" not in op:
        return  # the body is ignored: any answer but a 5xx
    if kind == "invalid":
        assert _problem_code(r) == (400, "invalid-json"), (method, path, body[:200])
    else:
        assert _problem_code(r) == (422, "validation-error"), (method, path, body[:200])


@hypothesis.seed(SEED)
@SETTINGS
@hypothesis.given(data=st.data())
def test_hostile_query_numbers_at_every_operation(target: Target, data: st.DataObject) -> None:
    method, path, op = data.draw(st.sampled_from(target.ops), label="operation")
    opaque = {"cursor", "watch", "invite"}  # a cursor, a watch or invite code: any string
    names = [  # every query parameter but the opaque ones
        p["name"]
        for p in op.get("parameters", [])
        if p["in"] == "query" and p["name"] not in opaque
    ]
    name = data.draw(st.sampled_from(names or ["limit"]), label="parameter")
    value = data.draw(huge_int(), label="value")
    r = target.send(method, path, query_string={name: value})
    if names:  # a huge number is no valid value of any query parameter
        assert _problem_code(r) == (422, "validation-error"), (method, path, name)


@hypothesis.seed(SEED)
@SETTINGS
@hypothesis.given(after=odd_event_ids, sse=st.booleans(), header=st.booleans())
def test_odd_event_ids(target: Target, after: str, sse: bool, header: bool) -> None:
    headers = {"Accept": "text/event-stream"} if sse else {}
    kwargs: dict[str, Any] = {"query_string": {"after": after}}
    if sse and header:
        # On the wire a header is bytes (a UTF-8 client's bytes reach WSGI as latin-1),
        # and no control character gets through gunicorn.
        hypothesis.assume(not any(ord(c) < 32 or ord(c) == 127 for c in after))
        headers["Last-Event-ID"] = after.encode().decode("latin-1")
        kwargs = {}
    r = target.send("GET", "/games/{game_id}/events", headers=headers, **kwargs)
    valid = EVENT_ID.fullmatch(after) is not None or (after == "" and sse and header)
    if valid:
        assert r.status_code == 200, (after, r.get_data()[:300])
        assert r.mimetype == ("text/event-stream" if sse else "application/json")
    else:
        assert _problem_code(r) == (422, "validation-error"), after
