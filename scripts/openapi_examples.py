"""Record request and response examples for the OpenAPI documents from a real game.

Plays a seeded game of each service (Flask's test client, no server needed) on a
private redis-server started here (or the Redis at ``REDIS_URL``, when set) and writes
docs/openapi/examples/<game>.json: per operationId, the request body sent and the answer
received. Long lists (legal moves, events) are cut to a few items. An example that
differs from the one recorded before only in what differs from game to game (ids,
tokens, secrets, cursors, timestamps, an unseeded game's seed commitment) is kept as it
was, so re-recording changes nothing until the answers do.

``make openapi`` runs it, then scripts/openapi.py, which writes the documents with these
examples in them.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import redis_server  # noqa: E402
from tests.conftest import _factory  # noqa: E402

OUT = ROOT / "docs" / "openapi" / "examples"
OPTIONS = {"manhattan": {"players": 2, "seed": 7}, "windcity": {"players": 2, "seed": 7}}
KEEP = 3  # items kept of a long list
VARYING = {
    "host_token",
    "token",
    "webhook_id",
    "webhook_secret",
    "next_cursor",
    "key",
    "seed_commitment",  # of a game without a given seed (quick match's)
}
ID_KEYS = {"id", "game_id"}
GAME_ID = re.compile(r"[0-9a-f]{16}")
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


def _cut(value: Any) -> Any:
    """The example with every list cut to ``KEEP`` items (legal moves, events...)."""
    if isinstance(value, list):
        return [_cut(v) for v in value[:KEEP]]
    if isinstance(value, dict):
        return {k: _cut(v) for k, v in value.items()}
    return value


def _steady(value: Any, key: str | None = None) -> Any:
    """``value`` with what differs from one recording to the next blanked."""
    if isinstance(value, list):
        return [_steady(v, key) for v in value]
    if isinstance(value, dict):
        return {k: _steady(v, k) for k, v in value.items()}
    if key == "at" and isinstance(value, int):  # a chat message's time (ms)
        return "<varies>"
    if isinstance(value, str) and (
        key in VARYING
        or (key in ID_KEYS and GAME_ID.fullmatch(value))
        or TIMESTAMP.fullmatch(value)
    ):
        return "<varies>"
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
    call("postChat", "POST", f"/games/{gid}/chat", {"text": "Well played!"}, tokens[0])
    http.post(f"/games/{gid}/chat", json={"phrase": "gg"}, headers=_bearer(tokens[1]))
    call("getChat", "GET", f"/games/{gid}/chat")
    call("getChatPhrases", "GET", "/chat/phrases")
    call("muteChat", "PUT", f"/games/{gid}/chat/mutes/1", token=tokens[0])
    call("getChatMutes", "GET", f"/games/{gid}/chat/mutes", token=tokens[0])
    call("unmuteChat", "DELETE", f"/games/{gid}/chat/mutes/1", token=tokens[0])
    call("listGames", "GET", "/games?limit=1")
    other = call("createGame", "POST", "/games", OPTIONS[game])
    call("cancelGame", "DELETE", f"/games/{other['id']}", token=other["host_token"])
    player = call("createPlayer", "POST", "/players", {"name": "Ada"})
    call("getMe", "GET", "/players/me", token=player["key"])
    table = http.post("/games", json={**OPTIONS[game], "visibility": "unlisted"}).get_json()
    invite = {"invite": table["invite_code"]}
    http.post(f"/games/{table['id']}/players", json=invite, headers=_bearer(player["key"]))
    call("listMyGames", "GET", "/players/me/games", token=player["key"])
    call("quickMatch", "POST", "/matches", {"players": 2}, token=player["key"])
    return out


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def write(game: str, examples: dict[str, Any]) -> None:
    """Write ``examples``, keeping each operation's recorded example that differs from its
    new one only in what always varies."""
    path = OUT / f"{game}.json"
    kept = json.loads(path.read_text()) if path.exists() else {}
    merged = {
        op: kept[op] if op in kept and _steady(kept[op]) == _steady(example) else example
        for op, example in examples.items()
    }
    if merged == kept:
        print(f"docs/openapi/examples/{game}.json: unchanged")
        return
    path.write_text(json.dumps(merged, indent=2, ensure_ascii=False) + "\n")
    changed = sorted(op for op in merged if merged[op] != kept.get(op))
    print(f"wrote docs/openapi/examples/{game}.json (new: {', '.join(changed)})")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    if os.environ.get("REDIS_URL"):
        for game in ("manhattan", "windcity"):
            write(game, record(game, os.environ["REDIS_URL"]))
        return
    with redis_server(appendonly=False) as server:
        for game in ("manhattan", "windcity"):
            write(game, record(game, server.url))


if __name__ == "__main__":
    main()
