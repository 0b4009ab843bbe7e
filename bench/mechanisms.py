"""Which performance mechanisms earn their lines: each one on and off, alternately,
through real gunicorn, in one run.

Run: ``python -m bench.mechanisms [--game manhattan] [--rounds 2] [--only NAME,...]
[--checkout PATH] [--against OLD]`` (names: fastpath, pipe, copies, doccodec, argmemo,
send, fanout). ``--against OLD`` measures one thing instead: the whole checkout ("on")
against another one ("off"), e.g. the kit before issue 28, with the same steps and the
open loop at one fixed rate for both.
The patches name the modules as they were before issue 28 (``shared/hotpath.py``...):
run it on a checkout of a320a42, where all seven mechanisms exist
(``git worktree add /tmp/a320a42 a320a42``). Its figures and the decisions taken on
them: docs/performance.md.

The rule: a mechanism stays if it saves at least 5% of the CPU of a move, or clearly
improves the latency tail. ``--checkout`` (default: this repository) is copied once to
/tmp (its work tree as it is, without .git or caches): that copy is "on". A mechanism
turned off by a setting runs the same copy with the setting; one turned off by code
runs a second copy whose module gets the few lines of :data:`PATCHES` appended (each
redefines the mechanism's entry point). ``--rounds`` times, on then off (the next round
off then on: ABBA, against drift), each on a fresh private Redis and a fresh ``gunicorn
-c gunicorn.conf.py`` (gevent, 2 workers) served from its copy, the steps of
``bench.load`` (``bench/loadgen.py``, generator pinned to ``--gen-cpus``), the same seeds
for on and off (the same games):

1. setup alone: ``--games`` games created, joined and started, no move; its CPU is taken
   out of the next two steps, which set up as many games first;
2. max: those games played to the end (or for ``--max-seconds``), closed loop: CPU per
   move (GET with legal moves, then POST);
3. POSTs alone: as many fresh games, closed loop, each turn a POST alone: CPU per POST;
4. open loop at one rate for every run (half the first "on" max, or ``--rate``): POST and
   whole-move p99 (``--open-seconds 0``: skipped).

CPU: services (gunicorn master and workers) and Redis separately, seconds from /proc over
each step, per operation. ``other``: the rest of the machine's busy cores meanwhile (a
shared machine: neighbours move rates and latencies, CPU per operation much less).
The fan-out is about long-polls: its steps are the open loop alone with ``--waiters``
clients long-polling (EVENTS_FANOUT=1 on, 0 off). The document codec also reports Redis
memory per game (``python -m bench.memory`` run in each copy). Traffic: 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench import common
from bench.common import CpuMeter, cpu_seconds, gunicorn, machine, redis_server, run_loadgen

PATCHES = {
    "fastpath": (
        "shared/hotpath.py",
        "def HotPath(app, inner, games, move_args):  # noqa: N802\n"
        "    return inner  # not installed: every request is Flask's\n",
    ),
    "doccodec": (
        "shared/doccodec.py",
        "def pack(doc):  # plain JSON, the head first (the write script matches it)\n"
        "    stored = {k: doc[k] for k in _HEAD if k in doc}\n"
        "    stored.update(doc)\n"
        "    return jsoncodec.dumps_text(stored)\n",
    ),
    "argmemo": (
        "shared/argmemo.py",
        "LoadMemo.get = lambda self, raw: None  # never hits\n"
        "LoadMemo.put = lambda self, raw, value: None\n",
    ),
    "send": (
        "shared/gunicorn_write.py",
        "def install() -> None:  # gunicorn's own write: head and body in two sends\n    pass\n",
    ),
}


@dataclass(frozen=True)
class Mechanism:
    name: str
    what: str
    on_env: dict[str, str] = field(default_factory=dict)
    off_env: dict[str, str] = field(default_factory=dict)
    waiters: bool = False  # judged by the open loop with long-poll waiters


MECHANISMS = [
    Mechanism("fastpath", "the fast path (shared/hotpath.py); off: HotPath not installed"),
    Mechanism(
        "pipe",
        "the Redis pipe (shared/fastcall.py)",
        {"REDIS_PIPELINE": "1"},
        {"REDIS_PIPELINE": "0"},
    ),
    Mechanism(
        "copies",
        "writes from copies (shared/copies.py)",
        {"WRITE_FROM_COPY_SECONDS": "2"},
        {"WRITE_FROM_COPY_SECONDS": "0"},
    ),
    Mechanism("doccodec", "the document codec (shared/doccodec.py); off: plain JSON stored"),
    Mechanism("argmemo", "the memo of parsed move bodies (shared/argmemo.py); off: never hits"),
    Mechanism("send", "the single send (shared/gunicorn_write.py); off: not installed"),
    Mechanism(
        "fanout",
        "the fan-out (shared/fanout.py)",
        {"EVENTS_FANOUT": "1"},
        {"EVENTS_FANOUT": "0"},
        waiters=True,
    ),
]
SETTINGS = {"REDIS_PIPELINE", "WRITE_FROM_COPY_SECONDS", "EVENTS_FANOUT"}
IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "*.egg-info", "var", ".*_cache", "node_modules"
)


def snapshot(checkout: Path, scratch: Path, name: str, patch: tuple[str, str] | None) -> Path:
    """A copy of ``checkout`` under ``scratch``, with ``patch`` appended to its module."""
    dest = scratch / name
    shutil.copytree(checkout, dest, ignore=IGNORE, symlinks=True)
    if patch is not None:
        module, lines = patch
        with open(dest / module, "a") as fh:
            fh.write(f"\n\n# -- bench.mechanisms: {name} --\n{lines}")
    return dest


def step(groups: dict[str, list[int]], loadgen: list[str], args, bound: float) -> dict:
    """One loadgen run; its result plus the CPU seconds each group used meanwhile."""
    meter = CpuMeter(groups)
    before = {name: cpu_seconds(pids) for name, pids in groups.items()}
    try:
        result = run_loadgen(loadgen, args.gen_cpus, timeout=bound + 120)
    except (RuntimeError, subprocess.TimeoutExpired) as error:
        return {"error": str(error)[-300:]}
    result["cpu_s"] = {name: cpu_seconds(pids) - before[name] for name, pids in groups.items()}
    result["cores"] = meter.stop(extra_cpu=result["gen_cpu_s"])
    if result["errors"]:
        result["error"] = f"{result['errors']} errors: {result['first_errors'][:1]}"
    return result


def per_op(done: dict, setup: dict | None) -> dict[str, float] | None:
    """Services' and Redis's CPU µs per move of a step, its setup's CPU taken out."""
    if "error" in done or not done.get("moves") or (setup is not None and "error" in setup):
        return None
    cpu = {g: s - (setup["cpu_s"][g] if setup else 0.0) for g, s in done["cpu_s"].items()}
    return {g: round(1e6 * s / done["moves"], 1) for g, s in cpu.items()}


def run_variant(mech: Mechanism, on: bool, root: Path, n: int, args, state: dict) -> dict:
    """One server (fresh Redis, fresh gunicorn from ``root``) and the mechanism's steps."""
    env = {"EVENTS_MAX_WAITERS_PER_ADDRESS": str(max(100, args.waiters))}
    env.update(mech.on_env if on else mech.off_env)
    common.ROOT = root  # gunicorn() serves, and run_loadgen() runs, from there
    seed = 1 + 10_000 * n
    out: dict = {}
    with redis_server() as rs, gunicorn(args.game, rs.url, env=env) as svc:
        groups = {"service": svc.pids, "redis": [rs.proc.pid]}
        games = ["games", "--base", svc.base, "--games", str(args.games)]
        games += ["--players", str(args.players)]
        closed = [*games, "--mode", "closed"]
        if not mech.waiters or state.get("rate") is None:
            setup = step(groups, [*closed, "--seconds", "0", "--seed", str(seed + 7000)], args, 60)
            bounded = [*closed, "--seconds", str(args.max_seconds)]
            out["max"] = step(groups, [*bounded, "--seed", str(seed)], args, args.max_seconds)
            posts = ["--posts-only", "--game", args.game, "--seed", str(seed + 3000)]
            out["posts"] = step(groups, [*bounded, *posts], args, args.max_seconds)
            out["move_us"] = per_op(out["max"], setup)
            out["post_us"] = per_op(out["posts"], setup)
            if state.get("rate") is None and "error" not in out["max"]:
                state["rate"] = round(out["max"]["sustained_moves_per_s"] / 2)
        rate = str(state.get("rate") or 1000)
        opened = [*games, "--mode", "open", "--rate", rate, "--seconds", str(args.open_seconds)]
        if args.open_seconds <= 0 and not mech.waiters:
            out["open"] = {"error": "skipped (--open-seconds 0)"}
        elif mech.waiters:
            opened += ["--waiters", str(args.waiters), "--seed", str(seed + 9000)]
            out["open"] = step(groups, opened, args, args.open_seconds + 30)
        else:
            out["open"] = step(groups, [*opened, "--seed", str(seed + 5000)], args, 60)
        out["open_us"] = per_op(out["open"], None)  # with its setup (and waiters): coarse
    return out


def memory(root: Path, args) -> str:
    """Redis bytes per game (``bench.memory`` in the copy ``root``): mean / peak over a
    game's life and the document stored / as JSON, with Idempotency-Keys."""
    cmd = [common.PYTHON, "-m", "bench.memory", "--game", args.game, "--players", str(args.players)]
    cmd += ["--games", str(args.memory_games), "--stream-node-max-bytes", "1024"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    try:
        done = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return "bench.memory timed out"
    text = done.stdout
    life = re.search(r"over its life, with Idempotency-Keys.*\*\*([\d.]+) / ([\d.]+) KiB", text)
    doc = re.search(r"\| in progress \((\d+) moves\), with Idempotency-Keys \| \d+ \| (\d+) "
                    r"\((\d+) / (\d+)\)", text)  # fmt: skip
    if not (life and doc):
        return f"bench.memory unreadable (rc {done.returncode}): {(text + done.stderr)[-500:]}"
    return (
        f"{life[1]} KiB mean / {life[2]} KiB peak per game; in progress ({doc[1]} moves) the "
        f"document takes {doc[2]} B in Redis, {doc[3]} B stored ({doc[4]} B of JSON)"
    )


def fmt(figure: dict[str, float] | None) -> str:
    return "-" if figure is None else f"{figure['service']:.0f} + {figure['redis']:.0f}"


def p99(done: dict, key: str = "post_latency") -> float | None:
    return None if "error" in done else done[key]["p99_ms"]


def round_line(mech: Mechanism, on: bool, n: int, out: dict) -> str:
    label = "on" if on else "off"
    o = out["open"]
    if "error" in o:
        opened = f"open loop: {o['error']}"
    else:
        waiters = f" + {o['waiters']} waiters" if mech.waiters else ""
        opened = (
            f"open {o['rate']} moves/s{waiters}: POST p99 {p99(o)} ms (p50 "
            f"{o['post_latency']['p50_ms']}, max {o['post_latency']['max_ms']}), move p99 "
            f"{p99(o, 'move_latency')} ms, {o['moves']} moves, CPU/move with setup "
            f"{fmt(out['open_us'])} µs, other {o['cores']['other']}"
        )
    if mech.waiters:
        return f"| {mech.name} | {label} | {n + 1} | {opened} |"
    mx, po = out["max"], out["posts"]
    if "error" in mx or "error" in po:
        return f"| {mech.name} | {label} | {n + 1} | failed: {mx.get('error') or po.get('error')} |"
    return (
        f"| {mech.name} | {label} | {n + 1} | move {fmt(out['move_us'])} µs, POST "
        f"{fmt(out['post_us'])} µs (services + Redis); {mx['sustained_moves_per_s']} moves/s, "
        f"{po['sustained_moves_per_s']} POST/s; other {mx['cores']['other']}/"
        f"{po['cores']['other']} core; {opened} |"
    )


def median(values: list) -> float | None:
    found = [v for v in values if v is not None]
    return round(statistics.median(found), 2) if found else None


def compare(runs: dict[bool, list[dict]], key: str) -> str:
    """Medians of a per-operation figure, on / off, and what "on" saves."""
    med = {}
    for on in (True, False):
        figures = [r[key] for r in runs[on] if r.get(key)]
        med[on] = {g: median([f[g] for f in figures]) for g in ("service", "redis")}
        if None in med[on].values():
            return "-"
    total = {on: med[on]["service"] + med[on]["redis"] for on in med}
    return (
        f"{fmt(med[True])} / {fmt(med[False])}; off/on {total[False] / total[True]:.3f}, "
        f"**saves {1 - total[True] / total[False]:.1%}**"
    )


def summary(mech: Mechanism, runs: dict[bool, list[dict]]) -> str:
    """One line: medians over the rounds, on vs off."""
    lat = {on: [p99(r["open"]) for r in runs[on]] for on in (True, False)}
    tail = f"POST p99 on {lat[True]} / off {lat[False]} ms (median {median(lat[True])} / "
    tail += f"{median(lat[False])})"
    if median(lat[True] + lat[False]) is None:
        tail = "not measured"
    if mech.waiters:  # the open loop's CPU includes its setup and the waiters' polls
        return f"| {mech.name} | waiters step: {compare(runs, 'open_us')} | - | {tail} |"
    return f"| {mech.name} | {compare(runs, 'move_us')} | {compare(runs, 'post_us')} | {tail} |"


def command(args) -> str:
    flags = ["--game", args.game, "--rounds", str(args.rounds), "--checkout", str(args.checkout)]
    if args.only:
        flags += ["--only", args.only]
    if args.against:
        flags += ["--against", str(args.against)]
    flags += ["--games", str(args.games), "--players", str(args.players)]
    flags += ["--waiters", str(args.waiters), "--gen-cpus", args.gen_cpus or "''"]
    flags += ["--max-seconds", f"{args.max_seconds:g}", "--open-seconds", f"{args.open_seconds:g}"]
    if args.rate:
        flags += ["--rate", str(args.rate)]
    return "python -m bench.mechanisms " + " ".join(flags)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated mechanism names")
    ap.add_argument("--checkout", type=Path, default=common.ROOT, help="the code measured")
    ap.add_argument("--against", type=Path, default=None, help="another checkout, as 'off'")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--waiters", type=int, default=1000, help="long-poll clients (fanout)")
    ap.add_argument("--rate", type=float, default=None, help="open-loop moves/s")
    ap.add_argument("--max-seconds", type=float, default=12, help="bound of a closed loop")
    ap.add_argument("--open-seconds", type=float, default=10)
    ap.add_argument("--memory-games", type=int, default=30)
    ap.add_argument("--gen-cpus", default="1", help="taskset CPUs of the generator ('' = any)")
    ap.add_argument("--keep-copies", action="store_true", help="leave the /tmp copies")
    args = ap.parse_args(argv)
    args.checkout = args.checkout.resolve()
    wanted = [m for m in MECHANISMS if not args.only or m.name in args.only.split(",")]
    if args.against:
        wanted = [Mechanism("kit", f"{args.checkout} (on) against {args.against} (off)")]
    for name in SETTINGS:  # every run gets the checkout's defaults but for its own switch
        os.environ.pop(name, None)
    started = time.monotonic()
    print(f"`{command(args)}`\n\n{machine()}\n")
    print("| mechanism | variant | round | figures |\n|---|---|---|---|", flush=True)
    scratch, root = Path(tempfile.mkdtemp(prefix="mech-")), common.ROOT
    state: dict = {"rate": args.rate}
    results: dict[str, dict[bool, list[dict]]] = {}
    notes: list[str] = []
    try:
        base = snapshot(args.checkout, scratch, "on", None)
        for mech in wanted:
            patch = PATCHES.get(mech.name)
            off = snapshot(base, scratch, mech.name, patch) if patch else base
            if args.against:
                off = snapshot(args.against.resolve(), scratch, "against", None)
            runs: dict[bool, list[dict]] = {True: [], False: []}
            for n in range(args.rounds):
                for on in (True, False) if n % 2 == 0 else (False, True):  # ABBA
                    try:
                        out = run_variant(mech, on, base if on else off, n, args, state)
                    except Exception as error:  # noqa: BLE001 (a server that did not start)
                        out = {"open": {"error": repr(error)[:300]}, "max": {"error": "-"}}
                        out["posts"] = out["max"]
                    runs[on].append(out)
                    print(round_line(mech, on, n, out), flush=True)
            results[mech.name] = runs
            how = f"{mech.off_env}" if not patch else f"{patch[0]} + {patch[1]!r}"
            notes.append(f"- {mech.name}: {mech.what}; on {mech.on_env or 'as checked out'}, "
                         f"off {how}")  # fmt: skip
            if mech.name == "doccodec":
                notes.append(f"  - memory, on: {memory(base, args)}")
                notes.append(f"  - memory, off: {memory(off, args)}")
    finally:
        common.ROOT = root
        if not args.keep_copies:
            shutil.rmtree(scratch, ignore_errors=True)
    print(
        f"\nSummary (medians of {args.rounds} rounds; services + Redis µs, on / off; saves: "
        f"(off - on) / off of services + Redis; open loop at {state.get('rate')} moves/s)\n"
    )
    print("| mechanism | CPU per move | CPU per POST | latency |\n|---|---|---|---|")
    for mech in wanted:
        if mech.name in results:
            print(summary(mech, results[mech.name]))
    print("\n" + "\n".join(notes))
    print(f"\n`{command(args)}`: {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
