"""Ratings and leaderboards at scale (issue 31): leaderboard pages at 100,000 rated
players, the snapshot behind them, Redis memory per rated player, and the Redis commands
and round trips that ratings add to a move.

Run: ``python -m bench.ratings [--players 100000] [--requests 1000] [--games 6]
[--snapshots 20]`` (about 2 minutes; ``--players 10000 --requests 200 --games 2
--snapshots 5`` for a quick run).

One private redis-server (no append-only file), Manhattan's service on it in-process
(``create_app``, Flask's test client) and, for the HTTP steps, under gunicorn
(``gunicorn -c gunicorn.conf.py``, gevent, 2 workers). The data set:

1. **Real rated games**: 4 players (``POST /players``) play ``--games`` rated
   4-player Manhattan games to their end in-process (random legal moves), so that
   they pass ``LEADERBOARD_MIN_GAMES`` and sit on the leaderboard through
   ``settle_ratings`` itself. The same games (same seed, same moves) are played with the
   same players and ``"rated": false``, and with four name-only seats: these are the
   baselines of the counts below.
2. **The registry**: ``--players`` players made by ``shared.games.players.create`` on a
   pipelined :class:`~shared.store.players.Registry` (as bench.players makes them).
3. **Their ratings**, written in pipelines: ``manhattan:n``, ``:won``, ``:mu``,
   ``:sigma`` in the registry hash (in the order and text format ``rating.lua`` writes
   them: ``%.17g``) and the leaderboard ``mh:lb:{}`` filled with ``mu - 3 sigma`` of
   those very texts (what ``settle_ratings`` puts there). Checked against the real
   players: the same fields, the same formats, the same hash encoding, and the board's
   score of every real and of sampled bulk players equal to ``ordinal(mu, sigma)``.

Figures: ``INFO memory used_memory`` before and after the rating fields and the board
(and ``MEMORY USAGE`` of the board and of a snapshot); the snapshot, ``--snapshots`` times
each way in turn: ``Ratings.refresh`` (what the worker runs every
LEADERBOARD_SNAPSHOT_SECONDS: ZSCAN in chunks of ``CHUNK`` + ZADD, the ``KEPT`` newest
kept) against one ``ZUNIONSTORE`` of the same board (the design it replaced), wall time
and the longest single command inside Redis (the slow log at
``slowlog-log-slower-than 0``: every command's own µs), while another process times a
GET of a small key every 0.5 ms on its own connection (does anything wait on Redis?);
the snapshots alive after them (``KEPT``), their size, the newest equal to the board;
freeing a copy by DEL and UNLINK; ``GET /leaderboards/manhattan`` through gunicorn (one
keep-alive connection, one request at a time) and the same work in-process
(``Ratings.snapshot``, ``Ratings.page``, ``leaderboard_entries``), the worker's snapshot
in place (only the very first read takes one): first page and pages at offset
``players/2`` and ``players-20`` (cursors of the live snapshot), limit 20 and 100,
p50/p99 over ``--requests`` each, round trips and commands per page; a
``GET /players/{id}`` in the same gunicorn as the baseline of a one-read request; and per
``POST /moves``, round trips (client side, as bench.roundtrips counts them, each named
by the commands it carried) and commands (``INFO commandstats`` deltas, including those
inside Lua), move by move, rated against unrated. Timings are printed, never judged.
"""

from __future__ import annotations

import argparse
import array
import base64
import bisect
import collections
import contextlib
import http.client
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

import redis
import redis.connection

from bench import common
from bench.common import CpuMeter, gunicorn, machine, redis_server
from bench.inproc import make_app
from bench.players import make_players, pct, usec_by_command, used_memory
from bench.roundtrips import commandstats
from shared.games.ratings import leaderboard_entries, ordinal
from shared.store.players import registry_key
from shared.store.ratings import CHUNK, KEPT

BATCH = 1000  # players per pipeline
TENANT = ""  # no API keys: one board
LIMITS = (20, 100)
TOP_LEVEL = ("hgetall", "hmget", "hget", "mget", "evalsha", "zadd", "zrem", "script|exists")
RATING_FIELDS = ("n", "won", "mu", "sigma")  # in the order rating.lua first writes them


# -- counting ------------------------------------------------------------------------------


def command_names(packed: bytes) -> list[str]:
    """The command names in one round trip's request bytes (RESP arrays of bulk strings,
    one per command of a pipeline)."""
    names = []
    at = 0
    while at < len(packed):
        end = packed.index(b"\r\n", at)
        count = int(packed[at + 1 : end])
        at = end + 2
        words = []
        for _ in range(count):
            end = packed.index(b"\r\n", at)
            size = int(packed[at + 1 : end])
            words.append(packed[end + 2 : end + 2 + size])
            at = end + 2 + size + 2
        name = words[0].decode().upper()
        if name == "SCRIPT" and len(words) > 1:
            name += " " + words[1].decode().upper()
        names.append(name)
    return names


class Recorder:
    """Every round trip this process sends to Redis while ``on`` (redis-py's
    ``send_packed_command`` and the store's lane, as tests/kit/helpers.py's
    ``sent_to_redis`` records them; a pipeline is one), as its command names."""

    def __init__(self) -> None:
        self.on = False
        self.trips: list[list[str]] = []

    @contextlib.contextmanager
    def patched(self) -> Iterator[None]:
        with common.each_send(self._record):
            yield

    def _record(self, packet: bytes) -> None:
        if self.on:
            self.trips.append(command_names(packet))

    @contextlib.contextmanager
    def window(self) -> Iterator[list[list[str]]]:
        """The round trips sent inside the ``with`` block."""
        self.trips = []
        self.on = True
        try:
            yield self.trips
        finally:
            self.on = False


def trip_text(trips: list[list[str]]) -> str:
    """Round trips as ``MGET | EVALSHA | HMGET ×4``."""
    out = []
    for names in trips:
        counts = collections.Counter(names)
        out.append(" ".join(f"{n} ×{c}" if c > 1 else n for n, c in counts.items()))
    return " | ".join(out)


# -- rated games through the real path ----------------------------------------------------


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play(
    c: Any, client: Any, rec: Recorder, seed: int, mode: str, keys: list[str]
) -> list[dict[str, Any]]:
    """One 4-player Manhattan game (``seed``) played to its end by random legal moves
    chosen by ``Random(seed)``, seats ``mode``: "rated" (bound to the players of
    ``keys``), "unrated" (the same players, ``"rated": false``) or "names" (no player).
    Each POST's round trips, commands and Redis µs."""
    body: dict[str, Any] = {"players": 4, "seed": seed}
    if mode == "unrated":
        body["rated"] = False
    created = c.post("/games", json=body).get_json()
    game_id, host = created["id"], created["host_token"]
    tokens = []
    for s in range(4):
        if mode == "names":
            joined = c.post(f"/games/{game_id}/players", json={"name": f"n{s}"})
        else:
            joined = c.post(f"/games/{game_id}/players", json={}, headers=auth(keys[s]))
        tokens.append(joined.get_json()["token"])
    view = c.post(f"/games/{game_id}/start", headers=auth(host)).get_json()
    rng = random.Random(seed)
    posts = []
    while view["status"] == "running":
        seat = auth(tokens[view["to_act"][0]])
        legal = c.get(f"/games/{game_id}?include=legal_moves", headers=seat).get_json()
        move = rng.choice(legal["legal_moves"])
        before, usec0 = commandstats(client), usec_by_command(client)
        with rec.window() as trips:
            reply = c.post(f"/games/{game_id}/moves", json=move, headers=seat)
        delta = commandstats(client) - before
        delta.pop("info", None)
        spent = usec_by_command(client) - usec0
        assert reply.status_code == 200, reply.get_data(as_text=True)
        view = reply.get_json()["game"]
        posts.append(
            {
                "trips": [list(t) for t in trips],
                "mix": delta,
                "usec": sum(spent[name] for name in TOP_LEVEL),
                "ended": view["status"] != "running",
                "result": view.get("result"),
            }
        )
    return posts


def count_moves(app: Any, client: Any, rec: Recorder, games_n: int) -> dict[str, Any]:
    """``games_n`` games each rated, unrated (same players) and name-only, same seeds
    and moves; the non-ending moves compared pair by pair, the ending ones summed."""
    c = app.test_client()
    made = [c.post("/players", json={"name": f"Rated {n}"}).get_json() for n in range(4)]
    keys = [m["key"] for m in made]
    played: dict[str, list[list[dict[str, Any]]]] = {"rated": [], "unrated": [], "names": []}
    modes = list(played)
    for seed in range(games_n):
        for mode in modes[seed % 3 :] + modes[: seed % 3]:  # each first in turn
            played[mode].append(play(c, client, rec, 1000 + seed, mode, keys))
    out: dict[str, Any] = {"players": [m["id"] for m in made], "games": games_n}
    same_trips = same_cmds = pairs = 0
    differ: collections.Counter[str] = collections.Counter()
    for rated, unrated in zip(played["rated"], played["unrated"], strict=True):
        assert len(rated) == len(unrated), "the same seed and choices played another game"
        assert "ratings" in rated[-1]["result"] and "ratings" not in unrated[-1]["result"]
        for a, b in zip(rated[:-1], unrated[:-1], strict=True):
            pairs += 1
            same_trips += a["trips"] == b["trips"]
            no_expire_a = {k: v for k, v in a["mix"].items() if k != "expire"}
            no_expire_b = {k: v for k, v in b["mix"].items() if k != "expire"}
            same_cmds += no_expire_a == no_expire_b
            differ.update((a["mix"] - b["mix"]) + (b["mix"] - a["mix"]))
    out["pairs"] = {
        "moves": pairs,
        "same_round_trips": same_trips,
        "same_commands_but_expire": same_cmds,
        "differing_commands": dict(differ),
    }
    for mode, games in played.items():
        middle = [p for posts in games for p in posts[:-1]]
        ends = [posts[-1] for posts in games]
        out[mode] = {
            "moves": len(middle),
            "round_trips": statistics.mean(len(p["trips"]) for p in middle),
            "commands": statistics.mean(sum(p["mix"].values()) for p in middle),
            "expire": statistics.mean(p["mix"]["expire"] for p in middle),
            "usec": statistics.mean(p["usec"] for p in middle),
            "middle_trips": trip_text(middle[0]["trips"]),
            "end_round_trips": round(statistics.mean(len(p["trips"]) for p in ends), 2),
            "end_commands": round(statistics.mean(sum(p["mix"].values()) for p in ends), 1),
            "end_usec": statistics.mean(p["usec"] for p in ends),
            "end_trips": trip_text(ends[-1]["trips"]),
            "end_mix": dict(sum((p["mix"] for p in ends), collections.Counter())),
        }
    rated_mix = collections.Counter(out["rated"]["end_mix"])
    unrated_mix = collections.Counter(out["unrated"]["end_mix"])
    out["end_extra_mix"] = {
        k: round(v / games_n, 2) for k, v in sorted((rated_mix - unrated_mix).items())
    }
    out["end_fewer_mix"] = {
        k: round(v / games_n, 2) for k, v in sorted((unrated_mix - rated_mix).items())
    }
    return out


# -- the data set --------------------------------------------------------------------------


def g17(x: float) -> str:
    """A float as rating.lua writes it (``string.format('%.17g', x)``)."""
    return f"{x:.17g}"


def add_ratings(client: Any, game: str, ids: list[str], rng: random.Random) -> dict[str, float]:
    """Rating fields for ``ids`` (games played 5-300, sigma shrinking with them, mu
    spread around the default, wins about a quarter of the games, some ties); each
    player's board value: ``ordinal`` of the texts written, as ``settle_ratings`` ranks."""
    pipe = client.pipeline(transaction=False)
    scores: dict[str, float] = {}
    for n, player_id in enumerate(ids):
        played = min(300, 5 + int(rng.expovariate(1 / 40)))
        sigma = g17(max(0.9, 25 / 3 * 0.985**played) * rng.uniform(0.95, 1.05))
        mu = g17(rng.gauss(25.0, 4.0))
        won = sum(1 for _ in range(played) if rng.random() < 0.25) + 0.5 * (n % 7 == 0)
        fields = {f"{game}:n": str(played), f"{game}:won": g17(won)}
        pipe.hset(
            registry_key(player_id), mapping={**fields, f"{game}:mu": mu, f"{game}:sigma": sigma}
        )
        scores[player_id] = ordinal(float(mu), float(sigma))
        if len(pipe) >= BATCH:
            pipe.execute()
    pipe.execute()
    return scores


def fill_board(client: Any, board: str, scores: dict[str, float]) -> None:
    pipe = client.pipeline(transaction=False)
    items = list(scores.items())
    for n in range(0, len(items), BATCH):
        pipe.zadd(board, dict(items[n : n + BATCH]))
    pipe.execute()


def check_layout(
    client: Any, game: str, board: str, least: int, real: list[str], bulk: list[str]
) -> dict:
    """Whether bulk players look like players rated through the real path."""
    ours = {f"{game}:{f}" for f in RATING_FIELDS}

    def shape(player_id: str) -> tuple[list[str], str, bool, bool]:
        fields = client.hgetall(registry_key(player_id))
        names = [k for k in fields if k in ours]
        mu, sigma = float(fields[f"{game}:mu"]), float(fields[f"{game}:sigma"])
        texts = all(g17(float(fields[k])) == fields[k] for k in (f"{game}:mu", f"{game}:sigma"))
        texts = texts and fields[f"{game}:n"].isdigit() and float(fields[f"{game}:won"]) >= 0
        score = client.zscore(board, player_id)
        shown = int(fields[f"{game}:n"]) >= least  # below it, settle_ratings keeps it off
        encoding = client.object("encoding", registry_key(player_id))
        return names, encoding, texts, score == (ordinal(mu, sigma) if shown else None)

    real_shapes = [shape(p) for p in real]
    bulk_shapes = [shape(p) for p in bulk]
    return {
        "fields": real_shapes[0][0],
        "same_fields_and_order": all(s[0] == real_shapes[0][0] for s in real_shapes + bulk_shapes),
        "same_encoding": len({s[1] for s in real_shapes + bulk_shapes}) == 1,
        "encoding": real_shapes[0][1],
        "texts_as_lua_writes": all(s[2] for s in real_shapes + bulk_shapes),
        "board_is_ordinal": all(s[3] for s in real_shapes + bulk_shapes),
        "checked": f"{len(real)} real, {len(bulk)} bulk",
    }


# -- leaderboard pages ---------------------------------------------------------------------


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


# -- the snapshot --------------------------------------------------------------------------

PROBE_KEY = "bench:probe"
PROBE_GAP_S = 0.0005  # between two probe GETs: about 2,000 a second
SLOW_MS = 10  # a probe GET slower than this waited on something


def probe_loop(url: str, stop: Any, out: Any) -> None:
    """(In a process of its own, so that this one's Python never delays it.) A GET of a
    small key every :data:`PROBE_GAP_S` on its own connection until ``stop`` is set,
    each timed: ``(starts, seconds)`` on the monotonic clock, sent to ``out``."""
    client = redis.Redis.from_url(url)
    client.get(PROBE_KEY)
    out.send("ready")
    starts, took = array.array("d"), array.array("d")
    while not stop.is_set():
        t0 = time.monotonic()
        client.get(PROBE_KEY)
        starts.append(t0)
        took.append(time.monotonic() - t0)
        time.sleep(PROBE_GAP_S)
    out.send((starts.tobytes(), took.tobytes()))


@contextlib.contextmanager
def probing(url: str) -> Iterator[list[tuple[float, float]]]:
    """:func:`probe_loop` running for the ``with`` block; its samples after it."""
    mp = multiprocessing.get_context("spawn")
    stop = mp.Event()
    recv, send = mp.Pipe(duplex=False)
    proc = mp.Process(target=probe_loop, args=(url, stop, send), daemon=True)
    proc.start()
    samples: list[tuple[float, float]] = []
    try:
        assert recv.poll(60) and recv.recv() == "ready"
        yield samples
    finally:
        stop.set()
        if recv.poll(60):
            starts, took = (array.array("d", raw) for raw in recv.recv())
            samples.extend(zip(starts, took, strict=True))
        proc.join(10)


def probe_stats(samples: list[tuple[float, float]], windows: list[tuple[float, float]]) -> dict:
    """The probe GETs that overlapped one of ``windows`` (start, end; monotonic)."""
    windows = sorted(windows)
    begins = [w[0] for w in windows]
    hit = []
    for start, took in samples:
        at = bisect.bisect_right(begins, start + took) - 1
        if at >= 0 and start < windows[at][1]:
            hit.append(took)
    if not hit:
        return {"n": 0}
    return {
        "n": len(hit),
        "p50_ms": round(pct(hit, 0.5) * 1000, 2),
        "p99_ms": round(pct(hit, 0.99) * 1000, 2),
        "max_ms": round(max(hit) * 1000, 1),
        "slow": sum(t * 1000 > SLOW_MS for t in hit),
    }


def slowlog(client: Any) -> list[tuple[str, int]]:
    """(command name, µs inside Redis) of every command since the last SLOWLOG RESET
    (logged one by one: slowlog-log-slower-than 0), the probe's GETs and these calls
    left out; then resets it."""
    out = []
    for entry in client.slowlog_get(1_000_000):
        words = entry["command"]
        words = words.decode() if isinstance(words, bytes) else words
        if words == f"GET {PROBE_KEY}" or words.startswith("SLOWLOG"):
            continue
        out.append((words.split()[0].lower(), int(entry["duration"])))
    client.slowlog_reset()
    return out


def snapshots(ratings: Any, client: Any, url: str, times_n: int) -> dict[str, Any]:
    """``times_n`` snapshots each way, in turn: ``Ratings.refresh`` (ZSCAN + ZADD by
    CHUNK, what the worker runs) and one ZUNIONSTORE of the same board (the design it
    replaced, its copy unlinked at once); each command's µs inside Redis from the slow
    log, and a probe's GETs from another process meanwhile (and in quiet gaps)."""
    board = ratings.board_key(TENANT)
    copy = f"{board}:bench-union"
    client.set(PROBE_KEY, "x")
    client.config_set("slowlog-max-len", 1_000_000)
    client.config_set("slowlog-log-slower-than", 0)
    walls: dict[str, list[float]] = {"refresh": [], "zunionstore": []}
    windows: dict[str, list[tuple[float, float]]] = {"refresh": [], "zunionstore": [], "quiet": []}
    longest: dict[str, list[int]] = collections.defaultdict(list)  # per snapshot
    calls: dict[str, list[int]] = collections.defaultdict(list)
    redis_us: list[int] = []
    out: dict[str, Any] = {"times": times_n}
    with probing(url) as samples:
        for n in range(times_n):
            for way in ("refresh", "zunionstore") if n % 2 else ("zunionstore", "refresh"):
                time.sleep(0.1)
                start = time.monotonic()
                time.sleep(0.1)
                windows["quiet"].append((start, time.monotonic()))
                slowlog(client)
                start = time.monotonic()
                if way == "refresh":
                    ratings.refresh(TENANT)
                else:
                    client.zunionstore(copy, [board])
                end = time.monotonic()
                windows[way].append((start, end))
                walls[way].append(end - start)
                ran = slowlog(client)
                if way == "zunionstore":
                    if n == 0:
                        out["zunionstore_key"] = client.memory_usage(copy, samples=0)
                    client.unlink(copy)
                    longest["zunionstore"].append(max(us for name, us in ran if name == way))
                    continue
                redis_us.append(sum(us for _, us in ran))
                for name in ("zscan", "zadd"):
                    mine = [us for cmd, us in ran if cmd == name]
                    calls[name].append(len(mine))
                    longest[name].append(max(mine))
                others = [us for cmd, us in ran if cmd not in ("zscan", "zadd")]
                longest["other"].append(max(others))
                mix = collections.Counter(cmd for cmd, _ in ran)
                out["mix"] = dict(sorted(mix.items()))
    client.config_set("slowlog-log-slower-than", 10_000)
    client.config_set("slowlog-max-len", 128)
    client.slowlog_reset()
    for way, times in walls.items():
        out[f"{way}_wall_p50_ms"] = round(statistics.median(times) * 1000, 1)
        out[f"{way}_wall_max_ms"] = round(max(times) * 1000, 1)
    for name, spent in longest.items():
        out[f"{name}_longest_p50_ms"] = round(statistics.median(spent) / 1000, 2)
        out[f"{name}_longest_max_ms"] = round(max(spent) / 1000, 2)
    out["calls"] = {name: max(counts) for name, counts in calls.items()}
    out["refresh_redis_ms"] = round(statistics.median(redis_us) / 1000, 1)
    out["probe"] = {way: probe_stats(samples, spans) for way, spans in windows.items()}
    return out


def copy_costs(client: Any, board: str, times_n: int) -> dict[str, Any]:
    """Inside Redis, per snapshot-sized key: ZUNIONSTORE (what a snapshot runs) against
    COPY (another way to take one), and freeing it: DEL (as an expiry does without
    lazyfree-lazy-expire) against UNLINK. Medians of ``times_n``, ms."""
    lazy = client.config_get("lazyfree-lazy-expire")["lazyfree-lazy-expire"]
    out: dict[str, Any] = {"lazyfree-lazy-expire": lazy}
    spent: dict[str, list[int]] = collections.defaultdict(list)
    copy = f"{board}:bench-copy"
    for n in range(times_n):
        for make in ("zunionstore", "copy"):
            before = usec_by_command(client)
            if make == "copy":
                client.copy(board, copy, replace=True)
            else:
                client.zunionstore(copy, [board])
            after = usec_by_command(client)
            spent[make].append((after - before)[make])
            verb = ("del", "unlink")[n % 2]
            client.execute_command(verb.upper(), copy)
            spent[verb].append((usec_by_command(client) - after)[verb])
    for verb, times in spent.items():
        out[verb] = round(statistics.median(times) / 1000, 2)
    return out


# -- the run -------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    out: dict[str, Any] = {"machine": machine()}
    rec = Recorder()
    with redis_server(appendonly=False) as server, rec.patched():
        app, _ = make_app("manhattan", server.url)
        kit = app.extensions["game_kit"]
        ctx = kit.games.ctx
        ratings = ctx.ratings
        every_s = int(ctx.settings["LEADERBOARD_SNAPSHOT_SECONDS"])
        min_games = int(ctx.settings["LEADERBOARD_MIN_GAMES"])
        out["settings"] = {
            k: ctx.settings[k] for k in ("LEADERBOARD_MIN_GAMES", "LEADERBOARD_SNAPSHOT_SECONDS")
        }
        client = server.client()
        board = ratings.board_key(TENANT)
        t0 = time.perf_counter()
        out["moves"] = count_moves(app, client, rec, args.games)
        real = out["moves"]["players"]
        t1 = time.perf_counter()
        memory = {"before": used_memory(client)}
        made, _ = make_players(client, args.players)
        ids = [player_id for player_id, _ in made]
        memory["registry"] = used_memory(client)
        sample = [registry_key(p) for p in ids[:: max(1, len(ids) // 1000)]]
        pipe = client.pipeline(transaction=False)
        for key in sample:
            pipe.memory_usage(key, samples=0)
        hash_before = statistics.mean(pipe.execute())
        t2 = time.perf_counter()
        scores = add_ratings(client, ratings.game, ids, rng)
        memory["fields"] = used_memory(client)
        fill_board(client, board, scores)
        memory["board"] = used_memory(client)
        t3 = time.perf_counter()
        pipe = client.pipeline(transaction=False)
        for key in sample:
            pipe.memory_usage(key, samples=0)
        hash_after = statistics.mean(pipe.execute())
        rated_keys = [f"{registry_key(p)}:rated" for p in real]
        out["build"] = {
            "players": args.players,
            "board": client.zcard(board),
            "seconds": {
                "games": round(t1 - t0, 1),
                "registry": round(t2 - t1, 1),
                "ratings": round(t3 - t2, 1),
            },
        }
        out["check"] = check_layout(
            client, ratings.game, board, min_games, real, rng.sample(ids, 200)
        )
        out["memory"] = {
            "used_memory": memory,
            "fields_per_player": round((memory["fields"] - memory["registry"]) / len(ids), 1),
            "board_per_player": round((memory["board"] - memory["fields"]) / len(ids), 1),
            "hash_before": round(hash_before, 1),
            "hash_after": round(hash_after, 1),
            "board_key": client.memory_usage(board, samples=0),
            "board_encoding": client.object("encoding", board),
            "rated_key": statistics.mean(client.memory_usage(k, samples=0) for k in rated_keys),
            "rated_entries": client.zcard(rated_keys[0]),
        }
        start = time.perf_counter()
        ratings.snapshot(TENANT, every_s)  # the very first read: no snapshot yet, one taken
        out["first_snapshot_ms"] = round((time.perf_counter() - start) * 1000, 1)
        out["snapshot"] = snapshots(ratings, client, server.url, args.snapshots)
        kept = [str(s) for s in client.lrange(f"{board}:snaps", 0, -1)]
        alive = sorted(client.scan_iter(f"{board}:snap:*"))
        newest = f"{board}:snap:{str(client.get(f'{board}:snap'))}"
        out["memory"]["snapshots_alive"] = len(alive)
        out["memory"]["snapshots_listed"] = len(kept)
        out["memory"]["alive_are_listed"] = alive == sorted(f"{board}:snap:{s}" for s in kept)
        out["memory"]["snapshot_key"] = statistics.mean(
            client.memory_usage(k, samples=0) for k in alive
        )
        out["memory"]["snapshot_encoding"] = client.object("encoding", newest)
        out["memory"]["snapshot_is_board"] = client.zrange(newest, 0, -1, withscores=True) == (
            client.zrange(board, 0, -1, withscores=True)
        )
        out["memory"]["used_memory"]["snapshots"] = used_memory(client)
        out["copies"] = copy_costs(client, board, max(4, args.snapshots // 2))
        cases = page_cases(args.players)
        ratings.refresh(TENANT)  # (as the worker would: pages never take one)
        out["pages_inproc"] = time_pages_inproc(ratings, client, rec, cases, args.requests, every_s)
        with gunicorn("manhattan", server.url) as svc:
            pids = [*svc.pids, server.proc.pid]
            ratings.refresh(TENANT)
            out["pages_http"], out["baseline_http"] = time_pages_http(
                svc.port, client, cases, args.requests, pids, real[0]
            )
        out["memory"]["used_memory"]["end"] = used_memory(client)
    return out


def markdown(args: argparse.Namespace, out: dict[str, Any]) -> list[str]:
    b, m, chk, mv = out["build"], out["memory"], out["check"], out["moves"]
    mem = m["used_memory"]
    flags = (
        f"--players {args.players} --requests {args.requests} --games {args.games} "
        f"--snapshots {args.snapshots}"
    )
    mib = 1024 * 1024
    every = out["settings"]["LEADERBOARD_SNAPSHOT_SECONDS"]
    per_rated = m["fields_per_player"] + m["board_per_player"]
    lines = [
        f"`python -m bench.ratings {flags}`",
        "",
        "machine: " + ", ".join(f"{k} {v}" for k, v in out["machine"].items()),
        "",
        f"Data set: {b['players']:,} players (registry) with Manhattan ratings, "
        f"{b['board']:,} on the board `mh:lb:{{}}` (with the 4 real players); built in "
        f"{b['seconds']['registry']} s (registry) + {b['seconds']['ratings']} s (rating "
        f"fields, then the board from them); {args.games} real rated games of 4 players "
        f"and their baselines in {b['seconds']['games']} s. Check against the real "
        f"players ({chk['checked']}): fields {chk['fields']} in that order "
        f"({chk['same_fields_and_order']}), texts as rating.lua writes them "
        f"({chk['texts_as_lua_writes']}), hash encoding {chk['encoding']} for all "
        f"({chk['same_encoding']}), board score = ordinal(mu, sigma) ({chk['board_is_ordinal']}).",
        "",
        "| Redis memory | figure |",
        "|---|---|",
        f"| used_memory: registry / + rating fields / + board | {mem['registry'] / mib:.1f} / "
        f"{mem['fields'] / mib:.1f} / {mem['board'] / mib:.1f} MiB |",
        f"| **per rated player** | **{per_rated:.0f} B**: {m['fields_per_player']:.0f} B of "
        f"rating fields (MEMORY USAGE of a registry hash {m['hash_before']:.0f} -> "
        f"{m['hash_after']:.0f} B) + {m['board_per_player']:.0f} B of board entry |",
        f"| the board (`MEMORY USAGE`) | {m['board_key'] / mib:.1f} MiB ({m['board_encoding']}) |",
        f"| one snapshot (`MEMORY USAGE`, {m['snapshot_encoding']}) | "
        f"{m['snapshot_key'] / mib:.1f} MiB (a ZUNIONSTORE copy: "
        f"{out['snapshot']['zunionstore_key'] / mib:.1f} MiB); the {KEPT} newest kept, one "
        f"taken every {every} s: **{m['snapshots_alive']} alive** after "
        f"{out['snapshot']['times'] + 1} refreshes ({m['snapshots_listed']} listed in "
        f"`:snaps`, the same keys: {m['alive_are_listed']}), "
        f"{m['snapshots_alive'] * m['snapshot_key'] / mib:.0f} MiB; the newest equal to the "
        f"board: {m['snapshot_is_board']} |",
        f"| `players:{{<id>}}:rated` of a real player | {m['rated_key']:.0f} B with "
        f"{m['rated_entries']} games (one entry per rated game of the last "
        "GAME_TTL_FINISHED + GAME_TTL_IDLE) |",
        "",
        "Leaderboard pages, one request at a time, the worker's snapshot in place (none "
        "taken by a request). In-process: `Ratings.snapshot` (first pages only: the pointer) "
        "+ `Ratings.page` + `leaderboard_entries`; HTTP: `GET "
        "/leaderboards/manhattan` through gunicorn (anonymous, keep-alive):",
        "",
        "| page | entries | in-process p50 / p99 ms (snapshot, page, details + entries) "
        "| round trips | Redis commands | HTTP p50 / p99 ms | HTTP commands "
        "| services + Redis CPU ms / request | others' cores |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for a, h in zip(out["pages_inproc"], out["pages_http"], strict=True):
        parts = ", ".join(
            f"{a[p][0]:g}/{a[p][1]:g}" for p in ("snapshot", "page", "details") if p in a
        )
        mix = ", ".join(f"{k} {v:g}" for k, v in a["mix"].items())
        lines.append(
            f"| {a['case']} ({a['requests']}) | {a['entries']:g} | {a['total'][0]:g} / "
            f"**{a['total'][1]:g}** ({parts}) | {a['round_trips']:g} | {a['commands']:g} "
            f"({mix}) | {h['p50_ms']} / **{h['p99_ms']}** | {h['commands']:g} "
            f"| {h['cpu_ms']} | {h['other_cores']} |"
        )
    base = out["baseline_http"]
    lines.append(
        f"| baseline: `GET /players/{{id}}` ({base['requests']}) | | | | | {base['p50_ms']} "
        f"/ **{base['p99_ms']}** | {base['commands']:g} | {base['cpu_ms']} "
        f"| {base['other_cores']} |"
    )
    sn, fr, pr = out["snapshot"], out["copies"], out["snapshot"]["probe"]

    def probe(way: str) -> str:
        p = pr[way]
        return (
            f"{p['n']} | {p['p50_ms']} / {p['p99_ms']} / **{p['max_ms']}** | {p['slow']}"
            if p["n"]
            else "0 | | "
        )

    mix = ", ".join(f"{k} {v}" for k, v in sn["mix"].items())
    lines += [
        "",
        f"The snapshot of the {b['board']:,}-entry board, {sn['times']} times each way in "
        f"turn, in-process. `Ratings.refresh` (what the worker runs every {every} s: ZSCAN "
        f"COUNT {CHUNK} + ZADD of each chunk; commands: {mix}) against one ZUNIONSTORE of "
        "the same board (the design it replaced). Inside Redis, from the slow log "
        "(slowlog-log-slower-than 0: every command's own µs):",
        "",
        "| way | wall p50 / max ms | longest single command p50 / max ms (per snapshot) |",
        "|---|---|---|",
        f"| `Ratings.refresh` | {sn['refresh_wall_p50_ms']} / {sn['refresh_wall_max_ms']} "
        f"({sn['refresh_redis_ms']} ms of it inside Redis) | ZSCAN "
        f"{sn['zscan_longest_p50_ms']} / **{sn['zscan_longest_max_ms']}** "
        f"({sn['calls']['zscan']} calls), ZADD {sn['zadd_longest_p50_ms']} / "
        f"**{sn['zadd_longest_max_ms']}** ({sn['calls']['zadd']} calls), any other "
        f"{sn['other_longest_p50_ms']} / {sn['other_longest_max_ms']} |",
        f"| one ZUNIONSTORE (baseline) | {sn['zunionstore_wall_p50_ms']} / "
        f"{sn['zunionstore_wall_max_ms']} | ZUNIONSTORE {sn['zunionstore_longest_p50_ms']} / "
        f"**{sn['zunionstore_longest_max_ms']}** |",
        "",
        f"Meanwhile, from another process on its own connection, a GET of a small key every "
        f"{PROBE_GAP_S * 1000:g} ms, each timed (the GETs that overlapped):",
        "",
        f"| while | GETs | p50 / p99 / max ms | over {SLOW_MS} ms |",
        "|---|---|---|---|",
        f"| `Ratings.refresh` runs | {probe('refresh')} |",
        f"| ZUNIONSTORE runs (baseline) | {probe('zunionstore')} |",
        f"| nothing (100 ms gaps before each) | {probe('quiet')} |",
        "",
        f"The very first first-page read (no snapshot yet) takes one itself: "
        f"{out['first_snapshot_ms']} ms; after that pages only read the pointer. Freeing a "
        f"copy inside Redis, medians, ms: DEL {fr['del']}, UNLINK {fr['unlink']} (older "
        f"snapshots are UNLINK-ed; a copy by COPY {fr['copy']}, by ZUNIONSTORE "
        f"{fr['zunionstore']}).",
        "",
        f"`POST /moves`, {mv['games']} 4-player games of each kind, the same seeds and "
        "moves (in-process, Flask test client and its fast path):",
        "",
        "| seats | moves not ending the game | round trips | commands (of them EXPIRE) "
        "| Redis µs | the ending move: round trips | commands | Redis µs |",
        "|---|---|---|---|---|---|---|---|",
    ]
    labels = {
        "rated": "4 players, rated",
        "unrated": '4 players, `"rated": false`',
        "names": "4 names (no player)",
    }
    for mode, label in labels.items():
        r = mv[mode]
        lines.append(
            f"| {label} | {r['moves']} | **{r['round_trips']:g}** | {r['commands']:.1f} "
            f"({r['expire']:.2f}) | {r['usec']:.0f} | **{r['end_round_trips']:g}** "
            f"| **{r['end_commands']:g}** | {r['end_usec']:.0f} |"
        )
    p = mv["pairs"]
    extra = ", ".join(f"{k} +{v:g}" for k, v in mv["end_extra_mix"].items())
    fewer = ", ".join(f"{k} -{v:g}" for k, v in mv["end_fewer_mix"].items())
    lines += [
        "",
        f"Move by move, rated against unrated: {p['same_round_trips']} of {p['moves']} "
        f"non-ending moves sent the same round trips, {p['same_commands_but_expire']} ran "
        f"the same commands but EXPIRE (the player indexes' once-a-second EXPIRE, timing); "
        f"commands that differed at all: {p['differing_commands'] or 'none'}.",
        "",
        f"The ending move, rated: {mv['rated']['end_trips']}",
        "",
        f"The ending move, unrated: {mv['unrated']['end_trips']}",
        "",
        f"Extra commands of the rated ending move (per game): {extra}"
        + (f"; fewer: {fewer}" if fewer else ""),
    ]
    return lines


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--requests", type=int, default=1000, help="per page case")
    ap.add_argument("--games", type=int, default=6, help="rated games (and baselines)")
    ap.add_argument("--snapshots", type=int, default=20, help="per way (refresh, ZUNIONSTORE)")
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args(argv)
    out = run(args)
    print("\n".join(markdown(args, out)))
    return out


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
