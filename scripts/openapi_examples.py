"""Record request and response examples for the OpenAPI documents from a real game.

Plays a seeded game of each service against the Redis at ``REDIS_URL`` (Flask's test
client, no server needed) and writes docs/openapi/examples/<game>.json: per operationId,
the request body sent and the answer received. Run it when the answers change shape:

    REDIS_URL=redis://127.0.0.1:6379/15 .venv/bin/python scripts/openapi_examples.py

then ``make openapi``. Long lists (legal moves, events) are cut to a few items.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import _factory  # noqa: E402

OUT = ROOT / "docs" / "openapi" / "examples"
OPTIONS = {"manhattan": {"players": 2, "seed": 7}, "windcity": {"players": 2, "seed": 7}}
KEEP = 3  # items kept of a long list


def _cut(value: Any) -> Any:
    """The example with every list cut to ``KEEP`` items (legal moves, events...)."""
    if isinstance(value, list):
        return [_cut(v) for v in value[:KEEP]]
    if isinstance(value, dict):
        return {k: _cut(v) for k, v in value.items()}
    return value


def record(game: str, redis_url: str) -> dict[str, Any]:
    app = _factory(game)({"REDIS_URL": redis_url, "LOG_LEVEL": "WARNING"})
    http = app.test_client()
    out: dict[str, Any] = {}

    def call(op: str, method: str, url: str, body: Any = None, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = http.open(url, method=method, json=body, headers=headers)
        assert r.status_code < 300, (op, r.status_code, r.get_json())
        example: dict[str, Any] = {"response": _cut(r.get_json())}
        if body is not None:
            example["request"] = body
        out.setdefault(op, example)
        return r.get_json()

    created = call("createGame", "POST", "/games", OPTIONS[game])
    gid, host = created["id"], created["host_token"]
    tokens = [
        call("joinGame", "POST", f"/games/{gid}/players", {"name": name})["token"]
        for name in ("Ada", "Grace")
    ]
    game_view = call("startGame", "POST", f"/games/{gid}/start", token=host)
    call("getGame", "GET", f"/games/{gid}", token=tokens[game_view["to_act"][0]])
    while game_view["status"] == "running":
        seat = game_view["to_act"][0]
        moves = call("listLegalMoves", "GET", f"/games/{gid}/legal-moves", token=tokens[seat])
        answer = call("makeMove", "POST", f"/games/{gid}/moves", moves["moves"][0], tokens[seat])
        game_view = answer["game"]
    call("getScore", "GET", f"/games/{gid}/score")
    call("getEvents", "GET", f"/games/{gid}/events?limit=3")
    call("getLog", "GET", f"/games/{gid}/log")
    call("listGames", "GET", "/games?limit=1")
    other = call("createGame", "POST", "/games", OPTIONS[game])
    call("cancelGame", "DELETE", f"/games/{other['id']}", token=other["host_token"])
    return out


def main() -> None:
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    OUT.mkdir(parents=True, exist_ok=True)
    for game in ("manhattan", "windcity"):
        text = json.dumps(record(game, redis_url), indent=2, ensure_ascii=False)
        (OUT / f"{game}.json").write_text(text + "\n")
        print(f"wrote {OUT / game}.json")


if __name__ == "__main__":
    main()
