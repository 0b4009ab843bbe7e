"""bench.loadgen, the runs: ``floor`` (connections in a closed loop on the floor
endpoint) and ``games`` (games set up, then played in a closed loop or on an open
schedule, with long-polling waiters), each as its figures.

Imported by ``bench/loadgen.py`` after gevent's ``monkey.patch_all()``.
"""

from __future__ import annotations

import random
import resource
import time
from collections import deque
from importlib import import_module

import gevent
from gevent.event import Event
from gevent.pool import Pool

from bench.loadgen_client import Conn, Game, summary_ms

ENGINES = {"manhattan": "services.manhattan.rules", "windcity": "services.windcity.rules"}


def cpu_now() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_floor(args) -> dict:
    stop = Event()
    counts = [0]
    lat: list[float] = []
    errors = [0]

    def worker() -> None:
        conn = Conn(args.base)
        while not stop.is_set():
            t = time.perf_counter()
            try:
                status, _ = conn.request("GET", "/floor")
            except (OSError, EOFError):
                errors[0] += 1
                continue
            if status != 200:
                errors[0] += 1
            lat.append(time.perf_counter() - t)
            counts[0] += 1

    pool = [gevent.spawn(worker) for _ in range(args.conns)]
    gevent.sleep(args.warmup)
    counts[0], lat[:] = 0, []
    c0, t0 = cpu_now(), time.perf_counter()
    gevent.sleep(args.seconds)
    n, elapsed, cpu = counts[0], time.perf_counter() - t0, cpu_now() - c0
    latencies = list(lat)
    stop.set()
    gevent.joinall(pool, timeout=10)
    return {
        "mode": "floor",
        "conns": args.conns,
        "seconds": round(elapsed, 2),
        "requests": n,
        "rps": round(n / elapsed, 1),
        "errors": errors[0],
        "latency": summary_ms(latencies),
        "gen_cpu_s": round(cpu, 2),
        "gen_cpu_cores": round(cpu / elapsed, 3),
    }


def make_games(args, count: int, seed0: int, start: bool = True) -> list[Game]:
    games = [Game(args.base, args.players, seed0 + i) for i in range(count)]
    pool = Pool(50)
    for g in games:
        pool.spawn(g.setup, start)
    pool.join(raise_error=True)
    return games


def waiter_loop(game: Game, stop: Event, stats: dict) -> None:
    """Long-poll the events of an idle game until stopped. Each wait is drawn from
    [wait/3, wait] so the waiters' re-polls spread out instead of all expiring together."""
    host, port = game.conn.addr
    conn = Conn(f"http://{host}:{port}", timeout=stats["wait"] + 15)
    rng = random.Random(id(game) ^ stats["answers"])
    while not stop.is_set():
        wait = round(rng.uniform(stats["wait"] / 3, stats["wait"]), 1)
        path = f"/games/{game.id}/events?after={game.version}&wait={wait}"
        try:
            status, _ = conn.request("GET", path)
            stats["answers"] += 1
            if status != 200:
                stats["errors"] += 1
        except (OSError, EOFError):
            stats["errors"] += 1
            gevent.sleep(0.5)


def run_games(args) -> dict:
    games = make_games(args, args.games, args.seed)
    if args.posts_only:
        engine = import_module(ENGINES[args.game]).ENGINE
        for game in games:
            game.replicate(engine, game.options)
    stop = Event()
    waiter_stats = {"answers": 0, "errors": 0, "wait": args.wait}
    waiters: list[gevent.Greenlet] = []
    if args.waiters:
        idle = make_games(args, max(1, args.waiters // 4), args.seed + 1_000_000)
        for i in range(args.waiters):
            waiters.append(gevent.spawn(waiter_loop, idle[i % len(idle)], stop, waiter_stats))
        gevent.sleep(args.settle)  # every waiter connected and parked before we measure
    posts: list[float] = []
    turns: list[float] = []
    done_at: list[float] = []
    errors: list[str] = []
    c0, t0 = cpu_now(), time.perf_counter()

    if args.mode == "closed":

        def play(game: Game) -> None:
            try:
                while not game.over and time.perf_counter() - t0 < args.seconds:
                    t = time.perf_counter()
                    if args.posts_only:
                        game.post_only(posts)
                    else:
                        game.move(posts)
                    now = time.perf_counter()
                    turns.append(now - t)
                    done_at.append(now - t0)
            except Exception as error:  # noqa: BLE001
                errors.append(repr(error)[:300])

        gevent.joinall([gevent.spawn(play, g) for g in games])
    else:
        ready = deque(games)
        backlog: deque[float] = deque()
        inflight = [0]
        wake = Event()

        def turn(game: Game, scheduled: float) -> None:
            inflight[0] += 1
            try:
                game.move(posts)
                now = time.perf_counter()
                turns.append(now - scheduled)
                done_at.append(now - t0)
            except Exception as error:  # noqa: BLE001
                errors.append(repr(error)[:300])
            finally:
                inflight[0] -= 1
                if not game.over:
                    ready.append(game)
                    wake.set()

        interval = 1.0 / args.rate
        k = 0
        while True:
            scheduled = t0 + k * interval
            if scheduled - t0 >= args.seconds or not (ready or inflight[0]):
                break  # the window is over, or every game is (each left slot would wait)
            delay = scheduled - time.perf_counter()
            if delay > 0:
                gevent.sleep(delay)
            backlog.append(scheduled)
            k += 1
            while backlog and ready:
                gevent.spawn(turn, ready.popleft(), backlog.popleft())
            if backlog and not ready:
                wake.clear()
                wake.wait(0.01)
        # drain what is in flight; a backlog left once every game is over has nobody to
        # serve it (waiting for it only stretched the step by the whole deadline)
        deadline = time.perf_counter() + 30
        while (inflight[0] or (backlog and ready)) and time.perf_counter() < deadline:
            while backlog and ready:
                gevent.spawn(turn, ready.popleft(), backlog.popleft())
            gevent.sleep(0.005)

    elapsed = time.perf_counter() - t0
    cpu = cpu_now() - c0
    stop.set()
    gevent.killall(waiters, timeout=5)
    moves = len(turns)
    result = {
        "mode": args.mode + (" posts-only" if args.posts_only else ""),
        "games": args.games,
        "players": args.players,
        "seconds": round(elapsed, 2),
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "finished_games": sum(g.over for g in games),
        "errors": len(errors),
        "first_errors": errors[:3],
        "post_latency": summary_ms(posts),
        "move_latency": summary_ms(turns),
        "gen_cpu_s": round(cpu, 2),
        "gen_cpu_cores": round(cpu / elapsed, 3),
    }
    if args.mode == "closed" and moves:
        # sustained rate: between 5% and 80% of all moves done (all games still busy)
        stamps = sorted(done_at)
        lo, hi = stamps[int(0.05 * moves)], stamps[int(0.80 * moves)]
        result["sustained_moves_per_s"] = round(
            (int(0.80 * moves) - int(0.05 * moves)) / (hi - lo), 1
        )
    else:
        result["rate"] = args.rate
    if args.waiters:
        result["waiters"] = args.waiters
        result["waiter_answers"] = waiter_stats["answers"]
        result["waiter_errors"] = waiter_stats["errors"]
    return result
