"""What REDIS_WAIT_REPLICAS costs a move (issue 33).

Run: ``python -m bench.replication [--game manhattan] [--moves 600] [--threads 8]``.

The real app in-process (Flask's test client, bench/inproc.py) on a private Redis
Cluster of three primaries and three replicas (scripts/redis_cluster.sh), and on one
Redis with one replica (the store's own sockets, shared/store/connection.py); bots play
random legal moves with an Idempotency-Key. Each ``POST /moves`` is timed, and the
store's write in it (the EVALSHA, with its WAIT when asked), with
``REDIS_WAIT_REPLICAS`` 0 and 1: one thread (the latency a move gains), then
``--threads`` threads (throughput and p99 under concurrency). Prints a markdown table.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from bench.common import cluster_ports, redis_cluster, redis_server, wait_until
from bench.inproc import Bot, make_app
from shared.store.documents import Documents

_writes: list[float] = []
_write = Documents.write


def _timed_write(self, *args, **kwargs):
    """The store's write alone (the EVALSHA, with its WAIT when asked), timed."""
    start = time.perf_counter()
    try:
        return _write(self, *args, **kwargs)
    finally:
        _writes.append(time.perf_counter() - start)


ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def cluster() -> Iterator[str]:
    """Three primaries, three replicas: the cluster URL."""
    with redis_cluster(replicas=1) as (url, _, _):
        yield f"{url}?cluster=true"


@contextlib.contextmanager
def with_replica() -> Iterator[str]:
    """One Redis (append-only) and one replica of it: the primary's URL."""
    with redis_server() as server:
        port = cluster_ports(1)[0]
        workdir = tempfile.mkdtemp(prefix="bench-replica-")
        cmd = [shutil.which("redis-server") or "redis-server", "--port", str(port)]
        cmd += ["--bind", "127.0.0.1", "--dir", workdir, "--save", "", "--appendonly", "yes"]
        cmd += ["--replicaof", "127.0.0.1", str(server.port), "--loglevel", "warning"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        replica = redis.Redis(port=port)
        try:
            wait_until(
                lambda: replica.info("replication").get("master_link_status") == "up",
                20,
                "the replica",
            )
            yield server.url
        finally:
            proc.terminate()
            proc.wait(10)
            shutil.rmtree(workdir, ignore_errors=True)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def play(app, players: int, moves: int, threads: int) -> dict[str, float]:
    """``moves`` timed moves over ``threads`` threads (a game each at a time)."""
    times: list[float] = []
    lock = threading.Lock()
    per_thread = moves // threads

    def run(seed: int) -> None:
        bot = Bot(app, players, seed)
        own: list[float] = []
        while len(own) < per_thread:
            if bot.status != "running":
                bot = Bot(app, players, seed + 1000 * len(own))
                continue
            move = bot.rng.choice(bot.legal())
            start = time.perf_counter()
            bot.post(move)
            own.append(time.perf_counter() - start)
        with lock:
            times.extend(own)

    _writes.clear()
    started = time.perf_counter()
    workers = [threading.Thread(target=run, args=(seed,)) for seed in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    wall = time.perf_counter() - started
    ms = [t * 1000 for t in times]
    write_ms = [t * 1000 for t in _writes]
    return {
        "write_mean": sum(write_ms) / len(write_ms),
        "write_p99": percentile(write_ms, 99),
        "mean": sum(ms) / len(ms),
        "p50": percentile(ms, 50),
        "p99": percentile(ms, 99),
        "per_s": len(ms) / wall,
    }


def measure(url: str, cluster_mode: bool, game: str, moves: int, threads: int) -> list[list[str]]:
    rows = []
    for wait in (0, 1):
        app, _ = make_app(game, url.split("?")[0], cluster=cluster_mode)
        app.extensions["game_kit"].games.store.replicate(wait, 200)
        for n in (1, threads):
            play(app, 4, min(60, moves), n)  # warm-up (scripts loaded, sockets open)
            out = play(app, 4, moves, n)
            rows.append(
                [
                    "cluster 3+3" if cluster_mode else "one Redis + 1 replica",
                    str(wait),
                    str(n),
                    f"{out['mean']:.2f}",
                    f"{out['p50']:.2f}",
                    f"{out['p99']:.2f}",
                    f"{out['per_s']:.0f}",
                    f"{out['write_mean']:.3f}",
                    f"{out['write_p99']:.3f}",
                ]
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="manhattan")
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args(argv)
    Documents.write = _timed_write  # type: ignore[method-assign]
    rows: list[list[str]] = []
    with with_replica() as url:
        rows += measure(url, False, args.game, args.moves, args.threads)
    with cluster() as url:
        rows += measure(url, True, args.game, args.moves, args.threads)
    head = ["store", "REDIS_WAIT_REPLICAS", "threads", "mean ms", "p50 ms", "p99 ms", "moves/s"]
    head += ["write mean ms", "write p99 ms"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
