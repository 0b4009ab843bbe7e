"""Web Push under load: pushes received per second, the worker's CPU per push, and the
latency from a move's acknowledged write to the push service receiving its push.

Run: ``python -m bench.push [--rate 200] [--seconds 20] [--games 100] [--workers 1]
[--drain 10] [--setting KEY=VALUE]``.

A private redis-server, Manhattan under gunicorn (``gunicorn.conf.py``, as ``make run``)
with a VAPID key, the stand-in push service of the tests (``bench/pushservice.py``: it
checks each push's VAPID JWT and decrypts it, RFC 8030/8291/8292) on 127.0.0.1 in this
process, and ``--workers`` real ``python -m shared.worker`` processes. Two steps, each on
fresh games: ``--games`` Manhattan games of 4 players, each player made with its key and
subscribed (one device each), moves started at ``--rate`` moves/s (open loop, by
``bench/push_load.py``, a gevent process) for ``--seconds``:

1. the baseline: the same load with push off in the worker (no VAPID key: the worker
   still reads every notification and looks its players up, and sends nothing);
2. push on: every move pushes a ``your_turn`` to each seat to act (a ``game_over`` to
   every seat at the end), which the worker encrypts, signs and POSTs.

Measured per step, from when the games are set up until every expected push arrived (at
most ``--drain`` s after the last move): moves/s reached, pushes received/s, the worker
processes' CPU (``/proc``, with their children) per move and per push; with push on,
the latency of each push from its move's acknowledgement (the generator's clock when the
POST's answer arrived) to the push service reading the request (before its checks and
decryption; decryption is timed apart), p50/p99/max, and from the write's own timestamp
(the notification's, taken in the API before the write). A push not received by the
end of the drain is counted as missing. ``PUSH_RATE_LIMIT`` is raised (a player here gets
a push every few seconds, more than a person would). Never fails on timing: it reports.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime
from statistics import median
from tempfile import TemporaryDirectory
from typing import Any

from bench.common import (
    PYTHON,
    ROOT,
    CpuMeter,
    Redis,
    Service,
    children,
    cpu_seconds,
    gunicorn,
    redis_server,
)
from bench.common import start_workers as start_worker_procs
from bench.loadgen_client import pct
from bench.pushservice import PushService
from shared.push.keys import generate

PRIVATE, PUBLIC = generate()
SERVICE_ENV = {"PUSH_VAPID_PRIVATE_KEY": PRIVATE, "WEBHOOK_ALLOW_PRIVATE": "1"}
WORKER_ENV = {"WEBHOOK_ALLOW_PRIVATE": "1", "PUSH_RATE_LIMIT": "1000000"}


def _tree(pids: list[int]) -> list[int]:
    out, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children(pid))
    return out


def _stamp(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _latencies(pushes: list[dict[str, Any]], moves: dict[str, list]) -> dict[str, list[float]]:
    """Each push caused by a measured move: seconds from the move's acknowledgement,
    and from the write's timestamp, to the push service reading it."""
    out: dict[str, list[float]] = {"ack": [], "write": []}
    for push in pushes:
        payload = push["payload"]
        acks = moves.get(payload["game_id"])
        if not acks:
            continue
        stamp = _stamp(payload["timestamp"])
        at = bisect.bisect_left([sent for sent, _, _ in acks], stamp + 0.001) - 1
        if at < 0 or not acks[at][0] - 0.001 <= stamp <= acks[at][1]:
            continue  # not a measured move's (the game's start)
        out["ack"].append(push["wall"] - acks[at][1])
        out["write"].append(push["wall"] - stamp)
    return out


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(pct(values, 50) * 1000, 1),
        "p99_ms": round(pct(values, 99) * 1000, 1),
        "max_ms": round(max(values, default=float("nan")) * 1000, 1),
    }


def step(push: bool, api: Service, server: Redis, service: PushService, args, n: int) -> dict:
    """One step (see the module's docstring): its figures."""
    players = 4
    subs = [service.subscribe(f"s{n}d{k}") for k in range(args.games * players)]
    env = {**WORKER_ENV, **dict(item.split("=", 1) for item in args.setting)}
    env.update({"PUSH_VAPID_PRIVATE_KEY": PRIVATE} if push else {})
    with TemporaryDirectory() as tmp:
        procs = start_worker_procs(server.url, tmp, args.workers, env)
        try:
            with open(f"{tmp}/subs.json", "w") as f:
                json.dump(subs, f)
            gen = subprocess.Popen(
                [PYTHON, "-m", "bench.push_load", "--base", api.base, "--out", f"{tmp}/out.json"]
                + ["--subscriptions", f"{tmp}/subs.json", "--players", str(players)]
                + ["--rate", str(args.rate), "--seconds", str(args.seconds)]
                + ["--seed", str(1 + n * 100_000)],
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                stdout=subprocess.PIPE,
                text=True,
            )
            assert gen.stdout is not None
            gen.stdout.readline()  # the games are set up: the window starts
            t0, count0 = time.monotonic(), len(service.received)
            pids = _tree([p.pid for p in procs])
            cpu0 = cpu_seconds(pids)
            own0 = time.process_time()
            meter = CpuMeter({"api": api.pids, "redis": [server.proc.pid], "worker": pids})
            gen.communicate(timeout=args.seconds + 60)
            with open(f"{tmp}/out.json") as f:
                load = json.load(f)
            expected = sum(c for acks in load["acks"].values() for _, _, c in acks)
            until = time.monotonic() + args.drain
            while push and len(service.received) - count0 < expected and time.monotonic() < until:
                time.sleep(0.1)
            window = time.monotonic() - t0
            cpu = cpu_seconds(_tree([p.pid for p in procs])) - cpu0
            cores = meter.stop(load["gen_cpu_cores"] * load["seconds"] + time.process_time() - own0)
        finally:
            for proc in procs:
                proc.send_signal(signal.SIGTERM)
            for proc in procs:
                proc.communicate(timeout=60)
    got = service.received[count0:]
    lat = _latencies(got, load["acks"])
    moves = load["moves"]
    del load["acks"]
    return {
        "push": "on" if push else "off",
        **load,
        "window_s": round(window, 1),
        "pushes_received": len(got),
        "pushes_expected": expected if push else 0,
        "missing": max(0, expected - len(lat["ack"])) if push else 0,
        "pushes_per_s": round(len(got) / window, 1),
        "refused": len(service.refused),
        "worker_cpu_s": round(cpu, 2),
        "worker_cpu_cores": round(cpu / window, 2),
        "worker_cpu_ms_per_move": round(1000 * cpu / moves, 3) if moves else None,
        "cores": cores,
        "worker_cpu_ms_per_push": round(1000 * cpu / len(got), 3) if got else None,
        "latency_from_ack": _summary(lat["ack"]),
        "latency_from_write": _summary(lat["write"]),
        "decrypt_ms_p50": round(1000 * median([p["decrypt_s"] for p in got]), 2) if got else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--rate", type=float, default=200, help="moves/s offered")
    ap.add_argument("--seconds", type=float, default=20, help="moves started, per step")
    ap.add_argument("--games", type=int, default=100, help="4-player games per step")
    ap.add_argument("--workers", type=int, default=1, help="worker processes")
    ap.add_argument("--setting", action="append", default=[], help="a worker setting, KEY=VALUE")
    ap.add_argument("--drain", type=float, default=10, help="s to wait for late pushes")
    args = ap.parse_args()
    load_before = os.getloadavg()
    service = PushService(PUBLIC)
    service.start()
    results = []
    try:
        with (
            redis_server(appendonly=False) as server,
            gunicorn("manhattan", server.url, env=SERVICE_ENV) as api,
        ):
            for n, push in enumerate((False, True)):
                results.append(step(push, api, server, service, args, n))
                print(json.dumps(results[-1]), flush=True)
    finally:
        service.stop()
    report(results, load_before, args)


def report(results: list[dict], load_before: tuple[float, ...], args) -> None:
    off, on = results
    extra = on["worker_cpu_ms_per_move"] - off["worker_cpu_ms_per_move"]
    per_push = extra * on["moves"] / on["pushes_received"] if on["pushes_received"] else 0.0
    print(
        f"load average before: {' '.join(f'{x:.1f}' for x in load_before)}, "
        f"after: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)"
    )
    print(
        "| push | moves/s offered / reached | POST p99 | pushes/s | cores: API / Redis / "
        "worker / other | worker CPU per move | per push | push p50 / p99 / max from ack "
        "| missing |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        lat, c = r["latency_from_ack"], r["cores"]
        latency = f"{lat['p50_ms']} / {lat['p99_ms']} / {lat['max_ms']} ms"
        print(
            f"| {r['push']} | {args.rate:g} / {r['moves_per_s']} | "
            f"{r['post_latency']['p99_ms']} ms | {r['pushes_per_s']} | "
            f"{c['api']} / {c['redis']} / {c['worker']} / {c['other']} | "
            f"{r['worker_cpu_ms_per_move']} ms | {r['worker_cpu_ms_per_push'] or '-'} ms | "
            f"{latency if r['push'] == 'on' else '-'} | {r['missing']} |"
        )
    print(
        f"worker CPU a push adds (per move, on minus off, over pushes): {per_push:.3f} ms; "
        f"pushes/s one worker process carries at this CPU (one core): "
        f"{1000 / on['worker_cpu_ms_per_push']:.0f}; decrypting in the stand-in service: "
        f"{on['decrypt_ms_p50']} ms p50 (after the latency's mark)"
        if on["worker_cpu_ms_per_push"]
        else "no push received"
    )
    print("command: python -m bench.push " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
