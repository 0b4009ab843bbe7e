"""Concurrent games against the services as ``make run`` serves them, next to the floor.

Run: ``python -m bench.load [--game manhattan] [--games 200] [--players 4] [--waiters 0]
[--cluster] [--gen-cpus 1]``.

In one run, on one private Redis (or a private three-node Redis Cluster with
``--cluster``), with the generator (``bench/loadgen.py``, gevent over raw sockets)
pinned by ``taskset`` to ``--gen-cpus``:

1. the floor (``bench/floor_app.py``: one GET + one SET, same gunicorn.conf.py), closed
   loop with as many connections as there are games, and with 20 connections;
2. the maximum: ``--games`` games played to the end, every bot moving as fast as it
   gets answers (closed loop); the sustained rate counts moves between 5% and 80% of all;
3. latency at half that maximum: fresh games, moves started on a fixed schedule (open
   loop), latency from the scheduled start;
4. with ``--waiters N``: step 3 again with N clients long-polling events meanwhile.

Each step reports the cores used by the services, Redis, the generator and anything
else on the machine (the other work is not ours, but it shares the two cores).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator

from bench.common import (
    ROOT,
    CpuMeter,
    gunicorn,
    machine,
    redis_server,
    run_loadgen,
)


def cluster_ports(count: int) -> list[int]:
    """Free ports whose cluster bus port (+10000) is free too."""
    ports: list[int] = []
    rng = random.Random()
    while len(ports) < count:
        port = rng.randrange(20000, 50000)
        if port in ports or not (port_free(port) and port_free(port + 10000)):
            continue
        ports.append(port)
    return ports


def port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@contextlib.contextmanager
def redis_cluster() -> Iterator[tuple[str, list[int]]]:
    """A private three-node cluster via ``scripts/redis_cluster.sh``: (url, node pids)."""
    ports = cluster_ports(3)
    workdir = tempfile.mkdtemp(prefix="bench-cluster-")
    env = {**os.environ, "CLUSTER_PORTS": " ".join(map(str, ports)), "CLUSTER_DIR": workdir}
    script = str(ROOT / "scripts" / "redis_cluster.sh")
    started = subprocess.run(["bash", script, "start"], env=env, capture_output=True, text=True)
    if started.returncode:
        subprocess.run(["bash", script, "stop"], env=env, check=False, capture_output=True)
        raise RuntimeError(f"redis_cluster.sh start failed: {started.stderr[-1000:]}")
    try:
        pids = []
        for port in ports:
            with open(f"{workdir}/{port}/redis.pid") as fh:
                pids.append(int(fh.read().strip()))
        yield f"redis://127.0.0.1:{ports[0]}/0", pids
    finally:
        subprocess.run(["bash", script, "stop"], env=env, check=False, capture_output=True)


@contextlib.contextmanager
def store(cluster: bool, cpus: str | None) -> Iterator[tuple[str, list[int]]]:
    if cluster:
        with redis_cluster() as found:
            yield found
    else:
        with redis_server(cpus) as server:
            yield server.url, [server.proc.pid]


def phase(meter_groups: dict[str, list[int]], loadgen_args: list[str], args) -> dict:
    meter = CpuMeter(meter_groups)
    result = run_loadgen(loadgen_args, args.gen_cpus, timeout=args.max_seconds + 180)
    result["cores"] = meter.stop(extra_cpu=result["gen_cpu_s"])
    result["cores"]["generator"] = result["gen_cpu_cores"]
    return result


def _waiters_env(args) -> dict[str, str]:
    """The waiters stand for distinct clients but all come from 127.0.0.1: lift the
    per-address wait cap (100 per process) so none is refused with 429."""
    return {"EVENTS_MAX_WAITERS_PER_ADDRESS": str(max(100, args.waiters))}


def run(args) -> dict:
    out: dict = {"machine": machine(), "args": vars(args), "command": command(args)}
    with (
        store(args.cluster, args.redis_cpus) as (url, redis_pids),
        gunicorn(
            args.game, url, args.server_cpus, cluster=args.cluster, env=_waiters_env(args)
        ) as svc,
        gunicorn("floor", url, args.server_cpus, cluster=args.cluster) as floor,
    ):
        groups_floor = {"floor": floor.pids, "redis": redis_pids}
        groups_game = {"service": svc.pids, "redis": redis_pids}
        base = ["--seconds", str(args.floor_seconds), "--base", floor.base]
        out["floor"] = phase(groups_floor, ["floor", "--conns", str(args.games), *base], args)
        out["floor20"] = phase(groups_floor, ["floor", "--conns", "20", *base], args)
        common = [
            "--base",
            svc.base,
            "--games",
            str(args.games),
            "--players",
            str(args.players),
        ]
        out["max"] = phase(
            groups_game,
            ["games", *common, "--mode", "closed", "--seconds", str(args.max_seconds)],
            args,
        )
        rate = max(1.0, round(out["max"]["sustained_moves_per_s"] / 2, 1))
        openargs = [*common, "--mode", "open", "--rate", str(rate)]
        openargs += ["--seconds", str(args.open_seconds)]
        out["half"] = phase(groups_game, ["games", *openargs, "--seed", "5000"], args)
        if args.waiters:
            out["half_waiters"] = phase(
                groups_game,
                ["games", *openargs, "--seed", "9000", "--waiters", str(args.waiters)],
                args,
            )
    out["ratio"] = round(out["max"]["sustained_moves_per_s"] / out["floor"]["rps"], 3)
    # CPU per operation: less sensitive than rates to other work sharing the cores
    fl, mx = out["floor"], out["max"]
    out["floor_cpu_ms"] = round(1000 * (fl["cores"]["floor"] + fl["cores"]["redis"]) / fl["rps"], 2)
    move_cores = mx["cores"]["service"] + mx["cores"]["redis"]
    out["move_cpu_ms"] = round(1000 * move_cores / mx["moves_per_s"], 2)
    return out


def command(args) -> str:
    flags = ["--game", args.game, "--games", str(args.games), "--players", str(args.players)]
    if args.waiters:
        flags += ["--waiters", str(args.waiters)]
    if args.cluster:
        flags.append("--cluster")
    flags += ["--gen-cpus", args.gen_cpus or "''"]
    return "python -m bench.load " + " ".join(flags)


def _lat(d: dict) -> str:
    return f"p50 {d['p50_ms']} ms, p95 {d['p95_ms']} ms, p99 {d['p99_ms']} ms, max {d['max_ms']} ms"


def _cores(d: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items())


def markdown(out: dict) -> list[str]:
    fl, fl20, mx, half = out["floor"], out["floor20"], out["max"], out["half"]
    where = "a 3-node Redis Cluster" if out["args"]["cluster"] else "one Redis"
    lines = [
        f"`{out['command']}` ({out['args']['game']}, {out['args']['players']} players, "
        f"{where}, generator pinned to CPU {out['args']['gen_cpus'] or 'any'})",
        "",
        "| step | figure | cores used |",
        "|---|---|---|",
        f"| floor, {fl['conns']} conns, closed loop | **{fl['rps']} req/s**; {_lat(fl['latency'])}"
        f"; {fl['errors']} errors | {_cores(fl['cores'])} |",
        f"| floor, 20 conns | {fl20['rps']} req/s; {_lat(fl20['latency'])} "
        f"| {_cores(fl20['cores'])} |",
        f"| max: {mx['games']} games to the end, closed loop "
        f"| **{mx['sustained_moves_per_s']} moves/s** "
        f"sustained ({mx['moves']} moves in {mx['seconds']} s, {mx['finished_games']} games "
        f"finished, {mx['errors']} errors); = {2 * mx['sustained_moves_per_s']:.0f} HTTP req/s; "
        f"POST {_lat(mx['post_latency'])} | {_cores(mx['cores'])} |",
        f"| ratio moves/s : floor req/s | **{out['ratio']:.0%}** (HTTP requests: "
        f"{2 * out['ratio']:.0%}) | |",
        f"| CPU per operation (workers + Redis) | floor request {out['floor_cpu_ms']} ms; move "
        f"{out['move_cpu_ms']} ms (= {out['move_cpu_ms'] / out['floor_cpu_ms']:.1f} floor requests)"
        " | |",
        f"| half load, open loop at {half['rate']} moves/s "
        f"| POST /moves **{_lat(half['post_latency'])}**;"
        f" whole move (legal-moves + POST, from its scheduled start) {_lat(half['move_latency'])}; "
        f"{half['moves']} moves, {half['errors']} errors | {_cores(half['cores'])} |",
    ]
    if "half_waiters" in out:
        hw = out["half_waiters"]
        lines.append(
            f"| same + {hw['waiters']} long-poll waiters "
            f"| POST /moves **{_lat(hw['post_latency'])}**; "
            f"whole move {_lat(hw['move_latency'])}; {hw['moves']} moves, {hw['errors']} errors; "
            f"waiters answered {hw['waiter_answers']}, {hw['waiter_errors']} errors "
            f"| {_cores(hw['cores'])} |"
        )
    return lines


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--waiters", type=int, default=0)
    ap.add_argument("--cluster", action="store_true")
    ap.add_argument("--floor-seconds", type=float, default=10)
    ap.add_argument("--max-seconds", type=float, default=180, help="bound of the max step")
    ap.add_argument("--open-seconds", type=float, default=20)
    ap.add_argument("--gen-cpus", default="1", help="taskset CPUs of the generator ('' = any)")
    ap.add_argument("--server-cpus", default=None, help="taskset CPUs of gunicorn (default any)")
    ap.add_argument("--redis-cpus", default=None, help="taskset CPUs of redis-server")
    ap.add_argument("--json", action="store_true", help="also print the raw figures as JSON")
    args = ap.parse_args(argv)
    out = run(args)
    print("\n".join(markdown(out)))
    if args.json:
        print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
