"""Headers on every answer (nosniff; Vary: Origin once CORS is on) and plain OPTIONS."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from tests.kit.helpers import assert_problem, auth, started_game


def _answers(app: Flask) -> list[Any]:
    """One answer of every kind: 200, 201, 204, 304, 4xx, 5xx, an SSE stream, the docs."""

    def boom() -> None:
        raise RuntimeError("boom")

    app.add_url_rule("/boom", view_func=boom)
    client = app.test_client()
    game_id, host, tokens = started_game(client, 2)
    etag = client.get(f"/games/{game_id}").headers["ETag"]
    return [
        client.get(f"/games/{game_id}", headers=auth(tokens[0])),
        client.post("/games", json={}),
        client.options(f"/games/{game_id}"),
        client.get(f"/games/{game_id}", headers={"If-None-Match": etag}),
        client.get("/games/nope"),
        client.post("/games", data="[", content_type="application/json"),
        client.post(f"/games/{game_id}/start", headers=auth(host)),
        client.get("/boom"),
        client.get(f"/games/{game_id}/events", headers={"Accept": "text/event-stream"}),
        client.get("/openapi.json"),
        client.get("/docs"),
        client.get("/readyz"),
    ]


def test_every_answer_says_nosniff(make_app: Callable[..., Flask]) -> None:
    app = make_app("toy", SSE_MAX_SECONDS=0.1, SSE_HEARTBEAT_SECONDS=0.05)
    answers = _answers(app)
    assert {r.status_code for r in answers} >= {200, 201, 204, 304, 400, 404, 409, 500}
    for r in answers:
        assert r.headers["X-Content-Type-Options"] == "nosniff", (r.status_code, r.headers)


def test_with_cors_on_every_answer_varies_with_origin(make_app: Callable[..., Flask]) -> None:
    app = make_app(
        "toy", CORS_ORIGINS="https://play.example", SSE_MAX_SECONDS=0.1, SSE_HEARTBEAT_SECONDS=0.05
    )
    for r in _answers(app):  # sent without Origin
        assert "Origin" in r.vary, (r.status_code, r.headers)
    client = app.test_client()
    for origin in ("https://play.example", "https://evil.example"):
        r = client.get("/games", headers={"Origin": origin})
        assert "Origin" in r.vary
        preflight = {"Origin": origin, "Access-Control-Request-Method": "POST"}
        assert "Origin" in client.options("/games", headers=preflight).vary
    game_id, _, tokens = started_game(client, 2)
    r = client.get(
        f"/games/{game_id}", headers={"Origin": "https://evil.example", **auth(tokens[0])}
    )
    assert {"Origin", "Authorization"} <= set(r.vary)  # merged with the view's own Vary
    assert "Access-Control-Allow-Origin" not in r.headers


def test_without_cors_nothing_varies_with_origin(toy_client) -> None:
    r = toy_client.get("/games", headers={"Origin": "https://play.example"})
    assert "Origin" not in r.vary and "Access-Control-Allow-Origin" not in r.headers


@pytest.mark.parametrize("cors", ["", "*"])
def test_plain_options_is_204_with_allow(make_app: Callable[..., Flask], cors: str) -> None:
    client = make_app("toy", CORS_ORIGINS=cors).test_client()
    game_id, _, _ = started_game(client, 2)
    expected = {
        "/games": {"GET", "POST"},
        f"/games/{game_id}": {"GET", "DELETE"},
        f"/games/{game_id}/moves": {"POST"},
        f"/games/{game_id}/events": {"GET"},
        "/readyz": {"GET"},
    }
    for path, methods in expected.items():
        r = client.options(path, headers={"Origin": "https://play.example"})
        assert r.status_code == 204, (path, r.status_code)
        assert r.get_data() == b"" and "Content-Type" not in r.headers
        allow = {m.strip() for m in r.headers["Allow"].split(",")}
        assert methods | {"OPTIONS"} <= allow <= methods | {"OPTIONS", "HEAD"}
    assert_problem(client.options("/nowhere"), 404, "not-found")
