"""The games layer's refusals (shared/games/errors.py) and their answers at the edge
(shared/http/errors.py): one status per kind, the same problem+json as ever."""

from __future__ import annotations

import json

import pytest
from flask import Flask

from shared.games import errors as ge
from shared.games import rates
from shared.games.access import invalid_token, missing_token
from shared.games.base import not_found
from shared.http.errors import STATUS_OF, status_of
from tests.kit.helpers import assert_problem, auth, create


def _answer(app: Flask, error: Exception) -> tuple[int, dict[str, str], dict[str, object]]:
    def refuse() -> None:
        raise error

    app.add_url_rule("/refuse", view_func=refuse)
    r = app.test_client().get("/refuse")
    body = json.loads(r.get_data())
    body.pop("request_id")
    return r.status_code, dict(r.headers), body


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (ge.GameError("odd", "x"), 400),
        (ge.Unauthorized("missing-token", "x"), 401),
        (ge.Forbidden("invalid-token", "x"), 403),
        (ge.NotFound("game-not-found", "x"), 404),
        (ge.Conflict("game-full", "x"), 409),
        (ge.PreconditionFailed("version-mismatch", "x", version=3), 412),
        (ge.Invalid("option-not-allowed", "x"), 422),
        (ge.RateLimited("rate-limited", "x", 7), 429),
    ],
)
def test_each_kind_has_one_status(error: ge.GameError, status: int) -> None:
    assert isinstance(error, ValueError)
    assert status_of(error) == status


def test_a_subclass_answers_as_its_kind() -> None:
    class SeatTaken(ge.Conflict):
        pass

    assert status_of(SeatTaken("seat-taken", "x")) == 409
    assert set(STATUS_OF) == {
        ge.GameError,
        ge.Unauthorized,
        ge.Forbidden,
        ge.NotFound,
        ge.Conflict,
        ge.PreconditionFailed,
        ge.Invalid,
        ge.RateLimited,
    }


def test_problem_documents_carry_code_detail_extra_and_headers(toy_app: Flask) -> None:
    status, headers, body = _answer(toy_app, missing_token())
    assert status == 401
    assert headers["WWW-Authenticate"] == 'Bearer realm="boardgames"'
    assert body == {
        "type": "urn:boardgames:problem:missing-token",
        "title": "Unauthorized",
        "status": 401,
        "detail": "This needs a bearer token (Authorization: Bearer <token>).",
        "code": "missing-token",
    }


def test_extra_fields_and_retry_after(toy_app: Flask) -> None:
    rate = rates.parse_rate("2/10s")
    assert rate is not None
    with pytest.raises(ge.RateLimited) as limited:
        rates.check(3, rate, 4, "moves")
    assert (limited.value.code, limited.value.retry_after) == ("rate-limited", 4)
    rates.check(2, rate, 4, "moves")  # at the rate: no refusal
    status, headers, body = _answer(toy_app, limited.value)
    assert (status, headers["Retry-After"]) == (429, "4")
    assert body["detail"] == "Too many moves: at most 2 per 10 s; retry in 4 s."
    assert "retry_after" not in body


def test_validation_error_shape(toy_app: Flask) -> None:
    error = ge.Invalid.field("json", "players", "players is out of range.", "Out of range.")
    status, _, body = _answer(toy_app, error)
    assert status == 422
    assert list(body) == ["type", "title", "status", "detail", "code", "errors"]
    assert body["code"] == "validation-error"
    assert body["errors"] == {"json": {"players": ["Out of range."]}}


def test_the_games_layer_raises_its_own_errors(toy_client) -> None:
    assert isinstance(not_found("g"), ge.NotFound)
    assert isinstance(invalid_token(), ge.Forbidden)
    game_id, host = create(toy_client, players=2)
    r = toy_client.post(f"/games/{game_id}/start", headers={**auth(host), "If-Match": '"7"'})
    body = assert_problem(r, 412, "version-mismatch")
    assert body["version"] == 1
    assert r.headers["Content-Type"] == "application/problem+json"
