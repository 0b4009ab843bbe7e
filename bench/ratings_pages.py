"""bench.ratings, leaderboard pages: in-process (``Ratings.snapshot``, ``Ratings.page``,
``leaderboard_entries``) and ``GET /leaderboards/manhattan`` through gunicorn, first
pages and deep cursors."""

from __future__ import annotations

import base64
import http.client
import json
import statistics
import time
from typing import Any

from bench.common import CpuMeter
from bench.players_measure import pct
from bench.ratings_data import TENANT
from bench.ratings_moves import Recorder
from bench.roundtrips import commandstats
from shared.games.ratings import leaderboard_entries

LIMITS = (20, 100)


def cursor(stamp: str, offset: int) -> str:
    """A cursor as shared/http/resources/leaderboards.py issues it (checked below)."""
    return base64.urlsafe_b64encode(f"{stamp}:{offset}".encode()).decode().rstrip("=")


def page_cases(players_n: int) -> list[tuple[str, int | None, int]]:
    """(label, offset or None for a first page, limit)."""
    out: list[tuple[str, int | None, int]] = []
    for offset in (None, players_n // 2, players_n - 20):
        for limit in LIMITS:
            label = "first page" if offset is None else f"offset {offset:,}"
            out.append((f"{label}, limit {limit}", offset, limit))
    return out


def time_pages_inproc(
    ratings: Any, client: Any, rec: Recorder, cases: list, n: int, every_s: int
) -> list[dict[str, Any]]:
    stamp = ratings.snapshot(TENANT, every_s)
    out = []
    for label, offset, limit in cases:
        parts: dict[str, list[float]] = {"snapshot": [], "page": [], "details": [], "total": []}
        sizes = []
        trips = 0
        before = commandstats(client)
        for _ in range(n):
            with rec.window() as sent:
                t0 = time.perf_counter()
                here = ratings.snapshot(TENANT, every_s) if offset is None else stamp
                t1 = time.perf_counter()
                found = ratings.page(TENANT, here, offset or 0, limit)
                t2 = time.perf_counter()
                assert found is not None
                entries = leaderboard_entries(ratings, found[0], offset or 0)
                t3 = time.perf_counter()
            trips += len(sent)
            sizes.append(len(entries))
            if offset is None:
                parts["snapshot"].append(t1 - t0)
            parts["page"].append(t2 - t1)
            parts["details"].append(t3 - t2)
            parts["total"].append(t3 - t0)
        delta = commandstats(client) - before
        delta.pop("info", None)
        row: dict[str, Any] = {
            "case": label,
            "requests": n,
            "entries": round(statistics.mean(sizes), 1),
            "round_trips": round(trips / n, 2),
            "commands": round(sum(delta.values()) / n, 1),
            "mix": {k: round(v / n, 1) for k, v in sorted(delta.items())},
        }
        for part, times in parts.items():
            if times:
                row[part] = (round(pct(times, 0.5) * 1000, 3), round(pct(times, 0.99) * 1000, 3))
        out.append(row)
    return out


class Http:
    """One keep-alive HTTP/1.1 connection, no credentials (a public read)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def get(self, path: str) -> tuple[int, Any]:
        self.conn.request("GET", path)
        reply = self.conn.getresponse()
        return reply.status, json.loads(reply.read() or b"null")


def time_http(
    conn: Http, client: Any, paths: list[str], pids: list[int], label: str
) -> dict[str, Any]:
    times: list[float] = []
    before = commandstats(client)
    meter = CpuMeter({"services": pids[:-1], "redis": pids[-1:]})
    sizes = []
    for path in paths:
        start = time.perf_counter()
        status, body = conn.get(path)
        times.append(time.perf_counter() - start)
        assert status == 200, body
        sizes.append(len(body.get("entries", [])))
    wall = sum(times)
    cores = meter.stop()
    delta = commandstats(client) - before
    delta.pop("info", None)
    count = len(paths)
    return {
        "case": label,
        "requests": count,
        "entries": round(statistics.mean(sizes), 1),
        "p50_ms": round(pct(times, 0.5) * 1000, 2),
        "p99_ms": round(pct(times, 0.99) * 1000, 2),
        "commands": round(sum(delta.values()) / count, 1),
        "cpu_ms": round((cores["services"] + cores["redis"]) * wall / count * 1000, 2),
        "other_cores": cores["other"],
    }


def time_pages_http(
    port: int, client: Any, cases: list, n: int, pids: list[int], profile: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    conn = Http(port)
    status, first = conn.get("/leaderboards/manhattan?limit=20")
    assert status == 200, first
    raw = first["next_cursor"]
    stamp, _, at = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode().rpartition(":")
    assert cursor(stamp, int(at)) == raw and at == "20", raw
    out = [time_http(conn, client, [f"/players/{profile}"] * n, pids, "GET /players/{id}")]
    for label, offset, limit in cases:
        path = f"/leaderboards/manhattan?limit={limit}"
        if offset is not None:
            path += f"&cursor={cursor(stamp, offset)}"
        out.append(time_http(conn, client, [path] * n, pids, label))
    return out[1:], out[0]
