"""Ratings and leaderboards at scale (issue 31): leaderboard pages at 100,000 rated
players, the snapshot behind them, Redis memory per rated player, and the Redis commands
and round trips that ratings add to a move.

Run: ``python -m bench.ratings [--players 100000] [--requests 1000] [--games 6]
[--snapshots 20]`` (about 2 minutes; ``--players 10000 --requests 200 --games 2
--snapshots 5`` for a quick run).

One private redis-server (no append-only file), Manhattan's service on it in-process
(``create_app``, Flask's test client) and, for the HTTP steps, under gunicorn
(``gunicorn -c gunicorn.conf.py``, gevent, 2 workers). The data set:

1. **Real rated games**: 4 players (``POST /players``) play ``--games`` rated
   4-player Manhattan games to their end in-process (random legal moves), so that
   they pass ``LEADERBOARD_MIN_GAMES`` and sit on the leaderboard through
   ``settle_ratings`` itself. The same games (same seed, same moves) are played with the
   same players and ``"rated": false``, and with four name-only seats: these are the
   baselines of the counts below.
2. **The registry**: ``--players`` players made by ``shared.games.players.create`` on a
   pipelined :class:`~shared.store.players.Registry` (as bench.players makes them).
3. **Their ratings**, written in pipelines: ``manhattan:n``, ``:won``, ``:mu``,
   ``:sigma`` in the registry hash (in the order and text format ``rating.lua`` writes
   them: ``%.17g``) and the leaderboard ``mh:lb:{}`` filled with ``mu - 3 sigma`` of
   those very texts (what ``settle_ratings`` puts there). Checked against the real
   players: the same fields, the same formats, the same hash encoding, and the board's
   score of every real and of sampled bulk players equal to ``ordinal(mu, sigma)``.

Figures: ``INFO memory used_memory`` before and after the rating fields and the board
(and ``MEMORY USAGE`` of the board and of a snapshot); the snapshot, ``--snapshots`` times
each way in turn: ``Ratings.refresh`` (what the worker runs every
LEADERBOARD_SNAPSHOT_SECONDS: ZSCAN in chunks of ``CHUNK`` + ZADD, the ``KEPT`` newest
kept) against one ``ZUNIONSTORE`` of the same board (the design it replaced), wall time
and the longest single command inside Redis (the slow log at
``slowlog-log-slower-than 0``: every command's own µs), while another process times a
GET of a small key every 0.5 ms on its own connection (does anything wait on Redis?);
the snapshots alive after them (``KEPT``), their size, the newest equal to the board;
freeing a copy by DEL and UNLINK; ``GET /leaderboards/manhattan`` through gunicorn (one
keep-alive connection, one request at a time) and the same work in-process
(``Ratings.snapshot``, ``Ratings.page``, ``leaderboard_entries``), the worker's snapshot
in place (only the very first read takes one): first page and pages at offset
``players/2`` and ``players-20`` (cursors of the live snapshot), limit 20 and 100,
p50/p99 over ``--requests`` each, round trips and commands per page; a
``GET /players/{id}`` in the same gunicorn as the baseline of a one-read request; and per
``POST /moves``, round trips (client side, as bench.roundtrips counts them, each named
by the commands it carried) and commands (``INFO commandstats`` deltas, including those
inside Lua), move by move, rated against unrated. Timings are printed, never judged.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from bench.common import gunicorn, machine, redis_server
from bench.inproc import make_app
from bench.players_data import make_players, used_memory
from bench.ratings_data import TENANT, add_ratings, check_layout, fill_board
from bench.ratings_moves import Recorder, count_moves
from bench.ratings_pages import page_cases, time_pages_http, time_pages_inproc
from bench.ratings_report import markdown
from bench.ratings_snapshot import copy_costs, snapshots
from shared.store.players import registry_key

# -- the run -------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    out: dict[str, Any] = {"machine": machine()}
    rec = Recorder()
    with redis_server(appendonly=False) as server, rec.patched():
        app, _ = make_app("manhattan", server.url)
        kit = app.extensions["game_kit"]
        ctx = kit.games.ctx
        ratings = ctx.ratings
        every_s = int(ctx.settings["LEADERBOARD_SNAPSHOT_SECONDS"])
        min_games = int(ctx.settings["LEADERBOARD_MIN_GAMES"])
        out["settings"] = {
            k: ctx.settings[k] for k in ("LEADERBOARD_MIN_GAMES", "LEADERBOARD_SNAPSHOT_SECONDS")
        }
        client = server.client()
        board = ratings.board_key(TENANT)
        t0 = time.perf_counter()
        out["moves"] = count_moves(app, client, rec, args.games)
        real = out["moves"]["players"]
        t1 = time.perf_counter()
        memory = {"before": used_memory(client)}
        made, _ = make_players(client, args.players)
        ids = [player_id for player_id, _ in made]
        memory["registry"] = used_memory(client)
        sample = [registry_key(p) for p in ids[:: max(1, len(ids) // 1000)]]
        pipe = client.pipeline(transaction=False)
        for key in sample:
            pipe.memory_usage(key, samples=0)
        hash_before = statistics.mean(pipe.execute())
        t2 = time.perf_counter()
        scores = add_ratings(client, ratings.game, ids, rng)
        memory["fields"] = used_memory(client)
        fill_board(client, board, scores)
        memory["board"] = used_memory(client)
        t3 = time.perf_counter()
        pipe = client.pipeline(transaction=False)
        for key in sample:
            pipe.memory_usage(key, samples=0)
        hash_after = statistics.mean(pipe.execute())
        rated_keys = [f"{registry_key(p)}:rated" for p in real]
        out["build"] = {
            "players": args.players,
            "board": client.zcard(board),
            "seconds": {
                "games": round(t1 - t0, 1),
                "registry": round(t2 - t1, 1),
                "ratings": round(t3 - t2, 1),
            },
        }
        out["check"] = check_layout(
            client, ratings.game, board, min_games, real, rng.sample(ids, 200)
        )
        out["memory"] = {
            "used_memory": memory,
            "fields_per_player": round((memory["fields"] - memory["registry"]) / len(ids), 1),
            "board_per_player": round((memory["board"] - memory["fields"]) / len(ids), 1),
            "hash_before": round(hash_before, 1),
            "hash_after": round(hash_after, 1),
            "board_key": client.memory_usage(board, samples=0),
            "board_encoding": client.object("encoding", board),
            "rated_key": statistics.mean(client.memory_usage(k, samples=0) for k in rated_keys),
            "rated_entries": client.zcard(rated_keys[0]),
        }
        start = time.perf_counter()
        ratings.snapshot(TENANT, every_s)  # the very first read: no snapshot yet, one taken
        out["first_snapshot_ms"] = round((time.perf_counter() - start) * 1000, 1)
        out["snapshot"] = snapshots(ratings, client, server.url, args.snapshots)
        kept = [str(s) for s in client.lrange(f"{board}:snaps", 0, -1)]
        alive = sorted(client.scan_iter(f"{board}:snap:*"))
        newest = f"{board}:snap:{str(client.get(f'{board}:snap'))}"
        out["memory"]["snapshots_alive"] = len(alive)
        out["memory"]["snapshots_listed"] = len(kept)
        out["memory"]["alive_are_listed"] = alive == sorted(f"{board}:snap:{s}" for s in kept)
        out["memory"]["snapshot_key"] = statistics.mean(
            client.memory_usage(k, samples=0) for k in alive
        )
        out["memory"]["snapshot_encoding"] = client.object("encoding", newest)
        out["memory"]["snapshot_is_board"] = client.zrange(newest, 0, -1, withscores=True) == (
            client.zrange(board, 0, -1, withscores=True)
        )
        out["memory"]["used_memory"]["snapshots"] = used_memory(client)
        out["copies"] = copy_costs(client, board, max(4, args.snapshots // 2))
        cases = page_cases(args.players)
        ratings.refresh(TENANT)  # (as the worker would: pages never take one)
        out["pages_inproc"] = time_pages_inproc(ratings, client, rec, cases, args.requests, every_s)
        with gunicorn("manhattan", server.url) as svc:
            pids = [*svc.pids, server.proc.pid]
            ratings.refresh(TENANT)
            out["pages_http"], out["baseline_http"] = time_pages_http(
                svc.port, client, cases, args.requests, pids, real[0]
            )
        out["memory"]["used_memory"]["end"] = used_memory(client)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--requests", type=int, default=1000, help="per page case")
    ap.add_argument("--games", type=int, default=6, help="rated games (and baselines)")
    ap.add_argument("--snapshots", type=int, default=20, help="per way (refresh, ZUNIONSTORE)")
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args(argv)
    out = run(args)
    print("\n".join(markdown(args, out)))
    return out


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
