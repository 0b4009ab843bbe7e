"""The load generator: gevent greenlets over raw keep-alive HTTP/1.1 sockets.

Run by the bench scripts as a separate process (pinned with ``taskset``), never
imported by them; prints one JSON line with its figures. One process, one core at most,
no requests/http.client overhead, JSON through orjson: a request costs the generator a few tens of
microseconds, so it does not starve the services it measures (its CPU use is reported).

Modes:
- ``floor``: ``--conns`` connections each GET the floor endpoint in a loop (closed loop).
- ``games``: ``--games`` games are created, joined by ``--players`` bots and started
  (untimed), then played: ``--mode closed`` every game plays its moves back to back to
  the end (maximum throughput); ``--mode open`` moves are *started* on a fixed schedule
  at ``--rate`` moves/s, each on an idle game, latency counted from the scheduled start
  (no coordinated omission). ``--waiters W`` adds W clients long-polling the events of
  idle started games the whole time.

A "move" is what a bot does for one turn: ``GET /games/{id}?include=legal_moves`` with the
seat's token, pick one at random, ``POST /games/{id}/moves`` with it (bearer token and an
``Idempotency-Key``, as the CLI client sends). The POST answer tells whose turn is next.

``--posts-only --game G``: each turn is the POST alone. The generator keeps its own copy of
every game (G's engine, set up with the game's seed and options, each accepted move
applied to it), so it knows the legal moves without asking; the server still checks each
move in full. A move the server refuses counts as an error.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections import deque  # noqa: E402
from importlib import import_module  # noqa: E402
from typing import Any  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import gevent  # noqa: E402
import orjson  # noqa: E402
from gevent.event import Event  # noqa: E402
from gevent.pool import Pool  # noqa: E402

TIMEOUT = 40.0  # seconds a request may take (a long-poll waits up to 30 s)
KIT_OPTIONS = ("players", "clock")  # the kit's own options; the rest are the engine's
ENGINES = {"manhattan": "services.manhattan.rules", "windcity": "services.windcity.rules"}


class HttpError(Exception):
    pass


class Conn:
    """One keep-alive HTTP/1.1 connection; reconnects (and resends once) if the server
    closed it. Moves carry an Idempotency-Key, so a resent POST is never applied twice."""

    def __init__(self, base: str, timeout: float | None = None) -> None:
        self.timeout = timeout
        parts = urlsplit(base)
        self.addr = (parts.hostname, parts.port)
        self.host = f"Host: {parts.hostname}:{parts.port}\r\n"
        self.sock: socket.socket | None = None
        self.buf = b""

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buf = None, b""

    def request(self, method: str, path: str, body: bytes = b"", headers: str = ""):
        head = f"{method} {path} HTTP/1.1\r\n{self.host}{headers}"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        data = head.encode() + b"\r\n" + body
        for attempt in (0, 1):
            try:
                if self.sock is None:
                    self.sock = socket.create_connection(self.addr, timeout=self.timeout or TIMEOUT)
                    self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self.sock.sendall(data)
                return self._read()
            except (OSError, EOFError):
                self.close()
                if attempt:
                    raise
        raise AssertionError

    def _read(self) -> tuple[int, bytes]:
        buf = self.buf
        while (end := buf.find(b"\r\n\r\n")) < 0:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            buf += chunk
        head = buf[:end].lower()
        status = int(head[9:12])
        length = 0
        at = head.find(b"\r\ncontent-length:")
        if at >= 0:
            stop = head.find(b"\r\n", at + 2)
            length = int(head[at + 17 : stop if stop >= 0 else len(head)])
        rest = buf[end + 4 :]
        while len(rest) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            rest += chunk
        body, self.buf = rest[:length], rest[length:]
        if b"\r\nconnection: close" in head:
            self.close()
        return status, body


def auth(token: str) -> str:
    return f"Authorization: Bearer {token}\r\n"


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[rank]


def summary_ms(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(pct(values, 50) * 1000, 2),
        "p95_ms": round(pct(values, 95) * 1000, 2),
        "p99_ms": round(pct(values, 99) * 1000, 2),
        "max_ms": round(max(values) * 1000, 2) if values else float("nan"),
    }


class Game:
    def __init__(self, base: str, players: int, seed: int) -> None:
        self.conn = Conn(base)
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.id = ""
        self.tokens: list[str] = []
        self.host = ""
        self.to_act: list[int] = []
        self.over = False
        self.version = 0
        self.options: dict[str, Any] = {}
        self.engine: Any = None
        self.state: Any = None

    def call(self, method: str, path: str, body=None, headers: str = "", ok=(200, 201)):
        raw = orjson.dumps(body) if body is not None else b""
        status, data = self.conn.request(method, path, raw, headers)
        if status not in ok:
            raise HttpError(f"{method} {path} -> {status}: {data[:300]!r}")
        return status, orjson.loads(data) if data else None

    def setup(self, start: bool = True) -> None:
        _, created = self.call("POST", "/games", {"players": self.players, "seed": self.seed})
        self.id, self.host = created["id"], created["host_token"]
        for i in range(self.players):
            _, joined = self.call("POST", f"/games/{self.id}/players", {"name": f"bot{i}"})
            self.tokens.append(joined["token"])
        if start:
            _, view = self.call("POST", f"/games/{self.id}/start", headers=auth(self.host))
            self.to_act, self.version = view["to_act"], view["version"]
            self.options = {k: v for k, v in view["options"].items() if k not in KIT_OPTIONS}

    def replicate(self, engine: Any, options: dict[str, Any]) -> None:
        """Keep a local copy of the game's state (``--posts-only``), on the engine's
        playout path (``fork``, ``legal_actions``, ``play``): the generator's own share of
        the machine is not the service's."""
        self.engine = engine
        self.state = engine.fork(engine.setup(self.players, options, self.seed))

    def post_only(self, posts: list[float]) -> None:
        """One turn as a POST alone, the move drawn from the local copy's legal moves."""
        seat = self.to_act[0]
        choice = self.rng.choice(self.engine.legal_actions(self.state, seat))
        sent = time.perf_counter()
        _, body = self.call(
            "POST",
            f"/games/{self.id}/moves",
            choice,
            auth(self.tokens[seat]) + f"Idempotency-Key: {uuid.uuid4().hex}\r\n",
        )
        posts.append(time.perf_counter() - sent)
        self.engine.play(self.state, seat, choice)
        game = body["game"]
        self.to_act, self.version = game["to_act"], game["version"]
        self.over = game["status"] != "running"

    def move(self, posts: list[float]) -> None:
        """One bot turn: legal-moves, pick, post. Appends the POST latency to ``posts``."""
        if not self.to_act:
            _, view = self.call("GET", f"/games/{self.id}")
            self.to_act = view["to_act"]
            if view["status"] != "running":
                self.over = True
                return
        seat = self.to_act[0]
        token = auth(self.tokens[seat])
        _, view = self.call("GET", f"/games/{self.id}?include=legal_moves", headers=token)
        choice = self.rng.choice(view["legal_moves"])
        sent = time.perf_counter()
        status, body = self.call(
            "POST",
            f"/games/{self.id}/moves",
            choice,
            token + f"Idempotency-Key: {uuid.uuid4().hex}\r\n",
            ok=(200, 409),
        )
        posts.append(time.perf_counter() - sent)
        if status == 409:  # someone else's turn after all: refresh
            self.to_act = []
            return
        game = body["game"]
        self.to_act, self.version = game["to_act"], game["version"]
        self.over = game["status"] != "running"


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("what", choices=["floor", "games"])
    ap.add_argument("--base", required=True)
    ap.add_argument("--conns", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--warmup", type=float, default=1)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", choices=["closed", "open"], default="closed")
    ap.add_argument("--rate", type=float, default=100)
    ap.add_argument("--waiters", type=int, default=0)
    ap.add_argument("--posts-only", action="store_true", help="closed loop of POSTs alone")
    ap.add_argument("--game", choices=sorted(ENGINES), help="the engine of --posts-only")
    ap.add_argument("--wait", type=float, default=30, help="longest long-poll wait, s")
    ap.add_argument("--settle", type=float, default=8, help="seconds for waiters to park")
    ap.add_argument("--timeout", type=float, default=TIMEOUT, help="per request, seconds")
    args = ap.parse_args()
    globals()["TIMEOUT"] = args.timeout
    if args.posts_only and (args.mode != "closed" or args.game is None):
        ap.error("--posts-only needs --mode closed and --game")
    result = run_floor(args) if args.what == "floor" else run_games(args)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
