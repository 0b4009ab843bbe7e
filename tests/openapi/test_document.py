"""The OpenAPI documents as files and as contracts: docs/openapi/<game>.json is what the
service serves (``make openapi`` rewrites it), and every operation is named, described,
and declares problem+json errors, its headers and its examples."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scripts.openapi import GAMES, OUT, document

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module", params=GAMES)
def doc(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param, document(request.param)


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, item in doc["paths"].items()
        for method, op in item.items()
        if method in METHODS
    ]


def test_files_are_up_to_date(doc: tuple[str, dict[str, Any]]) -> None:
    game, current = doc
    stored = json.loads((OUT / f"{game}.json").read_text())
    assert stored == current, f"docs/openapi/{game}.json is stale: run `make openapi`"


def test_every_operation_is_named_and_described(doc: tuple[str, dict[str, Any]]) -> None:
    _, d = doc
    ids = [op.get("operationId") for _, _, op in operations(d)]
    assert all(ids) and len(set(ids)) == len(ids), ids
    for path, method, op in operations(d):
        assert op.get("description"), (path, method)
    assert d["servers"] and d["info"]["description"]


def test_errors_are_problem_json_with_their_headers(doc: tuple[str, dict[str, Any]]) -> None:
    _, d = doc
    for path, method, op in operations(d):
        for status, response in op["responses"].items():
            if status.startswith(("4", "5")):
                assert set(response.get("content", {})) == {"application/problem+json"}
            if status in {"429", "503"}:
                assert "Retry-After" in response["headers"], (path, method, status)
            if status == "401":
                assert "WWW-Authenticate" in response["headers"], (path, method)
    problem = d["components"]["schemas"]["Problem"]
    assert {"type", "title", "status", "code"} <= set(problem["required"])


def test_headers_where_honoured(doc: tuple[str, dict[str, Any]]) -> None:
    _, d = doc
    by_id = {op["operationId"]: op for _, _, op in operations(d)}
    for name in ("joinGame", "startGame", "cancelGame", "makeMove"):
        assert "If-Match" in {p["name"] for p in by_id[name]["parameters"]}, name
    assert "If-None-Match" in {p["name"] for p in by_id["getGame"]["parameters"]}
    for name in ("createGame", "joinGame", "startGame", "cancelGame", "getGame", "makeMove"):
        success = next(r for s, r in by_id[name]["responses"].items() if s.startswith("2"))
        assert "ETag" in success["headers"], name
    assert "text/event-stream" in by_id["getEvents"]["responses"]["200"]["content"]
    assert by_id["getGame"]["security"] == [{}, {"bearerAuth": []}]


def test_payloads_are_typed(doc: tuple[str, dict[str, Any]]) -> None:
    game, d = doc
    schemas = d["components"]["schemas"]
    prefix = {"manhattan": "Manhattan", "windcity": "WindCity"}[game]
    moves = schemas["LegalMoves"]["properties"]["moves"]["items"]
    assert moves == {"$ref": f"#/components/schemas/{prefix}Move"}
    union = schemas[f"{prefix}Move"]
    assert union["discriminator"]["propertyName"] == "type"
    for ref in union["oneOf"]:
        kind = schemas[ref["$ref"].rsplit("/", 1)[1]]["properties"]["type"]
        assert len(kind["enum"]) == 1 and kind["const"] == kind["enum"][0]
    events = schemas[f"{prefix}Event"]
    assert {"game_created", "player_joined", "game_started", "game_finished"} <= set(
        events["discriminator"]["mapping"]
    )
    view = schemas["View"]
    assert view["properties"]["state"]["allOf"] == [{"$ref": f"#/components/schemas/{prefix}State"}]
    assert view["properties"]["created_at"]["format"] == "date-time"
    assert {"id", "status", "version", "state", "result", "you"} <= set(view["required"])
    if game == "windcity":  # a default of null would make TypeScript demand the field
        assert "default" not in schemas["Plan"]["properties"]["kauf"]
