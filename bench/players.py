"""Players at scale (issue 30): "my games" and quick match with 100,000 players and
1,000,000 memberships, Redis memory per player and per membership, and the round trips
of a move whose seats are all bound to players.

Run: ``python -m bench.players [--players 100000] [--memberships 1000000] [--games 3000]
[--requests 1000] [--match-players 2000]`` (about 2-3 minutes; ``--players 5000
--memberships 50000 --games 1200 --requests 200 --match-players 400`` for a quick run).

One private redis-server (no append-only file) holds everything, Manhattan's service
on it in-process (``create_app``) and, for the HTTP steps, under gunicorn
(``gunicorn -c gunicorn.conf.py``, gevent, 2 workers). The data set, built without the
HTTP path:

1. **The registry**: ``--players`` players made by ``shared.games.players.create``
   itself on a :class:`~shared.store.players.Registry` over a redis-py pipeline (the
   same hash as one ``POST /players`` writes; one made without a pipeline is compared
   field by field and its key checked by ``verify_key``).
2. **Real games**: ``--games`` Manhattan games made by ``Lifecycle.create`` and four
   ``Lifecycle.join(player=...)`` each, in-process (start ``when_full``: running; one in ten
   gets three joins and stays open). Their seats' memberships are written by the game's
   own write script, as in service. Four "heavy" players share the first 1,000 games
   (1,000 real games each); forty "light" players sit in 10 real games each; the other
   seats go to random players.
3. **Bulk memberships**, up to ``--memberships`` in all, written straight into the
   players' ``mh:pl:{<player>}:all|live`` sorted sets (the newest fifth of each player's
   entries also in ``live``, both keys expiring in 30 days as the script would set
   them), skewed: 10% of all memberships belong to players with 1,000 games each, the
   rest spread exponentially (mean about 9, at least 1 each). They point at the real
   games' ids, so many players share each document: the page timings use the heavy and
   light players only, whose every membership is a seat they really hold (a page of a
   bulk player would skip documents it does not sit in).

Figures: ``INFO memory used_memory`` before and after each phase, and ``MEMORY USAGE``
(``SAMPLES 0``) of every index key; "my games" pages (``Games.player_games``
in-process and ``GET /players/me/games`` through gunicorn, one request at a time) for a
player with 10 games and one with 1,000, first page, a deep page (after 500 games) and
``turn=mine``: p50/p99 over ``--requests`` requests, Redis round trips (client side) and
commands (``INFO commandstats`` deltas) per page; quick match (``POST /matches``, 4-seat
tables) for ``--match-players`` players at once (a thread and a connection each), against
a tenth as many asking one at a time; and
a ``POST /moves`` of a game whose four seats are all bound to players against one with
no player, counted as ``bench.roundtrips`` counts. Timings are printed, never judged.
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
from bench.players_data import (
    HEAVY,
    HEAVY_PROBES,
    LIGHT,
    LIGHT_PLAYERS,
    bulk_memberships,
    index_usage,
    make_games,
    make_players,
    plan,
    used_memory,
)
from bench.players_measure import (
    Counted,
    moves,
    page_cases,
    quick_match,
    time_pages_http,
    time_pages_inproc,
)
from bench.players_report import markdown
from shared.games import players
from shared.store.players import registry_key

# -- the run -------------------------------------------------------------------------------


def phase(client: Any, memory: list[tuple[str, int]], label: str) -> None:
    memory.append((label, used_memory(client)))


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    out: dict[str, Any] = {"machine": machine()}
    counted = Counted()
    with redis_server(appendonly=False) as server, counted.patched():
        app, _ = make_app("manhattan", server.url)
        games = app.extensions["game_kit"].games
        store = games.store
        client = server.client()
        memory: list[tuple[str, int]] = []
        phase(client, memory, "empty")
        t0 = time.perf_counter()
        made, check = make_players(client, args.players)
        out["registry_check"] = check
        phase(client, memory, "registry")
        t1 = time.perf_counter()
        totals, heavy = plan(rng, args.players, args.memberships)
        n_games = max(args.games, HEAVY + LIGHT_PLAYERS // 4 * LIGHT + 10)
        ids, seats = make_games(games, made, totals, n_games, rng)
        phase(client, memory, "games")
        t2 = time.perf_counter()
        bulk = bulk_memberships(client, store, made, totals, seats, ids, rng)
        phase(client, memory, "memberships")
        t3 = time.perf_counter()
        usage = index_usage(client, store, made)
        real = sum(len(s) for s in seats.values())
        out["build"] = {
            "players": args.players,
            "heavy_players": heavy,
            "real_games": n_games,
            "real_memberships": real,
            "bulk_memberships": bulk,
            "seconds": {
                "registry": round(t1 - t0, 1),
                "games": round(t2 - t1, 1),
                "bulk": round(t3 - t2, 1),
            },
        }
        mem = dict(memory)
        sample = [registry_key(p) for p, _ in made[:: max(1, len(made) // 1000)]]
        pipe = client.pipeline(transaction=False)
        for key in sample:
            pipe.memory_usage(key, samples=0)
        registry_each = statistics.mean(pipe.execute())
        memberships_total = usage["entries"]
        out["memory"] = {
            "used_memory": mem,
            "per_player": round((mem["registry"] - mem["empty"]) / args.players, 1),
            "per_player_key": round(registry_each, 1),
            "per_game": round((mem["games"] - mem["registry"]) / n_games, 1),
            "per_bulk_membership": round((mem["memberships"] - mem["games"]) / bulk, 1),
            "index": usage,
            "index_per_entry": round(usage["bytes"] / memberships_total, 1),
        }
        cases = page_cases(games, made)
        out["pages_inproc"] = time_pages_inproc(games, client, counted, made, cases, args.requests)
        with gunicorn("manhattan", server.url) as svc:
            pids = [*svc.pids, server.proc.pid]
            out["pages_http"] = time_pages_http(svc.port, client, made, cases, args.requests, pids)
            pool = list(range(HEAVY_PROBES + LIGHT_PLAYERS + heavy, len(made)))
            rng.shuffle(pool)
            one = [made[p][1] for p in pool[: max(40, args.match_players // 10)]]
            crowd = [made[p][1] for p in pool[len(one) : len(one) + args.match_players]]
            out["match_one_at_a_time"] = quick_match(svc.port, client, one, False, pids)
            out["match_at_once"] = quick_match(svc.port, client, crowd, True, pids)
        probe_keys = [made[p][1] for p in range(HEAVY_PROBES)]
        fresh_keys = [players.create(store.registry, f"Fresh {n}")[1] or "" for n in range(4)]
        out["moves"] = [
            moves(app, client, counted, fresh_keys if mode == "fresh players" else probe_keys, mode)
            for mode in ("names", "players", "fresh players") * 2 + ("player keys",)
        ]
        out["memory"]["used_memory"]["end"] = used_memory(client)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--memberships", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=3000, help="real game documents (>= 1,110)")
    ap.add_argument("--requests", type=int, default=1000, help="per page case")
    ap.add_argument("--match-players", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=30)
    args = ap.parse_args(argv)
    out = run(args)
    print("\n".join(markdown(args, out)))
    return out


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
