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
3. POSTs alone: as many fresh games, closed loop, each turn a POST alone (the generator
   keeps its own copy of each game to know the legal moves; ``bench/loadgen.py``);
4. the floor again (the ratios use the mean of both floor measurements);
5. latency at half the maximum of step 2: fresh games, moves started on a fixed schedule
   (open loop), latency from the scheduled start;
6. with ``--waiters N``: step 5 again with N clients long-polling events meanwhile.

Each step reports the cores used by the services, Redis, the generator and anything
else on the machine (the other work is not ours, but it shares the two cores).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
from collections.abc import Iterator

from bench.common import (
    CpuMeter,
    gunicorn,
    machine,
    redis_cluster,
    redis_server,
    run_loadgen,
)


@contextlib.contextmanager
def cluster_with_pids() -> Iterator[tuple[str, list[int]]]:
    """A private three-node cluster (bench.common.redis_cluster): (url, node pids)."""
    with redis_cluster() as (url, ports, workdir):
        pids = []
        for port in ports:
            with open(f"{workdir}/{port}/redis.pid") as fh:
                pids.append(int(fh.read().strip()))
        yield url, pids


@contextlib.contextmanager
def store(cluster: bool, cpus: str | None) -> Iterator[tuple[str, list[int]]]:
    if cluster:
        with cluster_with_pids() as found:
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
        floor_args = ["floor", "--conns", str(args.games), *base]
        closed = [*common, "--mode", "closed", "--seconds", str(args.max_seconds)]
        rounds: list[dict] = []
        for n in range(args.rounds):
            step = {"floor": out["floor"] if n == 0 else rounds[-1]["floor_end"]}
            seed = 1 + 10_000 * n
            step["max"] = phase(groups_game, ["games", *closed, "--seed", str(seed)], args)
            posts = ["--seed", str(seed + 3000), "--posts-only", "--game", args.game]
            step["posts"] = phase(groups_game, ["games", *closed, *posts], args)
            step["floor_end"] = phase(groups_floor, floor_args, args)
            step.update(figures(step))
            rounds.append(step)
        out["rounds"] = rounds
        for name in ("max", "posts", "floor_end"):
            out[name] = rounds[0][name]
        out.update(median_figures(rounds))
        rate = max(1.0, round(out["max_moves_per_s"] / 2, 1))
        openargs = [*common, "--mode", "open", "--rate", str(rate)]
        openargs += ["--seconds", str(args.open_seconds)]
        out["half"] = phase(groups_game, ["games", *openargs, "--seed", "5000"], args)
        if args.waiters:
            out["half_waiters"] = phase(
                groups_game,
                ["games", *openargs, "--seed", "9000", "--waiters", str(args.waiters)],
                args,
            )
    return out


def median_figures(rounds: list[dict]) -> dict:
    """Each figure's median over the rounds (the figures of one round when only one)."""
    keys = [k for k, v in rounds[0].items() if not isinstance(v, dict)]
    found = {k: round(statistics.median(r[k] for r in rounds), 3) for k in keys}
    found["max_moves_per_s"] = statistics.median(r["max"]["sustained_moves_per_s"] for r in rounds)
    return found


def _cpu_ms(step: dict, group: str, per_s: float) -> float:
    """Worker + Redis CPU milliseconds per operation of a step."""
    return 1000 * (step["cores"][group] + step["cores"]["redis"]) / per_s


def figures(out: dict) -> dict:
    """The ratios to the floor, by rate and by CPU.

    The floor is measured before and after the game steps; its rate is the mean of the
    two, its CPU per request the mean of the two. Rates follow the neighbours' load; CPU
    per operation (service and Redis CPU over the step's operations) follows it less.
    """
    fl, fe, mx, po = out["floor"], out["floor_end"], out["max"], out["posts"]
    floor_rps = (fl["rps"] + fe["rps"]) / 2
    floor_ms = (_cpu_ms(fl, "floor", fl["rps"]) + _cpu_ms(fe, "floor", fe["rps"])) / 2
    move_ms = _cpu_ms(mx, "service", mx["moves_per_s"])
    post_ms = _cpu_ms(po, "service", po["moves_per_s"])
    return {
        "floor_rps": round(floor_rps, 1),
        "ratio": round(mx["sustained_moves_per_s"] / floor_rps, 3),
        "post_ratio": round(po["sustained_moves_per_s"] / floor_rps, 3),
        "floor_cpu_ms": round(floor_ms, 3),
        "move_cpu_ms": round(move_ms, 3),
        "post_cpu_ms": round(post_ms, 3),
        "move_cpu_floors": round(move_ms / floor_ms, 2),
        "post_cpu_floors": round(post_ms / floor_ms, 2),
    }


def command(args) -> str:
    flags = ["--game", args.game, "--games", str(args.games), "--players", str(args.players)]
    if args.rounds > 1:
        flags += ["--rounds", str(args.rounds)]
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


def _round_lines(out: dict) -> list[str]:
    """With ``--rounds N`` > 1: each round's figures; the bold lines are then medians."""
    if len(out["rounds"]) < 2:
        return []
    lines = []
    for n, r in enumerate(out["rounds"], 1):
        lines.append(
            f"| round {n}: floor {r['floor']['rps']} / {r['floor_end']['rps']} req/s, "
            f"{r['max']['sustained_moves_per_s']} moves/s, "
            f"{r['posts']['sustained_moves_per_s']} POST/s "
            f"| whole move {r['ratio']:.0%}, POST {r['post_ratio']:.0%}; CPU: floor "
            f"{r['floor_cpu_ms']} ms, move {r['move_cpu_floors']} floors, POST "
            f"{r['post_cpu_floors']} floors | other {r['max']['cores']['other']} core |"
        )
    lines.append(f"| the bold lines below: medians of the {len(out['rounds'])} rounds | | |")
    return lines


def markdown(out: dict) -> list[str]:
    fl, fl20, mx, half = out["floor"], out["floor20"], out["max"], out["half"]
    po, fe = out["posts"], out["floor_end"]
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
        f"| POSTs alone: {po['games']} fresh games, closed loop (moves from the generator's "
        f"own copy of each game, no reads) | **{po['sustained_moves_per_s']} POST/s** sustained "
        f"({po['moves']} in {po['seconds']} s, {po['errors']} errors); "
        f"POST {_lat(po['post_latency'])} | {_cores(po['cores'])} |",
        f"| floor again, {fe['conns']} conns | {fe['rps']} req/s; {_lat(fe['latency'])} "
        f"| {_cores(fe['cores'])} |",
        *_round_lines(out),
        f"| **rate: whole move : floor req/s** (floor: mean before and after, "
        f"{out['floor_rps']} req/s) "
        f"| **{out['ratio']:.0%}** (target ≥ 45%; per HTTP request {2 * out['ratio']:.0%}) | |",
        f"| **rate: POST alone : floor req/s** | **{out['post_ratio']:.0%}** (target ≥ 80%) | |",
        f"| **CPU per operation** (workers + Redis; floor = mean of both) "
        f"| floor request {out['floor_cpu_ms']} ms; whole move {out['move_cpu_ms']} ms = "
        f"**{out['move_cpu_floors']} floor requests** (target ≤ 2); POST alone "
        f"{out['post_cpu_ms']} ms = **{out['post_cpu_floors']} floor requests** "
        f"(≤ 1.25 for 80%) | |",
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
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="repeat max, POSTs alone and floor N times; ratios are medians",
    )
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
