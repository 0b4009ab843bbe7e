"""What a delayed spectator's read costs, against a live one (issue 41).

Run: ``python -m bench.spectator_delay [--game manhattan] [--moves 40] [--reads 300]
[--delay 3]``.

The real app in-process (Flask's test client, no gunicorn) on a private Redis. Two
games with the same seed and the same moves: one without a delay (its spectator reads
live) and one with ``spectator_delay`` (its spectator reads ``--delay`` moves behind,
from the ring the writes keep: shared/games/spectate.py). For each read route, as a
spectator without a token: the wall time per request (mean, p50), the CPU of this
process per request (``process_time``: the app's work, the test client's included),
Redis round trips per request (client side, a pipeline is one) and Redis commands per
request (``INFO commandstats`` deltas). Then what the ring costs the writes (commands
and Redis µs per move, both games played on by the same moves) and Redis memory (the
ring's key next to the document's), and what the alternative would cost: the game at
the delayed version replayed from its seed and history per read (the fallback kept for
a lost ring, ``spectate._replayed``).
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import time
from typing import Any

from bench.common import each_send, redis_server
from bench.inproc import make_app
from shared.games import audience, spectate

ROUTES = {
    "view": "/games/{id}",
    "score": "/games/{id}/score",
    "events": "/games/{id}/events?after=0&limit=100",
    "log": "/games/{id}/log",
    "listing": "/games?status=running&limit=20",
}


def commandstats(client: Any) -> collections.Counter[str]:
    stats = client.info("commandstats")
    out: collections.Counter[str] = collections.Counter()
    for name, value in stats.items():
        out[name.removeprefix("cmdstat_")] = value["calls"]
        out["usec:" + name.removeprefix("cmdstat_")] = value["usec"]
    return out


class Table:
    """One game driven by random legal moves (its own seeded choices)."""

    def __init__(self, app: Any, players: int, seed: int, delay: int) -> None:
        self.c = app.test_client()
        body = {"players": players, "seed": seed, "spectator_delay": delay}
        created = self.c.post("/games", json=body).get_json()
        self.id, self.host = created["id"], created["host_token"]
        self.tokens = [
            self.c.post(f"/games/{self.id}/players", json={"name": f"p{i}"}).get_json()["token"]
            for i in range(players)
        ]
        self.c.post(f"/games/{self.id}/start", headers=_auth(self.host))
        self.rng = random.Random(seed)

    def move(self) -> bool:
        view = self.c.get(f"/games/{self.id}", headers=_auth(self.host)).get_json()
        if view["status"] != "running":
            return False
        token = self.tokens[view["to_act"][0]]
        path = f"/games/{self.id}?include=legal_moves"
        legal = self.c.get(path, headers=_auth(token)).get_json()["legal_moves"]
        move = self.rng.choice(legal)
        reply = self.c.post(f"/games/{self.id}/moves", json=move, headers=_auth(token))
        assert reply.status_code == 200, reply.get_data(as_text=True)
        return True


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def measure(client: Any, redis_client: Any, path: str, reads: int) -> dict[str, float]:
    """Per request: wall µs (mean, p50), CPU µs, round trips, Redis commands."""
    for _ in range(20):  # warm up
        client.get(path)
    sent: list[bytes] = []
    walls = []
    before = commandstats(redis_client)
    cpu0 = time.process_time()
    with each_send(sent.append):
        for _ in range(reads):
            t = time.perf_counter()
            reply = client.get(path)
            walls.append(time.perf_counter() - t)
            assert reply.status_code == 200, reply.get_data(as_text=True)
    cpu = time.process_time() - cpu0
    delta = commandstats(redis_client) - before
    mix = {k: v / reads for k, v in delta.items() if not k.startswith("usec:") and k != "info"}
    calls = sum(mix.values()) * reads
    out: dict[str, Any] = {
        "mix": " ".join(f"{k}:{v:g}" for k, v in sorted(mix.items()) if v),
        "wall_us": 1e6 * statistics.mean(walls),
        "p50_us": 1e6 * statistics.median(walls),
        "cpu_us": 1e6 * cpu / reads,
        "round_trips": len(sent) / reads,
        "commands": calls / reads,
        "version": float(reply.get_json().get("version", 0) or 0),
    }
    return out


def write_cost(tables: list[Table], redis_client: Any, moves: int) -> list[dict[str, float]]:
    """Per move of each table (the tables in turn, ``moves`` moves each: the mover's
    view, its legal moves, the POST): Redis commands (mean) and the write script's Redis
    µs (median of the moves: one busy moment of the machine is not the script's)."""
    commands: list[list[float]] = [[] for _ in tables]
    script_us: list[list[float]] = [[] for _ in tables]
    for _ in range(moves):
        for n, table in enumerate(tables):
            before = commandstats(redis_client)
            if not table.move():
                continue
            delta = commandstats(redis_client) - before
            commands[n].append(
                sum(v for k, v in delta.items() if not k.startswith("usec:") and k != "info")
            )
            script_us[n].append(delta["usec:evalsha"])
    return [
        {"commands": statistics.mean(c), "script_us": statistics.median(u)}
        for c, u in zip(commands, script_us, strict=True)
    ]


def run(game: str, moves: int, reads: int, delay: int, players: int) -> None:
    with redis_server(appendonly=False) as server:
        app, prefix = make_app(game, server.url)
        redis_client = server.client()
        seed = 20261129
        live, delayed = Table(app, players, seed, 0), Table(app, players, seed, delay)
        for _ in range(moves):
            live.move()
            delayed.move()
        client = app.test_client()
        print(f"{game}, {players} players, {moves} moves in, delay {delay}; {reads} reads each")
        print(
            f"{'route':8} {'reader':8} {'wall µs':>8} {'p50 µs':>8} {'CPU µs':>8} "
            f"{'round trips':>11} {'commands':>8} {'version':>7}"
        )
        rows = []
        for route, template in ROUTES.items():
            if route != "listing":
                rows += [
                    (route, name, template.format(id=t.id)) for name, t in tables(live, delayed)
                ]
        for route, name, path in rows:
            _print_row(route, name, measure(client, redis_client, path, reads))
        kit = app.extensions["game_kit"].games
        doc = kit.writes.load(delayed.id)
        t = time.process_time()
        for _ in range(20):
            spectate._replayed(kit.ctx, doc)
        replay_us = 1e6 * (time.process_time() - t) / 20
        t = time.process_time()
        for _ in range(200):
            spectate.delayed(kit.ctx, doc)
        ring_us = 1e6 * (time.process_time() - t) / 200
        ring = redis_client.memory_usage(f"{prefix}:{{{delayed.id}}}:watch", samples=0)
        game_key = redis_client.memory_usage(f"{prefix}:{{{delayed.id}}}:game", samples=0)
        costs = write_cost([live, delayed], redis_client, 20)
        for name, n in (("live", 0), ("delayed", 1)):
            _listing_of(app, players, seed, delay if n else 0, redis_client)
            _print_row("listing", name, measure(client, redis_client, ROUTES["listing"], reads))
        print(
            f"the game at the delayed version, CPU per read: from the ring {ring_us:.0f} µs, "
            f"replayed from the seed {replay_us:.0f} µs (the fallback, not used per read)"
        )
        print(
            f"Redis memory: the ring {ring} bytes ({audience.delay_of(doc) + 1} documents), "
            f"the game's document {game_key} bytes"
        )
        print(
            f"per move (20 more moves, each: the mover's view, legal moves, POST): "
            f"Redis commands {costs[0]['commands']:.1f} live, {costs[1]['commands']:.1f} "
            f"delayed; the write script's Redis µs (median) {costs[0]['script_us']:.0f} live, "
            f"{costs[1]['script_us']:.0f} delayed"
        )


def tables(live: Table, delayed: Table) -> list[tuple[str, Table]]:
    return [("live", live), ("delayed", delayed)]


def _print_row(route: str, name: str, m: dict[str, Any]) -> None:
    version = f"{m['version']:7.0f}" if route in ("view", "log") else " " * 7
    print(
        f"{route:8} {name:8} {m['wall_us']:8.0f} {m['p50_us']:8.0f} "
        f"{m['cpu_us']:8.0f} {m['round_trips']:11.2f} {m['commands']:8.2f} "
        f"{version}  {m['mix']}"
    )


def _listing_of(app: Any, players: int, seed: int, delay: int, redis_client: Any) -> None:
    """Make the running listing 20 games of this delay, and nothing else."""
    redis_client.flushall()
    for n in range(20):
        table = Table(app, players, seed + 1 + n, delay)
        for _ in range(delay + 2):
            table.move()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="manhattan", choices=["manhattan", "windcity"])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--delay", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    print("$ python -m bench.spectator_delay " + " ".join(sys.argv[1:] if argv is None else argv))
    run(args.game, args.moves, args.reads, args.delay, args.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
