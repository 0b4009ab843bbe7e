"""bench.push's load generator: players with player keys, each subscribed to Web Push,
seated in Manhattan games, whose moves are started at a fixed rate (open loop).

Run by ``bench/push.py`` as a separate process (gevent greenlets over the raw keep-alive
sockets of ``bench/loadgen_client.py``), never imported by it. Reads the subscriptions
(one per player, made by the stand-in push service) from ``--subscriptions``; for each
group of ``--players`` of them: the players (``POST /players``), their subscriptions
(``POST /players/me/push/subscriptions``), a game they join with their keys, started.
Then for ``--seconds`` a move is started every ``1/--rate`` s on an idle game: the seat's
``GET /games/{id}?include=legal_moves`` and ``POST /games/{id}/moves`` with the player's
key. Writes one JSON document to ``--out``: figures, and per game the wall-clock times
(``time.time()``) at which its moves were acknowledged, in order, with the pushes each
move should cause (a ``your_turn`` per seat to act, a ``game_over`` per seat at the end).
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections import deque  # noqa: E402

import gevent  # noqa: E402
from gevent.event import Event  # noqa: E402
from gevent.pool import Pool  # noqa: E402

from bench.loadgen_client import Game, HttpError, auth, summary_ms  # noqa: E402
from bench.loadgen_runs import cpu_now  # noqa: E402


class Seated(Game):
    """A game whose seats are players (their keys), each with a push subscription."""

    def __init__(self, base: str, subs: list[dict], seed: int) -> None:
        super().__init__(base, len(subs), seed)
        self.subs = subs
        self.keys: dict[int, str] = {}
        self.acks: list[tuple[float, float, int]] = []  # (sent, acknowledged, pushes)

    def enter(self) -> None:
        _, created = self.call("POST", "/games", {"players": self.players, "seed": self.seed})
        self.id, self.host = created["id"], created["host_token"]
        for n, sub in enumerate(self.subs):
            _, made = self.call("POST", "/players", {"name": f"p{self.seed}x{n}"})
            key = auth(made["key"])
            self.call("POST", "/players/me/push/subscriptions", sub, key)
            _, joined = self.call("POST", f"/games/{self.id}/players", {}, key)
            self.keys[joined["seat"]] = key
        _, view = self.call("POST", f"/games/{self.id}/start", headers=auth(self.host))
        self.to_act = view["to_act"]

    def push_move(self, posts: list[float]) -> None:
        """One turn by the seat's player, its acknowledgement recorded."""
        key = self.keys[self.to_act[0]]
        _, view = self.call("GET", f"/games/{self.id}?include=legal_moves", headers=key)
        choice = self.rng.choice(view["legal_moves"])
        sent, wall = time.perf_counter(), time.time()
        _, body = self.call(
            "POST",
            f"/games/{self.id}/moves",
            choice,
            key + f"Idempotency-Key: {uuid.uuid4().hex}\r\n",
        )
        acked = time.time()
        posts.append(time.perf_counter() - sent)
        game = body["game"]
        self.to_act = game["to_act"]
        self.over = game["status"] != "running"
        self.acks.append((wall, acked, self.players if self.over else len(self.to_act)))


def run(args: argparse.Namespace) -> dict:
    with open(args.subscriptions) as f:
        subs = json.load(f)
    size = args.players
    games = [
        Seated(args.base, subs[n : n + size], args.seed + n)
        for n in range(0, len(subs) - size + 1, size)
    ]
    began = time.perf_counter()
    pool = Pool(50)
    for g in games:
        pool.spawn(g.enter)
    pool.join(raise_error=True)
    setup_s = time.perf_counter() - began
    print("set up", flush=True)
    posts: list[float] = []
    turns: list[float] = []
    errors: list[str] = []
    ready, inflight, wake = deque(games), [0], Event()
    backlog: deque[float] = deque()

    def turn(game: Seated, scheduled: float) -> None:
        inflight[0] += 1
        try:
            game.push_move(posts)
            turns.append(time.perf_counter() - scheduled)
        except (HttpError, OSError, EOFError, KeyError) as error:
            errors.append(repr(error)[:300])
        finally:
            inflight[0] -= 1
            if not game.over:
                ready.append(game)
                wake.set()

    c0, t0 = cpu_now(), time.perf_counter()
    k = 0
    while (
        (scheduled := t0 + k / args.rate) - t0 < args.seconds
        and time.perf_counter() - t0 < args.seconds
        and (ready or inflight[0])
    ):
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
    deadline = time.perf_counter() + 10
    while inflight[0] and time.perf_counter() < deadline:
        gevent.sleep(0.005)
    elapsed, cpu = time.perf_counter() - t0, cpu_now() - c0
    return {
        "games": len(games),
        "setup_s": round(setup_s, 1),
        "seconds": round(elapsed, 2),
        "moves": len(turns),
        "moves_per_s": round(len(turns) / elapsed, 1),
        "scheduled_not_started": len(backlog),
        "finished_games": sum(g.over for g in games),
        "errors": len(errors),
        "first_errors": errors[:3],
        "post_latency": summary_ms(posts),
        "move_latency": summary_ms(turns),
        "gen_cpu_cores": round(cpu / elapsed, 3),
        "acks": {g.id: g.acks for g in games},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--subscriptions", required=True, help="a JSON list of subscriptions")
    ap.add_argument("--out", required=True)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rate", type=float, default=200)
    ap.add_argument("--seconds", type=float, default=25)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    result = run(args)
    with open(args.out, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
