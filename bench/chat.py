"""What a table chat message costs, against a move (issue 41).

Run: ``python -m bench.chat [--game manhattan] [--games 20] [--rounds 15]``.

The real app in-process (Flask's test client, no gunicorn) on a private Redis. Running
games of two seats; in each round, per game: a move of the seat to act (its legal
moves read first, outside the count), then a text message and a canned phrase of a
seat. Per request kind: the wall time (mean, p50), the CPU of this process
(``process_time``: the app's work, the test client's included), Redis round trips
(client side, a pipeline is one) and Redis commands (``INFO commandstats`` deltas,
the commands a script runs included). Twice: with the chat's rate limits on (their
default: one flask-limiter call per sender and one per address), and off. Then what a
reader pays for the chat on the event stream: a page of events read with the chat
merged in, against the same read of a game that never chatted.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from bench.common import each_send, redis_server
from bench.inproc import FACTORIES, Bot

KINDS = ("move", "chat text", "chat phrase")


def commandstats(client: Any) -> collections.Counter[str]:
    stats = client.info("commandstats")
    return collections.Counter({k.removeprefix("cmdstat_"): v["calls"] for k, v in stats.items()})


class Cost:
    """Wall times, CPU, round trips and Redis commands of one kind of request."""

    def __init__(self) -> None:
        self.walls: list[float] = []
        self.cpu = 0.0
        self.sent = 0
        self.commands = 0

    def time(self, redis_client: Any, call: Callable[[], Any]) -> Any:
        before = commandstats(redis_client)
        sent: list[bytes] = []
        cpu, wall = time.process_time(), time.perf_counter()
        with each_send(sent.append):
            reply = call()
        self.walls.append(time.perf_counter() - wall)
        self.cpu += time.process_time() - cpu
        delta = commandstats(redis_client) - before
        delta.pop("info", None)
        self.commands += sum(delta.values())
        self.sent += len(sent)
        return reply

    def row(self, name: str) -> str:
        n = len(self.walls)
        return (
            f"{name:14} {1e6 * statistics.mean(self.walls):8.0f} "
            f"{1e6 * statistics.median(self.walls):8.0f} {1e6 * self.cpu / n:8.0f} "
            f"{self.sent / n:11.2f} {self.commands / n:8.2f}"
        )


def play(app: Any, redis_client: Any, games: int, rounds: int) -> dict[str, Cost]:
    costs = {kind: Cost() for kind in KINDS}
    bots = [Bot(app, 2, seed, idem=False) for seed in range(games)]
    for bot in bots:
        bot.step()  # the game is running
    for n in range(rounds):
        for bot in bots:
            if bot.status != "running":
                continue
            move = bot.rng.choice(bot.legal())
            costs["move"].time(redis_client, partial(bot.post, move))
            token = bot.tokens[n % 2]
            url = f"/games/{bot.id}/chat"
            for kind, body in (
                ("chat text", {"text": f"round {n}: nice move, your turn!"}),
                ("chat phrase", {"phrase": "well_played"}),
            ):
                send = partial(bot.c.post, url, json=body, headers=bot.auth(token))
                reply = costs[kind].time(redis_client, send)
                assert reply.status_code == 201, reply.get_data(as_text=True)
    return costs


def stream_cost(app: Any, redis_client: Any, reads: int) -> dict[str, Cost]:
    """An events page (after the start, up to 100) of a game with 20 messages among its
    moves and of one without any: as a seat reads it (mutes read in the same trip)."""
    out = {}
    for name, chatty in (("events, chat", True), ("events, none", False)):
        bot = Bot(app, 2, 99 if chatty else 98, idem=False)
        for n in range(20):
            if not bot.step():
                break
            if chatty:
                bot.c.post(
                    f"/games/{bot.id}/chat", json={"text": f"m{n}"}, headers=bot.auth(bot.tokens[0])
                )
        cost = Cost()
        path, headers = f"/games/{bot.id}/events?after=4", bot.auth(bot.tokens[0])
        for _ in range(reads):
            cost.time(redis_client, partial(bot.c.get, path, headers=headers))
        out[name] = cost
    return out


def run(game: str, games: int, rounds: int) -> None:
    factory, _ = FACTORIES[game]
    header = (
        f"{'request':14} {'wall µs':>8} {'p50 µs':>8} {'CPU µs':>8} {'round trips':>11} "
        f"{'commands':>8}"
    )
    with redis_server(appendonly=False) as server:
        redis_client = server.client()
        for label, limits in (
            ("rate limits on (RATE_LIMIT_CHAT, RATE_LIMIT_CHAT_ADDRESS)", "1000000/10s"),
            ("rate limits off", ""),
        ):
            config = {
                "REDIS_URL": server.url,
                "LOG_LEVEL": "WARNING",
                "RATE_LIMIT_CHAT": limits,
                "RATE_LIMIT_CHAT_ADDRESS": limits,
            }
            app = factory(config)
            play(app, redis_client, 2, 2)  # warm up
            costs = play(app, redis_client, games, rounds)
            print(f"\n{game}, {games} games x {rounds} rounds; {label}")
            print(header)
            for kind in KINDS:
                print(costs[kind].row(kind))
        print("\nan events page (up to 100) as a seat reads it, with 20 messages or none")
        print(header)
        for name, cost in stream_cost(app, redis_client, 200).items():
            print(cost.row(name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="manhattan", choices=sorted(FACTORIES))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    run(args.game, args.games, args.rounds)


if __name__ == "__main__":
    main()
