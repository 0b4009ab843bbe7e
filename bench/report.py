"""``make bench``: the standard benchmark set, written to ``bench/reports/latest.md``.

Run: ``python -m bench.report [--cluster] [--games 200] [--quick]``.

Steps (about 8 minutes on the 2-core machine; ``--quick`` about 3):
1. the pure engines (``bench.manhattan_engine``, ``bench.windcity_engine``);
2. Manhattan load next to the floor (``bench.load``): floor, maximum moves/s, latency at
   half of it, and the same half load with 1,000 long-poll waiters;
3. the waiters under ``gthread`` for comparison (``bench.waiters --compare-gthread``);
4. Redis round trips and commands per request (``bench.roundtrips``), both games;
5. Redis memory per game (``bench.memory``), both games;
6. with ``--cluster``: the load again on a three-node Redis Cluster.
Every step prints its command and figures; the report collects them with the machine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from datetime import UTC, datetime

from bench import load, memory, roundtrips, waiters
from bench.common import PYTHON, ROOT, machine

REPORT = ROOT / "bench" / "reports" / "latest.md"


def engine_bench(module: str, games: int) -> list[str]:
    if not (ROOT / "bench" / f"{module}.py").exists():
        return [f"`python -m bench.{module}`: not present"]
    out = subprocess.run(
        [PYTHON, "-m", f"bench.{module}", "--games", str(games)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    text = (out.stdout or out.stderr).strip()
    return ["```", text, "```"]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--waiters", type=int, default=1000)
    ap.add_argument("--cluster", action="store_true", help="also run the load on a Redis Cluster")
    ap.add_argument("--quick", action="store_true", help="fewer games and shorter steps")
    args = ap.parse_args(argv)
    started = time.monotonic()
    games = 60 if args.quick else args.games
    seconds = ["--floor-seconds", "5" if args.quick else "10"]
    seconds += ["--open-seconds", "8" if args.quick else "20"]
    seconds += ["--max-seconds", "60" if args.quick else "180"]
    lines: list[str] = []

    def section(title: str, body: list[str]) -> None:
        block = [f"## {title}", "", *body, ""]
        print("\n".join(block), flush=True)
        lines.extend(block)

    info = machine()
    section(
        "Machine",
        [
            f"- {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; nproc {info['nproc']}; CPU {info['cpu']}",
            f"- Python {info['python']}; {info['redis']}; Linux {info['kernel']}",
            "- gunicorn as `make run` starts it (`gunicorn.conf.py`: gevent, 2 workers); "
            "load generator `bench/loadgen.py` (gevent, raw sockets) pinned to CPU 1",
            "- `other` in the cores columns is everything else running on the machine meanwhile "
            "(other people's tests share these two cores: read rates with it in mind)",
        ],
    )
    engine_games = "100" if args.quick else "300"
    section(
        "Engines (pure Python, one core)",
        [*engine_bench("manhattan_engine", int(engine_games)), ""]
        + engine_bench("windcity_engine", int(engine_games)),
    )
    common = ["--games", str(games), "--players", str(args.players), *seconds]
    out = load.main([*common, "--waiters", str(args.waiters)])
    section("Load: floor, maximum, half-load latency, 1,000 waiters", load.markdown(out))
    rate = out["half"]["rate"]
    wargs = [
        "--rate",
        str(rate),
        "--waiters",
        str(args.waiters),
        "--wait",
        "30",
        "--compare-gthread",
    ]
    wargs += ["--games", str(games), "--players", str(args.players), "--seconds", "10"]
    wout = waiters.main(wargs)
    wns = argparse.Namespace(
        game="manhattan",
        compare_gthread=True,
        waiters=args.waiters,
        rate=rate,
        games=games,
        wait=30,
    )
    section("Waiting clients: gevent vs gthread", waiters.markdown(wns, wout))
    rt = []
    for game in ("manhattan", "windcity"):
        rt += roundtrips.markdown(game, roundtrips.run(game, 100 if args.quick else 200, 4)) + [""]
    section("Redis round trips and commands per request", rt)
    mem = []
    for game in ("manhattan", "windcity"):
        # with Redis's stream-node-max-bytes as deployed (docs/operations.md)
        result = memory.run(game, 20 if args.quick else 50, 4, node_bytes=1024)
        mem += memory.markdown(game, 4, result, node_bytes=1024) + [""]
    section("Redis memory per game (4 players)", mem)
    if args.cluster:
        cout = load.main([*common, "--cluster"])
        section("Scale-out: the same load on a three-node Redis Cluster", load.markdown(cout))
    elapsed = time.monotonic() - started
    section("Run", [f"`python -m bench.report {' '.join(argv or sys.argv[1:])}`: {elapsed:.0f} s"])
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("# Benchmark report\n\n" + "\n".join(lines), encoding="utf-8")
    print(f"written to {REPORT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
