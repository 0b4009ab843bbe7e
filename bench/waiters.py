"""Move latency with and without 1,000 clients waiting on the events long-poll.

Run: ``python -m bench.waiters [--waiters 1000] [--rate 40] [--compare-gthread]``.

The service runs as ``make run`` serves it (gunicorn.conf.py: gevent, 2 workers). Moves
are offered on a fixed schedule (open loop) at ``--rate`` moves/s over ``--games`` games,
first alone, then while ``--waiters`` clients long-poll ``/events?wait=...`` on other
started games where nobody moves (each waits its full wait, drawn from 10-30 s, then
asks again: about 50 re-polls/s for 1,000 waiters). With
``--compare-gthread`` the same runs under ``GUNICORN_WORKER_CLASS=gthread`` (gunicorn's
default of one thread per worker; requests time out after 10 s).
"""

from __future__ import annotations

import argparse
import sys

from bench.common import CpuMeter, gunicorn, redis_server, run_loadgen


def run(args) -> dict:
    out = {}
    classes = ["gevent", "gthread"] if args.compare_gthread else ["gevent"]
    with redis_server(args.redis_cpus) as server:
        for worker_class in classes:
            # the waiters stand for 1,000 clients, but all come from 127.0.0.1: lift the
            # per-address cap (100 waits per process) so none is refused with 429
            env = {"GUNICORN_WORKER_CLASS": worker_class, "EVENTS_MAX_WAITERS_PER_ADDRESS": "1000"}
            with gunicorn(args.game, server.url, args.server_cpus, env=env) as svc:
                seconds = args.seconds if worker_class == "gevent" else min(args.seconds, 10)
                base = ["games", "--base", svc.base, "--games", str(args.games)]
                base += ["--players", str(args.players), "--mode", "open", "--rate", str(args.rate)]
                base += ["--seconds", str(seconds), "--timeout", "10"]
                for waiters in (0, args.waiters):
                    meter = CpuMeter({"service": svc.pids, "redis": [server.proc.pid]})
                    flags = [*base, "--seed", str(7000 + waiters)]
                    if waiters:
                        flags += ["--waiters", str(waiters), "--wait", "30"]
                    result = run_loadgen(flags, args.gen_cpus, timeout=seconds + 200)
                    result["cores"] = meter.stop(extra_cpu=result["gen_cpu_s"])
                    result["cores"]["generator"] = result["gen_cpu_cores"]
                    out[f"{worker_class}/{waiters}"] = result
    return out


def markdown(args, out: dict) -> list[str]:
    flags = f"--waiters {args.waiters} --rate {args.rate}"
    if args.compare_gthread:
        flags += " --compare-gthread"
    lines = [
        f"`python -m bench.waiters {flags}` ({args.game}, {args.games} games, open loop)",
        "",
        "| worker class | waiters | POST /moves latency | whole move | moves done / errors "
        "| waiter answers / errors | cores used |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, r in out.items():
        worker_class, waiters = key.split("/")
        p, m = r["post_latency"], r["move_latency"]
        lines.append(
            f"| {worker_class} | {waiters} | p50 {p['p50_ms']} / p95 {p['p95_ms']} / "
            f"**p99 {p['p99_ms']}** ms | p50 {m['p50_ms']} / p99 {m['p99_ms']} ms | "
            f"{r['moves']} / {r['errors']} | {r.get('waiter_answers', '-')} / "
            f"{r.get('waiter_errors', '-')} | "
            + ", ".join(f"{k} {v}" for k, v in r["cores"].items())
            + " |"
        )
    return lines


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    ap.add_argument("--waiters", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=40)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--compare-gthread", action="store_true")
    ap.add_argument("--gen-cpus", default="1")
    ap.add_argument("--server-cpus", default=None)
    ap.add_argument("--redis-cpus", default=None)
    args = ap.parse_args(argv)
    out = run(args)
    print("\n".join(markdown(args, out)))
    return out


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
