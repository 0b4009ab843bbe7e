"""bench.players, the measurements: round trips and commands counted, "my games" pages
(in-process and through gunicorn), quick match one at a time and all at once, and a
move's round trips with its seats bound to players or not."""

from __future__ import annotations

import collections
import contextlib
import http.client
import json
import os
import random
import statistics
import threading
import time
from collections.abc import Iterator
from typing import Any

from bench import common
from bench.common import CpuMeter
from bench.players_data import HEAVY_PROBES, LIGHT_PLAYERS
from bench.roundtrips import commandstats

DEEP = 500  # games skipped before the deep page
LIMIT = 20
TOP_LEVEL = ("hgetall", "mget", "evalsha")  # what a move sends; EVALSHA's time includes
# every command its script runs (which commandstats also counts on their own)


# -- counting ------------------------------------------------------------------------------


class Counted:
    """Round trips sent to Redis by this process (redis-py's ``send_packed_command`` and
    the store's lane, as bench.roundtrips counts them) and the server's commands."""

    def __init__(self) -> None:
        self.sent = 0

    @contextlib.contextmanager
    def patched(self) -> Iterator[None]:
        with common.each_send(self._count):
            yield

    def _count(self, _packet: bytes) -> None:
        self.sent += 1


def usec_by_command(client: Any) -> collections.Counter[str]:
    stats = client.info("commandstats")
    return collections.Counter({k.removeprefix("cmdstat_"): v["usec"] for k, v in stats.items()})


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- "my games" ----------------------------------------------------------------------------


def cursor_after(games: Any, player: str, skip: int) -> str | None:
    cursor = None
    for _ in range(skip // LIMIT):
        _, cursor = games.player_games(player, None, False, LIMIT, cursor)
    return cursor


def page_cases(games: Any, made: list[tuple[str, str]]) -> list[tuple[str, list[int], dict]]:
    """(label, players to rotate over, query) of each timed page."""
    heavy = list(range(HEAVY_PROBES))
    light = list(range(HEAVY_PROBES, HEAVY_PROBES + LIGHT_PLAYERS))
    deep = {p: cursor_after(games, made[p][0], DEEP) for p in heavy}
    return [
        ("10 games, first page", light, {}),
        ("10 games, turn=mine", light, {"turn": "mine"}),
        ("1,000 games, first page", heavy, {}),
        (f"1,000 games, deep page (after {DEEP})", heavy, {"cursor": deep}),
        ("1,000 games, turn=mine", heavy, {"turn": "mine"}),
        ("1,000 games, status=finished (none is)", heavy, {"status": "finished"}),
    ]


def time_pages_inproc(
    games: Any, client: Any, counted: Counted, made: list[tuple[str, str]], cases: list, n: int
) -> list[dict[str, Any]]:
    out = []
    for label, who, query in cases:
        times: list[float] = []
        sizes: list[int] = []
        count = n if "finished" not in label else max(50, n // 5)
        before, sent0 = commandstats(client), counted.sent
        for i in range(count):
            p = who[i % len(who)]
            cursor = query.get("cursor", {}).get(p) if "cursor" in query else None
            start = time.perf_counter()
            entries, _ = games.player_games(
                made[p][0], query.get("status"), query.get("turn") == "mine", LIMIT, cursor
            )
            times.append(time.perf_counter() - start)
            sizes.append(len(entries))
        sent = counted.sent - sent0
        delta = commandstats(client) - before
        delta.pop("info", None)
        out.append(
            {
                "case": label,
                "requests": count,
                "entries": round(statistics.mean(sizes), 1),
                "p50_ms": round(pct(times, 0.5) * 1000, 2),
                "p99_ms": round(pct(times, 0.99) * 1000, 2),
                "round_trips": round(sent / count, 2),
                "commands": round(sum(delta.values()) / count, 1),
                "mix": {k: round(v / count, 1) for k, v in sorted(delta.items())},
            }
        )
    return out


class Http:
    """One keep-alive HTTP/1.1 connection (http.client)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, key: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {key}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=headers)
        reply = self.conn.getresponse()
        return reply.status, json.loads(reply.read() or b"null")


def time_pages_http(
    port: int, client: Any, made: list[tuple[str, str]], cases: list, n: int, pids: list[int]
) -> list[dict[str, Any]]:
    out = []
    conn = Http(port)
    for label, who, query in cases:
        times: list[float] = []
        count = n if "finished" not in label else max(50, n // 5)
        before = commandstats(client)
        meter = CpuMeter({"services": pids})
        for i in range(count):
            p = who[i % len(who)]
            params = {k: v for k, v in query.items() if k != "cursor"}
            if "cursor" in query and query["cursor"].get(p):
                params["cursor"] = query["cursor"][p]
            path = "/players/me/games?" + "&".join(f"{k}={v}" for k, v in params.items())
            start = time.perf_counter()
            status, body = conn.call("GET", path, made[p][1])
            times.append(time.perf_counter() - start)
            assert status == 200, body
        wall = sum(times)
        cores = meter.stop()
        delta = commandstats(client) - before
        delta.pop("info", None)
        out.append(
            {
                "case": label,
                "requests": count,
                "p50_ms": round(pct(times, 0.5) * 1000, 2),
                "p99_ms": round(pct(times, 0.99) * 1000, 2),
                "commands": round(sum(delta.values()) / count, 1),
                "cpu_ms": round(cores["services"] * wall / count * 1000, 2),
                "other_cores": cores["other"],
            }
        )
    return out


# -- quick match ---------------------------------------------------------------------------


def quick_match(
    port: int, client: Any, keys: list[str], at_once: bool, pids: list[int]
) -> dict[str, Any]:
    """``POST /matches`` {"players": 4} for each key: all at once (one thread and
    connection each, released together) or one at a time."""
    results: list[tuple[float, int, Any]] = [(0.0, 0, None)] * len(keys)
    before = commandstats(client)
    meter = CpuMeter({"services": pids[:-1], "redis": pids[-1:], "client": [os.getpid()]})

    def ask(n: int, key: str, gate: threading.Barrier | None) -> None:
        conn = Http(port)
        if gate is not None:
            gate.wait()
        start = time.perf_counter()
        status, body = conn.call("POST", "/matches", key, {"players": 4})
        results[n] = (time.perf_counter() - start, status, body)
        conn.conn.close()

    t0 = time.perf_counter()
    if at_once:
        threading.stack_size(256 * 1024)
        gate = threading.Barrier(len(keys))
        threads = [threading.Thread(target=ask, args=(n, k, gate)) for n, k in enumerate(keys)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    else:
        for n, key in enumerate(keys):
            ask(n, key, None)
    wall = time.perf_counter() - t0
    cores = meter.stop()
    delta = commandstats(client) - before
    delta.pop("info", None)
    ok = [r for r in results if r[1] == 201]
    tables = collections.Counter(r[2]["game_id"] for r in ok)
    started = len({r[2]["game_id"] for r in ok if r[2]["game"]["status"] == "running"})
    times = [r[0] for r in results]
    return {
        "players": len(keys),
        "seated": len(ok),
        "refused": dict(collections.Counter(r[1] for r in results if r[1] != 201)),
        "tables": len(tables),
        "full_tables": sum(1 for c in tables.values() if c == 4),
        "started_by_last_join": started,
        "p50_ms": round(pct(times, 0.5) * 1000, 1),
        "p99_ms": round(pct(times, 0.99) * 1000, 1),
        "wall_s": round(wall, 2),
        "commands": round(sum(delta.values()) / len(keys), 1),
        "evalsha": round(delta["evalsha"] / len(keys), 2),
        "mix": {k: round(v / len(keys), 1) for k, v in delta.most_common(6)},
        "services_ms": round(cores["services"] * wall / len(keys) * 1000, 2),
        "redis_ms": round(cores["redis"] * wall / len(keys) * 1000, 2),
        "cores": {k: cores[k] for k in ("services", "redis", "client", "other")},
    }


# -- a move's round trips ------------------------------------------------------------------


def moves(
    app: Any, client: Any, counted: Counted, keys: list[str], mode: str, games_n: int = 20
) -> dict[str, Any]:
    """Round trips, commands and Redis µs (the read and the EVALSHA) of ``POST /moves``
    in 4-seat games whose seats are ``mode``: "names" (no player), "players" or "fresh
    players" (each bound to one of ``keys``' players; moved with the seat's token) or
    "player keys" (the same, moved with the player's key)."""
    c = app.test_client()
    rng = random.Random(7)
    sent = cmds = posts = 0
    usec = 0.0
    for g in range(games_n):
        created = c.post("/games", json={"players": 4, "seed": g}).get_json()
        game_id, host = created["id"], created["host_token"]
        creds = []
        for s in range(4):
            if mode == "names":
                joined = c.post(f"/games/{game_id}/players", json={"name": f"n{s}"})
            else:
                auth = {"Authorization": f"Bearer {keys[s]}"}
                joined = c.post(f"/games/{game_id}/players", json={}, headers=auth)
            token = joined.get_json()["token"]
            creds.append(keys[s] if mode == "player keys" else token)
        view = c.post(f"/games/{game_id}/start", headers={"Authorization": f"Bearer {host}"})
        to_act = view.get_json()["to_act"]
        for _ in range(10):
            auth = {"Authorization": f"Bearer {creds[to_act[0]]}"}
            read = c.get(f"/games/{game_id}?include=legal_moves", headers=auth).get_json()
            move = rng.choice(read["legal_moves"])
            before, usec0, sent0 = commandstats(client), usec_by_command(client), counted.sent
            reply = c.post(f"/games/{game_id}/moves", json=move, headers=auth)
            sent += counted.sent - sent0
            delta = commandstats(client) - before
            delta.pop("info", None)
            cmds += sum(delta.values())
            spent = usec_by_command(client) - usec0
            usec += sum(spent[name] for name in TOP_LEVEL)
            posts += 1
            assert reply.status_code == 200, reply.get_data(as_text=True)
            game = reply.get_json()["game"]
            if game["status"] != "running":
                break
            to_act = game["to_act"]
    return {
        "mode": mode,
        "players": "fresh" if mode == "fresh players" else "heavy",
        "posts": posts,
        "round_trips": round(sent / posts, 2),
        "commands": round(cmds / posts, 1),
        "redis_us": round(usec / posts, 1),
    }
