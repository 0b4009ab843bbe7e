"""Redis commands and round trips per request, counted.

Run: ``python -m bench.roundtrips [--game manhattan] [--moves 200]``.

The real app runs in-process on a private Redis; bots play random legal moves. Round
trips are counted on the client side (every ``send_packed_command`` of redis-py and
every ``ask`` of the store's lane, shared/store/connection.py, is one request/response exchange;
a pipeline is one); commands are the server's own count
(``INFO commandstats`` deltas, which include the commands a Lua script runs). Reported
separately for ``GET legal-moves`` and ``POST moves`` (with an Idempotency-Key, as the CLI
client sends, and without).
"""

from __future__ import annotations

import argparse
import collections
import sys
from typing import Any

import redis.connection

from bench.common import redis_server
from bench.inproc import Bot, make_app
from shared.store import connection as fastcall

_sent = [0]
_orig = redis.connection.AbstractConnection.send_packed_command


_orig_ask = fastcall.Conn.ask


def _counting(self, command, check_health=True):
    _sent[0] += 1
    return _orig(self, command, check_health)


def _asking(self, packed, count=1):
    _sent[0] += 1
    return _orig_ask(self, packed, count)


def commandstats(client) -> collections.Counter:
    stats = client.info("commandstats")
    return collections.Counter({k.removeprefix("cmdstat_"): v["calls"] for k, v in stats.items()})


def measure(bot_list, client, action) -> tuple[float, float, dict[str, float]]:
    """Round trips, commands (both per call) and the command mix of ``action(bot)``."""
    before, sent0 = commandstats(client), _sent[0]
    calls = 0
    for bot in bot_list:
        if bot.status == "running":
            action(bot)
            calls += 1
    sent = _sent[0] - sent0
    delta = commandstats(client) - before
    delta.pop("info", None)
    per = {k: round(v / calls, 2) for k, v in sorted(delta.items())}
    return sent / calls, sum(delta.values()) / calls, per


def run(game: str, moves: int, players: int) -> dict:
    redis.connection.AbstractConnection.send_packed_command = _counting  # type: ignore[method-assign]
    fastcall.Conn.ask = _asking  # type: ignore[method-assign]
    try:
        with redis_server(appendonly=False) as server:
            app, _ = make_app(game, server.url)
            client = server.client()
            out = {}
            for idem in (True, False):
                bots = [Bot(app, players, seed, idem) for seed in range(20)]
                for bot in bots:  # a few moves in, so the games are running mid-game
                    for _ in range(3):
                        bot.step()
                legal = {}
                totals: collections.Counter[str] = collections.Counter()
                rt_legal = rt_post = cmd_legal = cmd_post = 0.0
                rounds = max(1, moves // len(bots))
                for _ in range(rounds):
                    chosen: dict[int, Any] = {}

                    def get_legal(bot, chosen=chosen):
                        chosen[bot.id] = bot.rng.choice(bot.legal())

                    a, b, mix_l = measure(bots, client, get_legal)
                    c, d, mix_p = measure(
                        [bot for bot in bots if bot.id in chosen],
                        client,
                        lambda bot, chosen=chosen: bot.post(chosen[bot.id]),
                    )
                    rt_legal += a
                    cmd_legal += b
                    rt_post += c
                    cmd_post += d
                    totals.update(mix_p)
                    legal = mix_l
                key = "with_key" if idem else "without_key"
                out[key] = {
                    "legal_round_trips": round(rt_legal / rounds, 2),
                    "legal_commands": round(cmd_legal / rounds, 2),
                    "legal_mix": legal,
                    "post_round_trips": round(rt_post / rounds, 2),
                    "post_commands": round(cmd_post / rounds, 2),
                    "post_mix": {k: round(v / rounds, 2) for k, v in sorted(totals.items())},
                }
            return out
    finally:
        redis.connection.AbstractConnection.send_packed_command = _orig  # type: ignore[method-assign]
        fastcall.Conn.ask = _orig_ask  # type: ignore[method-assign]


def markdown(game: str, out: dict) -> list[str]:
    lines = [
        f"`python -m bench.roundtrips --game {game}`",
        "",
        "| request | round trips | commands (server side, incl. inside Lua) | command mix |",
        "|---|---|---|---|",
    ]
    for key, label in (("with_key", "with Idempotency-Key"), ("without_key", "no key")):
        r = out[key]
        mix_p = ", ".join(f"{k} {v:g}" for k, v in r["post_mix"].items())
        mix_l = ", ".join(f"{k} {v:g}" for k, v in r["legal_mix"].items())
        lines.append(
            f"| POST /moves ({label}) | **{r['post_round_trips']:g}** "
            f"| {r['post_commands']:g} | {mix_p} |"
        )
        if key == "with_key":
            lines.append(
                f"| GET /legal-moves | **{r['legal_round_trips']:g}** "
                f"| {r['legal_commands']:g} | {mix_l} |"
            )
    return lines


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args(argv)
    out = run(args.game, args.moves, args.players)
    print("\n".join(markdown(args.game, out)))
    return out


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
