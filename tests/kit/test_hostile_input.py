"""Bad input is a 4xx problem, never a 5xx: each case below once gave a 500 (or was
silently accepted). Flask's test client on a real Redis; the HTTP-level cases (chunked
bodies, gunicorn's own refusals) are in tests/reliability/test_gunicorn_edges.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import hypothesis
import pytest
from flask import Flask
from hypothesis import strategies as st

from shared.http.jsonbody import MAX_DEPTH, loads
from tests.kit.helpers import assert_problem, auth, create, started_game, view

JSON = {"Content-Type": "application/json"}


def _posts(client: Any) -> dict[str, dict[str, str]]:
    """Every POST that takes a JSON body, on a running toy game: path -> headers."""
    game_id, host, tokens = started_game(client, 2)
    open_id, _ = create(client)
    return {
        "/games": JSON,
        f"/games/{open_id}/players": JSON,
        f"/games/{game_id}/start": {**JSON, **auth(host)},
        f"/games/{game_id}/moves": {**JSON, **auth(tokens[0])},
    }


def _no_game_stored(client: Any, before: int) -> None:
    assert len(client.get("/games?limit=100").get_json()["games"]) == before


# -- nesting ----------------------------------------------------------------------------


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_100000_levels_of_nesting_are_invalid_json(make_app: Callable[..., Flask], opener):
    client = make_app("toy", MAX_CONTENT_LENGTH=1_000_000).test_client()
    for path, headers in _posts(client).items():
        r = client.post(path, data=opener * 100_000, headers=headers)
        body = assert_problem(r, 400, "invalid-json")
        assert f"nested deeper than {MAX_DEPTH}" in body["detail"]


def test_nesting_within_the_default_body_limit_is_invalid_json(toy_client):
    for path, headers in _posts(toy_client).items():
        assert_problem(
            toy_client.post(path, data="[" * 60_000, headers=headers), 400, "invalid-json"
        )
        closed = "[" * 5_000 + "]" * 5_000  # well-formed, but deeper than any request needs
        assert_problem(toy_client.post(path, data=closed, headers=headers), 400, "invalid-json")


def test_the_depth_bound_is_exact_and_ignores_brackets_in_strings(toy_client):
    text = "[" * (MAX_DEPTH - 1) + "{}" + "]" * (MAX_DEPTH - 1)  # exactly MAX_DEPTH deep
    r = toy_client.post("/games", data=text, headers=JSON)
    assert_problem(r, 422, "validation-error")  # parsed: the schema refuses a list
    r = toy_client.post("/games", data="[" + text + "]", headers=JSON)
    assert_problem(r, 400, "invalid-json")
    game_id, _ = create(toy_client)
    name = "[{" * 16  # 33 openers with the body's own: the scan runs and skips strings
    r = toy_client.post(f"/games/{game_id}/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    r = toy_client.post(
        f"/games/{game_id}/players", data='{"name": "[\\"[[[' + "[" * 40, headers=JSON
    )
    assert_problem(r, 400, "invalid-json")  # an unterminated string while scanning


# -- numbers ----------------------------------------------------------------------------


@pytest.mark.parametrize("digits", [21, 4_301, 5_000, 60_000])
@pytest.mark.parametrize("sign", ["", "-"])
def test_integers_of_thousands_of_digits_are_422(toy_client, digits, sign):
    huge = sign + "9" * digits
    before = len(toy_client.get("/games").get_json()["games"])
    for field in ("players", "rounds", "seed"):
        r = toy_client.post("/games", data=f'{{"{field}": {huge}}}', headers=JSON)
        body = assert_problem(r, 422, "validation-error")
        assert list(body["errors"]["json"]) == [field]
    _no_game_stored(toy_client, before)
    game_id, _, tokens = started_game(toy_client, 2)
    version = view(toy_client, game_id)["version"]
    token = tokens[view(toy_client, game_id)["to_act"][0]]
    r = toy_client.post(
        f"/games/{game_id}/moves",
        data=f'{{"type": "call", "value": {huge}}}',
        headers={**JSON, **auth(token)},
    )
    assert_problem(r, 422, "validation-error")
    assert view(toy_client, game_id)["version"] == version


@pytest.mark.parametrize("query", ["limit=" + "9" * 5_000, "limit=-" + "9" * 4_400])
def test_huge_integers_in_the_query_are_422(toy_client, query):
    assert_problem(toy_client.get(f"/games?{query}"), 422, "validation-error")
    game_id, _, _ = started_game(toy_client, 2)
    r = toy_client.get(f"/games/{game_id}/events?{query}")
    assert_problem(r, 422, "validation-error")
    r = toy_client.get(f"/games/{game_id}/events?wait=" + "9" * 5_000)
    assert_problem(r, 422, "validation-error")


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_non_json_constants_are_invalid_json(toy_client, value):
    r = toy_client.post("/games", data=f'{{"players": {value}}}', headers=JSON)
    assert_problem(r, 400, "invalid-json")


def test_a_float_overflowing_to_infinity_is_422(toy_client):
    r = toy_client.post("/games", data='{"players": 1e999}', headers=JSON)
    assert_problem(r, 422, "validation-error")


# -- duplicate keys ---------------------------------------------------------------------


def test_duplicate_keys_are_invalid_json_and_change_nothing(toy_client):
    before = len(toy_client.get("/games").get_json()["games"])
    r = toy_client.post("/games", data='{"players": 2, "players": 4}', headers=JSON)
    body = assert_problem(r, 400, "invalid-json")
    assert "duplicate key 'players'" in body["detail"]
    _no_game_stored(toy_client, before)
    game_id, _, tokens = started_game(toy_client, 2)
    version = view(toy_client, game_id)["version"]
    token = tokens[view(toy_client, game_id)["to_act"][0]]
    r = toy_client.post(
        f"/games/{game_id}/moves",
        data='{"type": "call", "value": 1, "value": 2}',
        headers={**JSON, **auth(token)},
    )
    assert_problem(r, 400, "invalid-json")
    assert view(toy_client, game_id)["version"] == version
    r = toy_client.post("/games", data='{"x": [{"a": 1, "a": 1}]}', headers=JSON)
    assert_problem(r, 400, "invalid-json")  # at any depth, even with equal values


def test_a_body_that_is_not_utf8_is_invalid_json(toy_client):
    assert_problem(toy_client.post("/games", data=b'{"players": "\xff"}'), 400, "invalid-json")


# -- event ids --------------------------------------------------------------------------

BAD_AFTER = [
    str(2**64),
    str(2**64 - 1),  # 20 digits: every accepted part has at most 19
    "99999999999999999999-1",
    "1-" + str(2**64),
    "9" * 5_000,
    "5\n",
    "\uff15",  # a FULLWIDTH DIGIT FIVE matches \d
    "1-2-3",
    "-1",
    "",
    " 1",
]


@pytest.mark.parametrize("after", BAD_AFTER)
def test_after_beyond_64_bits_or_malformed_is_422(toy_client, after):
    game_id, _, _ = started_game(toy_client, 2)
    r = toy_client.get(f"/games/{game_id}/events", query_string={"after": after})
    body = assert_problem(r, 422, "validation-error")
    assert "after" in body["errors"]["query"]


@pytest.mark.parametrize("after", [a for a in BAD_AFTER if a and "\n" not in a])
def test_last_event_id_beyond_64_bits_or_malformed_is_422_before_the_stream(toy_client, after):
    game_id, _, _ = started_game(toy_client, 2)
    headers = {"Accept": "text/event-stream", "Last-Event-ID": after}
    r = toy_client.get(f"/games/{game_id}/events", headers=headers)
    body = assert_problem(r, 422, "validation-error")
    assert "Last-Event-ID" in body["errors"]["headers"]
    r = toy_client.get(
        f"/games/{game_id}/events",
        query_string={"after": after},
        headers={"Accept": "text/event-stream"},
    )
    assert_problem(r, 422, "validation-error")


@pytest.mark.parametrize("after", ["9" * 19, "9" * 19 + "-" + "9" * 19, "0", "0-0", "007"])
def test_the_largest_accepted_event_ids_work(make_app: Callable[..., Flask], after):
    client = make_app("toy", SSE_MAX_SECONDS=0.2, SSE_HEARTBEAT_SECONDS=0.1).test_client()
    game_id, _, _ = started_game(client, 2)
    r = client.get(f"/games/{game_id}/events", query_string={"after": after})
    assert r.status_code == 200, r.get_json()
    r = client.get(
        f"/games/{game_id}/events",
        headers={"Accept": "text/event-stream", "Last-Event-ID": after},
        buffered=True,
    )
    assert r.status_code == 200 and r.mimetype == "text/event-stream"


def test_the_document_states_the_exact_event_id_rule(toy_client):
    spec = toy_client.get("/openapi.json").get_json()
    params = spec["paths"]["/games/{game_id}/events"]["get"]["parameters"]
    after = next(p for p in params if p["name"] == "after")
    assert after["schema"]["pattern"] == "^[0-9]{1,19}(-[0-9]{1,19})?$"


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


_nested = st.recursive(
    st.integers(-(10**19), 10**19) | st.text(alphabet='[]{}"\\ ,:a', max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=60,
)


@hypothesis.settings(max_examples=300, deadline=None, database=None)
@hypothesis.given(value=_nested, wrap=st.integers(0, 40))
def test_the_depth_check_agrees_with_the_parsed_depth(value: Any, wrap: int) -> None:
    """Any JSON (brackets and quotes inside strings included) parses iff it nests at
    most MAX_DEPTH deep, whatever the shape."""
    for _ in range(wrap):
        value = [value] if wrap % 2 else {"k": value}
    text = json.dumps(value)
    if _depth(value) <= MAX_DEPTH:
        assert loads(text) == value
    else:
        with pytest.raises(json.JSONDecodeError, match="nested deeper"):
            loads(text)
