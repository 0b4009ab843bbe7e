"""Move latency with and without 1,000 clients waiting on the events long-poll.

Run: ``python -m bench.waiters [--waiters 1000] [--rate 40] [--wait 30] [--compare-gthread]``,
or ``python -m bench.waiters --inproc``: the CPU of one poll and one long-poll, in process.

The service runs as ``make run`` serves it (gunicorn.conf.py: gevent, 2 workers). Moves
are offered on a fixed schedule (open loop) at ``--rate`` moves/s over ``--games`` games,
first alone, then while ``--waiters`` clients long-poll ``/events?wait=...`` on other
started games where nobody moves (each waits its full wait, drawn from 10-30 s, then
asks again: about 50 re-polls/s for 1,000 waiters; ``--wait 3``: about 500/s). Besides
latency it reports the CPU seconds the service and Redis used in each run (less
sensitive to busy neighbours than latency) and the most Redis connections seen. With
``--compare-gthread`` the same runs under ``GUNICORN_WORKER_CLASS=gthread`` (gunicorn's
default of one thread per worker; requests time out after 10 s).
"""

from __future__ import annotations

import argparse
import sys
import threading

from bench.common import CpuMeter, cpu_seconds, gunicorn, redis_server, run_loadgen


class ClientWatch:
    """The most connected and blocked Redis clients seen (INFO clients, every 0.5 s)."""

    def __init__(self, server) -> None:
        self.client = server.client()
        self.most = {"connected_clients": 0, "blocked_clients": 0}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.wait(0.5):
            info = self.client.info("clients")
            for key in self.most:
                self.most[key] = max(self.most[key], int(info.get(key, 0)))

    def stop(self) -> dict[str, int]:
        self.done.set()
        self.thread.join()
        return self.most


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
                    cpu0 = cpu_seconds(svc.pids), cpu_seconds([server.proc.pid])
                    watch = ClientWatch(server)
                    flags = [*base, "--seed", str(7000 + waiters)]
                    if waiters:
                        flags += ["--waiters", str(waiters), "--wait", str(args.wait)]
                    result = run_loadgen(flags, args.gen_cpus, timeout=seconds + 200)
                    result["cores"] = meter.stop(extra_cpu=result["gen_cpu_s"])
                    result["cpu_s"] = {
                        "service": round(cpu_seconds(svc.pids) - cpu0[0], 2),
                        "redis": round(cpu_seconds([server.proc.pid]) - cpu0[1], 2),
                    }
                    result["redis_clients"] = watch.stop()
                    result["cores"]["generator"] = result["gen_cpu_cores"]
                    out[f"{worker_class}/{waiters}"] = result
    return out


def inproc(requests: int = 1000) -> dict:
    """CPU of one events request in this process (Flask test client, no HTTP server):
    a poll (``wait=0``) and a long-poll that waits 1 ms, with the XREADs each made."""
    import logging
    import os
    import time

    logging.disable(logging.INFO)
    out = {}
    with redis_server(appendonly=False) as server:
        os.environ["REDIS_URL"] = server.url
        from services.manhattan.app import create_app

        app = create_app()
        client, rc = app.test_client(), server.client()
        created = client.post("/games", json={"players": 2}).get_json()
        gid, host = created["id"], created["host_token"]
        for i in range(2):
            client.post(f"/games/{gid}/players", json={"name": f"p{i}"})
        client.post(f"/games/{gid}/start", headers={"Authorization": f"Bearer {host}"})
        version = client.get(f"/games/{gid}").get_json()["version"]
        for name, query in (("poll", ""), ("long-poll 1 ms", "&wait=0.001")):
            url = f"/games/{gid}/events?after={version}{query}"
            for _ in range(50):
                client.get(url)
            calls = int(rc.info("commandstats").get("cmdstat_xread", {}).get("calls", 0))
            start = time.process_time()
            for _ in range(requests):
                client.get(url)
            cpu_ms = (time.process_time() - start) / requests * 1000
            xreads = int(rc.info("commandstats")["cmdstat_xread"]["calls"]) - calls
            out[name] = {"cpu_ms": round(cpu_ms, 3), "xreads": round(xreads / requests, 2)}
    print(out)
    return out


def markdown(args, out: dict) -> list[str]:
    flags = f"--waiters {args.waiters} --rate {args.rate} --wait {args.wait}"
    if args.compare_gthread:
        flags += " --compare-gthread"
    lines = [
        f"`python -m bench.waiters {flags}` ({args.game}, {args.games} games, open loop)",
        "",
        "| worker class | waiters | POST /moves latency | whole move | moves done / errors "
        "| waiter answers / errors | CPU s: service, Redis | most Redis clients (blocked) "
        "| cores used |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for key, r in out.items():
        worker_class, waiters = key.split("/")
        p, m = r["post_latency"], r["move_latency"]
        lines.append(
            f"| {worker_class} | {waiters} | p50 {p['p50_ms']} / p95 {p['p95_ms']} / "
            f"**p99 {p['p99_ms']}** ms | p50 {m['p50_ms']} / p99 {m['p99_ms']} ms | "
            f"{r['moves']} / {r['errors']} | {r.get('waiter_answers', '-')} / "
            f"{r.get('waiter_errors', '-')} | {r['cpu_s']['service']}, {r['cpu_s']['redis']} | "
            f"{r['redis_clients']['connected_clients']} "
            f"({r['redis_clients']['blocked_clients']}) | "
            + ", ".join(f"{k} {v}" for k, v in r["cores"].items())
            + " |"
        )
    return lines


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    ap.add_argument("--waiters", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=40)
    ap.add_argument("--wait", type=float, default=30, help="longest long-poll wait, s")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--compare-gthread", action="store_true")
    ap.add_argument("--gen-cpus", default="1")
    ap.add_argument("--server-cpus", default=None)
    ap.add_argument("--redis-cpus", default=None)
    ap.add_argument("--inproc", action="store_true", help="only the CPU of one request")
    args = ap.parse_args(argv)
    if args.inproc:
        return inproc()
    out = run(args)
    print("\n".join(markdown(args, out)))
    return out


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
