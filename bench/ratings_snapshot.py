"""bench.ratings, the snapshot: ``Ratings.refresh`` against one ZUNIONSTORE of the same
board (wall time, each command's µs from the slow log, a probe's GETs from another
process meanwhile), and what a copy costs to make and to free."""

from __future__ import annotations

import array
import bisect
import collections
import contextlib
import multiprocessing
import statistics
import time
from collections.abc import Iterator
from typing import Any

import redis

from bench.players_measure import pct, usec_by_command
from bench.ratings_data import TENANT

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
