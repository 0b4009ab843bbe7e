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
2. **Real games**: ``--games`` Manhattan games made by ``Games.create`` and four
   ``Games.join(player=...)`` each, in-process (start ``when_full``: running; one in ten
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
import collections
import contextlib
import http.client
import json
import os
import random
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

from bench import common
from bench.common import CpuMeter, gunicorn, machine, redis_server
from bench.inproc import make_app
from bench.roundtrips import commandstats
from shared.games import players
from shared.games.tokens import PlayerRef
from shared.store.players import Registry, registry_key

HEAVY = 1000  # games of a heavy player
HEAVY_SHARE = 0.1  # of all memberships, held by players with HEAVY games each
LIGHT = 10  # games of a light (probe) player
LIGHT_PLAYERS = 40
HEAVY_PROBES = 4  # heavy players whose games are real seats (the first HEAVY games)
LIVE_SHARE = 0.2  # of a bulk player's memberships, the newest, also in its live index
INDEX_TTL = 30 * 24 * 3600
BATCH = 1000  # players per pipeline
DEEP = 500  # games skipped before the deep page
LIMIT = 20
TOP_LEVEL = ("hgetall", "mget", "evalsha")  # what a move sends; EVALSHA's time includes
# every command its script runs (which commandstats also counts on their own)


# -- counting ------------------------------------------------------------------------------


class Counted:
    """Round trips sent to Redis by this process (redis-py's ``send_packed_command`` and
    the store's lane, as bench.roundtrips counts them) and the server's commands."""

    def __init__(self) -> None:
        self.sent = 0

    @contextlib.contextmanager
    def patched(self) -> Iterator[None]:
        with common.each_send(self._count):
            yield

    def _count(self, _packet: bytes) -> None:
        self.sent += 1


def usec_by_command(client: Any) -> collections.Counter[str]:
    stats = client.info("commandstats")
    return collections.Counter({k.removeprefix("cmdstat_"): v["usec"] for k, v in stats.items()})


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def used_memory(client: Any) -> int:
    return int(client.info("memory")["used_memory"])


# -- the data set --------------------------------------------------------------------------


def make_players(client: Any, count: int) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    """``count`` players through ``players.create`` on a pipelined registry: (id, key)
    each; and the check that a player made without the pipeline looks the same."""
    pipe = client.pipeline(transaction=False)
    registry = Registry(pipe)
    made = []
    for n in range(count):
        player_id, key, _ = players.create(registry, f"Player {n}")
        assert key is not None
        made.append((player_id, key))
        if len(pipe) >= BATCH:
            pipe.execute()
    pipe.execute()
    real = Registry(client)
    one_id, one_key, _ = players.create(real, "Checked")
    assert one_key is not None
    plain, piped = real.get(one_id), real.get(made[0][0])
    assert plain is not None and piped is not None
    same = sorted(plain) == sorted(piped) and all(
        len(plain[f]) == len(piped[f]) for f in ("key", "tenant", "ext", "created")
    )
    verified = players.verify_key(real, made[-1][1])[0] == made[-1][0]
    client.delete(registry_key(one_id))
    return made, {"same_fields": same, "fields": sorted(plain), "key_verified": verified}


def plan(rng: random.Random, n_players: int, memberships: int) -> tuple[list[int], int]:
    """Each player's total memberships (heavy probes first, then light probes, then
    the other heavy players, then the rest) and the number of heavy players."""
    heavy = max(HEAVY_PROBES, round(memberships * HEAVY_SHARE / HEAVY))
    fixed = heavy * HEAVY + LIGHT_PLAYERS * LIGHT
    rest = n_players - heavy - LIGHT_PLAYERS
    if rest <= 0 or memberships - fixed < rest:
        raise SystemExit("too few memberships or players for the plan; raise --memberships")
    mean = (memberships - fixed) / rest
    counts = [1 + int(rng.expovariate(1 / max(mean - 0.5, 0.01))) for _ in range(rest)]
    cap = 500
    counts = [min(c, cap) for c in counts]
    diff = memberships - fixed - sum(counts)
    while diff:
        n = rng.randrange(rest)
        if diff > 0 and counts[n] < cap:
            counts[n] += 1
            diff -= 1
        elif diff < 0 and counts[n] > 1:
            counts[n] -= 1
            diff += 1
    totals = [HEAVY] * HEAVY_PROBES + [LIGHT] * LIGHT_PLAYERS + [HEAVY] * (heavy - HEAVY_PROBES)
    return totals + counts, heavy


def make_games(
    games: Any, made: list[tuple[str, str]], totals: list[int], n_games: int, rng: random.Random
) -> tuple[list[str], dict[int, set[int]]]:
    """The real games (ids) and, per player index, the games it really sits in."""
    seats: dict[int, set[int]] = collections.defaultdict(set)
    light0 = HEAVY_PROBES
    others = list(range(HEAVY_PROBES + LIGHT_PLAYERS, len(made)))
    left = list(totals)
    ids: list[str] = []
    for g in range(n_games):
        if g < HEAVY:
            who = list(range(HEAVY_PROBES))
        elif g < HEAVY + LIGHT_PLAYERS // 4 * LIGHT:
            group = (g - HEAVY) // LIGHT
            who = [light0 + 4 * group + k for k in range(4)]
        else:
            who = []
            while len(who) < (3 if g % 10 == 0 else 4):
                p = rng.choice(others)
                if left[p] > 0 and p not in who:
                    who.append(p)
        doc, _, _ = games.create({"players": 4, "start": "when_full"})
        for k, p in enumerate(who):
            games.join(doc["id"], f"Seat {k}", player=PlayerRef(made[p][0]))
            seats[p].add(g)
            left[p] -= 1
        ids.append(doc["id"])
    return ids, seats


def bulk_memberships(
    client: Any,
    store: Any,
    made: list[tuple[str, str]],
    totals: list[int],
    seats: dict[int, set[int]],
    ids: list[str],
    rng: random.Random,
) -> int:
    """Write the memberships the real games did not: straight into the indexes."""
    now = int(time.time() * 1000)
    month = INDEX_TTL * 1000
    pipe = client.pipeline(transaction=False)
    written = 0
    for p in range(HEAVY_PROBES + LIGHT_PLAYERS, len(made)):
        want = totals[p] - len(seats.get(p, ()))
        if want <= 0:
            continue
        every, live = store.member_keys(made[p][0])
        picks = [
            g for g in rng.sample(range(len(ids)), min(len(ids), want + 8)) if g not in seats[p]
        ]
        scores = sorted((now - rng.randrange(month) for _ in range(want)), reverse=True)
        entries = {ids[g]: s for g, s in zip(picks[:want], scores, strict=False)}
        pipe.zadd(every, entries)
        n_live = int(want * LIVE_SHARE + rng.random())
        if n_live:
            pipe.zadd(live, dict(list(entries.items())[:n_live]))
            pipe.expire(live, INDEX_TTL, nx=True)
        pipe.expire(every, INDEX_TTL, nx=True)
        written += len(entries)
        if len(pipe) >= 4 * BATCH:
            pipe.execute()
    pipe.execute()
    return written


def index_usage(client: Any, store: Any, made: list[tuple[str, str]]) -> dict[str, Any]:
    """``MEMORY USAGE`` and ``ZCARD`` of every index key, summed; bytes per entry by
    the size of a player's index."""
    by_size: dict[str, list[int]] = {"<= 20": [0, 0], "21-128": [0, 0], "> 128": [0, 0]}
    total_bytes = entries = keys = 0
    for start in range(0, len(made), BATCH):
        pipe = client.pipeline(transaction=False)
        for player_id, _ in made[start : start + BATCH]:
            for key in store.member_keys(player_id):
                pipe.memory_usage(key, samples=0)
                pipe.zcard(key)
        raw = pipe.execute()
        for n in range(0, len(raw), 2):
            size, card = raw[n] or 0, raw[n + 1]
            if not card:
                continue
            keys += 1
            total_bytes += size
            entries += card
            band = "<= 20" if card <= 20 else "21-128" if card <= 128 else "> 128"
            by_size[band][0] += size
            by_size[band][1] += card
    return {
        "keys": keys,
        "bytes": total_bytes,
        "entries": entries,
        "per_entry": {k: round(b / c, 1) for k, (b, c) in by_size.items() if c},
        "entries_by_size": {k: c for k, (_, c) in by_size.items()},
    }


# -- "my games" ----------------------------------------------------------------------------


def cursor_after(games: Any, player: str, skip: int) -> str | None:
    cursor = None
    for _ in range(skip // LIMIT):
        _, cursor = games.player_games(player, None, False, LIMIT, cursor)
    return cursor


def page_cases(games: Any, made: list[tuple[str, str]]) -> list[tuple[str, list[int], dict]]:
    """(label, players to rotate over, query) of each timed page."""
    heavy = list(range(HEAVY_PROBES))
    light = list(range(HEAVY_PROBES, HEAVY_PROBES + LIGHT_PLAYERS))
    deep = {p: cursor_after(games, made[p][0], DEEP) for p in heavy}
    return [
        ("10 games, first page", light, {}),
        ("10 games, turn=mine", light, {"turn": "mine"}),
        ("1,000 games, first page", heavy, {}),
        (f"1,000 games, deep page (after {DEEP})", heavy, {"cursor": deep}),
        ("1,000 games, turn=mine", heavy, {"turn": "mine"}),
        ("1,000 games, status=finished (none is)", heavy, {"status": "finished"}),
    ]


def time_pages_inproc(
    games: Any, client: Any, counted: Counted, made: list[tuple[str, str]], cases: list, n: int
) -> list[dict[str, Any]]:
    out = []
    for label, who, query in cases:
        times: list[float] = []
        sizes: list[int] = []
        count = n if "finished" not in label else max(50, n // 5)
        before, sent0 = commandstats(client), counted.sent
        for i in range(count):
            p = who[i % len(who)]
            cursor = query.get("cursor", {}).get(p) if "cursor" in query else None
            start = time.perf_counter()
            entries, _ = games.player_games(
                made[p][0], query.get("status"), query.get("turn") == "mine", LIMIT, cursor
            )
            times.append(time.perf_counter() - start)
            sizes.append(len(entries))
        sent = counted.sent - sent0
        delta = commandstats(client) - before
        delta.pop("info", None)
        out.append(
            {
                "case": label,
                "requests": count,
                "entries": round(statistics.mean(sizes), 1),
                "p50_ms": round(pct(times, 0.5) * 1000, 2),
                "p99_ms": round(pct(times, 0.99) * 1000, 2),
                "round_trips": round(sent / count, 2),
                "commands": round(sum(delta.values()) / count, 1),
                "mix": {k: round(v / count, 1) for k, v in sorted(delta.items())},
            }
        )
    return out


class Http:
    """One keep-alive HTTP/1.1 connection (http.client)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, key: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {key}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=headers)
        reply = self.conn.getresponse()
        return reply.status, json.loads(reply.read() or b"null")


def time_pages_http(
    port: int, client: Any, made: list[tuple[str, str]], cases: list, n: int, pids: list[int]
) -> list[dict[str, Any]]:
    out = []
    conn = Http(port)
    for label, who, query in cases:
        times: list[float] = []
        count = n if "finished" not in label else max(50, n // 5)
        before = commandstats(client)
        meter = CpuMeter({"services": pids})
        for i in range(count):
            p = who[i % len(who)]
            params = {k: v for k, v in query.items() if k != "cursor"}
            if "cursor" in query and query["cursor"].get(p):
                params["cursor"] = query["cursor"][p]
            path = "/players/me/games?" + "&".join(f"{k}={v}" for k, v in params.items())
            start = time.perf_counter()
            status, body = conn.call("GET", path, made[p][1])
            times.append(time.perf_counter() - start)
            assert status == 200, body
        wall = sum(times)
        cores = meter.stop()
        delta = commandstats(client) - before
        delta.pop("info", None)
        out.append(
            {
                "case": label,
                "requests": count,
                "p50_ms": round(pct(times, 0.5) * 1000, 2),
                "p99_ms": round(pct(times, 0.99) * 1000, 2),
                "commands": round(sum(delta.values()) / count, 1),
                "cpu_ms": round(cores["services"] * wall / count * 1000, 2),
                "other_cores": cores["other"],
            }
        )
    return out


# -- quick match ---------------------------------------------------------------------------


def quick_match(
    port: int, client: Any, keys: list[str], at_once: bool, pids: list[int]
) -> dict[str, Any]:
    """``POST /matches`` {"players": 4} for each key: all at once (one thread and
    connection each, released together) or one at a time."""
    results: list[tuple[float, int, Any]] = [(0.0, 0, None)] * len(keys)
    before = commandstats(client)
    meter = CpuMeter({"services": pids[:-1], "redis": pids[-1:], "client": [os.getpid()]})

    def ask(n: int, key: str, gate: threading.Barrier | None) -> None:
        conn = Http(port)
        if gate is not None:
            gate.wait()
        start = time.perf_counter()
        status, body = conn.call("POST", "/matches", key, {"players": 4})
        results[n] = (time.perf_counter() - start, status, body)
        conn.conn.close()

    t0 = time.perf_counter()
    if at_once:
        threading.stack_size(256 * 1024)
        gate = threading.Barrier(len(keys))
        threads = [threading.Thread(target=ask, args=(n, k, gate)) for n, k in enumerate(keys)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    else:
        for n, key in enumerate(keys):
            ask(n, key, None)
    wall = time.perf_counter() - t0
    cores = meter.stop()
    delta = commandstats(client) - before
    delta.pop("info", None)
    ok = [r for r in results if r[1] == 201]
    tables = collections.Counter(r[2]["game_id"] for r in ok)
    started = len({r[2]["game_id"] for r in ok if r[2]["game"]["status"] == "running"})
    times = [r[0] for r in results]
    return {
        "players": len(keys),
        "seated": len(ok),
        "refused": dict(collections.Counter(r[1] for r in results if r[1] != 201)),
        "tables": len(tables),
        "full_tables": sum(1 for c in tables.values() if c == 4),
        "started_by_last_join": started,
        "p50_ms": round(pct(times, 0.5) * 1000, 1),
        "p99_ms": round(pct(times, 0.99) * 1000, 1),
        "wall_s": round(wall, 2),
        "commands": round(sum(delta.values()) / len(keys), 1),
        "evalsha": round(delta["evalsha"] / len(keys), 2),
        "mix": {k: round(v / len(keys), 1) for k, v in delta.most_common(6)},
        "services_ms": round(cores["services"] * wall / len(keys) * 1000, 2),
        "redis_ms": round(cores["redis"] * wall / len(keys) * 1000, 2),
        "cores": {k: cores[k] for k in ("services", "redis", "client", "other")},
    }


# -- a move's round trips ------------------------------------------------------------------


def moves(
    app: Any, client: Any, counted: Counted, keys: list[str], mode: str, games_n: int = 20
) -> dict[str, Any]:
    """Round trips, commands and Redis µs (the read and the EVALSHA) of ``POST /moves``
    in 4-seat games whose seats are ``mode``: "names" (no player), "players" or "fresh
    players" (each bound to one of ``keys``' players; moved with the seat's token) or
    "player keys" (the same, moved with the player's key)."""
    c = app.test_client()
    rng = random.Random(7)
    sent = cmds = posts = 0
    usec = 0.0
    for g in range(games_n):
        created = c.post("/games", json={"players": 4, "seed": g}).get_json()
        game_id, host = created["id"], created["host_token"]
        creds = []
        for s in range(4):
            if mode == "names":
                joined = c.post(f"/games/{game_id}/players", json={"name": f"n{s}"})
            else:
                auth = {"Authorization": f"Bearer {keys[s]}"}
                joined = c.post(f"/games/{game_id}/players", json={}, headers=auth)
            token = joined.get_json()["token"]
            creds.append(keys[s] if mode == "player keys" else token)
        view = c.post(f"/games/{game_id}/start", headers={"Authorization": f"Bearer {host}"})
        to_act = view.get_json()["to_act"]
        for _ in range(10):
            auth = {"Authorization": f"Bearer {creds[to_act[0]]}"}
            read = c.get(f"/games/{game_id}?include=legal_moves", headers=auth).get_json()
            move = rng.choice(read["legal_moves"])
            before, usec0, sent0 = commandstats(client), usec_by_command(client), counted.sent
            reply = c.post(f"/games/{game_id}/moves", json=move, headers=auth)
            sent += counted.sent - sent0
            delta = commandstats(client) - before
            delta.pop("info", None)
            cmds += sum(delta.values())
            spent = usec_by_command(client) - usec0
            usec += sum(spent[name] for name in TOP_LEVEL)
            posts += 1
            assert reply.status_code == 200, reply.get_data(as_text=True)
            game = reply.get_json()["game"]
            if game["status"] != "running":
                break
            to_act = game["to_act"]
    return {
        "mode": mode,
        "players": "fresh" if mode == "fresh players" else "heavy",
        "posts": posts,
        "round_trips": round(sent / posts, 2),
        "commands": round(cmds / posts, 1),
        "redis_us": round(usec / posts, 1),
    }


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


def markdown(args: argparse.Namespace, out: dict[str, Any]) -> list[str]:
    b, m = out["build"], out["memory"]
    mem = m["used_memory"]
    flags = (
        f"--players {args.players} --memberships {args.memberships} --games {args.games} "
        f"--requests {args.requests} --match-players {args.match_players}"
    )
    mib = 1024 * 1024
    lines = [
        f"`python -m bench.players {flags}`",
        "",
        "machine: " + ", ".join(f"{k} {v}" for k, v in out["machine"].items()),
        "",
        f"Data set: {b['players']:,} players ({b['heavy_players']} with 1,000 games), "
        f"{b['real_games']:,} real Manhattan games (create + 4 joins in-process; their "
        f"{b['real_memberships']:,} memberships written by the game's script), "
        f"{b['bulk_memberships']:,} more memberships written straight into the indexes, "
        f"pointing at those games (shared documents); {m['index']['entries']:,} index "
        f"entries in {m['index']['keys']:,} keys (all + live, live = the newest "
        f"{LIVE_SHARE:.0%}). Built in {b['seconds']['registry']} s (registry), "
        f"{b['seconds']['games']} s (games), {b['seconds']['bulk']} s (bulk). "
        f"Registry check: a player made without the pipeline has the same fields "
        f"{out['registry_check']['fields']} ({out['registry_check']['same_fields']}), "
        f"a pipelined player's key verifies ({out['registry_check']['key_verified']}).",
        "",
        "| Redis memory (used_memory) | MiB | per item |",
        "|---|---|---|",
        f"| empty | {mem['empty'] / mib:.1f} | |",
        f"| + {b['players']:,} players (registry) | {mem['registry'] / mib:.1f} "
        f"| **{m['per_player']:.0f} B per player** (MEMORY USAGE of one hash: "
        f"{m['per_player_key']:.0f} B) |",
        f"| + {b['real_games']:,} games with their seats' memberships | "
        f"{mem['games'] / mib:.1f} | {m['per_game'] / 1024:.1f} KiB per game (just started, "
        f"4 index entries; the server's default stream-node-max-bytes: see bench.memory) |",
        f"| + {b['bulk_memberships']:,} memberships | {mem['memberships'] / mib:.1f} | "
        f"**{m['per_bulk_membership']:.0f} B per membership** (with its share of live "
        f"entries and of the keys) |",
        f"| index keys by MEMORY USAGE | {m['index']['bytes'] / mib:.1f} | "
        f"{m['index_per_entry']:.0f} B per index entry; by a key's size: "
        + ", ".join(
            f"{k} entries {v:.0f} B ({m['index']['entries_by_size'][k]:,} entries)"
            for k, v in m["index"]["per_entry"].items()
        )
        + " |",
        "",
        f'"My games" pages (limit {LIMIT}), one request at a time; in-process is '
        "`Games.player_games`, HTTP is `GET /players/me/games` with the player key "
        "through gunicorn (its commands include the key's registry read):",
        "",
        "| page | entries | in-process p50 / p99 ms | round trips | Redis commands "
        "| HTTP p50 / p99 ms | HTTP commands | services + Redis CPU ms / request "
        "| others' cores meanwhile |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for a, h in zip(out["pages_inproc"], out["pages_http"], strict=True):
        mix = ", ".join(f"{k} {v:g}" for k, v in a["mix"].items())
        lines.append(
            f"| {a['case']} ({a['requests']} requests) | {a['entries']:g} "
            f"| {a['p50_ms']} / **{a['p99_ms']}** | {a['round_trips']:g} "
            f"| {a['commands']:g} ({mix}) | {h['p50_ms']} / **{h['p99_ms']}** "
            f"| {h['commands']:g} | {h['cpu_ms']} | {h['other_cores']} |"
        )
    lines += [
        "",
        'Quick match (`POST /matches` `{"players": 4}`, player keys, gunicorn):',
        "",
        "| run | players | seated | tables (full) | started by the last join | p50 / p99 ms "
        "| wall s | Redis commands / match (most frequent) | CPU ms / match: services, Redis "
        "| cores: services, Redis, this client, others' |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key, label in (("match_one_at_a_time", "one at a time"), ("match_at_once", "all at once")):
        r = out[key]
        refused = f", refused {r['refused']}" if r["refused"] else ""
        mix = ", ".join(f"{k} {v:g}" for k, v in r["mix"].items())
        cores = ", ".join(f"{v:g}" for v in r["cores"].values())
        lines.append(
            f"| {label} | {r['players']:,} | {r['seated']:,}{refused} | {r['tables']} "
            f"({r['full_tables']}) | {r['started_by_last_join']} | {r['p50_ms']} / "
            f"**{r['p99_ms']}** | {r['wall_s']} | {r['commands']:g} "
            f"(EVALSHA {r['evalsha']:g}; {mix}) "
            f"| {r['services_ms']}, {r['redis_ms']} | {cores} |"
        )
    lines += [
        "",
        "`POST /moves` of a 4-seat game, 20 games of 10 moves per row (in-process, Flask "
        "test client and its fast path, the data set's Redis), alternated:",
        "",
        "| seats | moves | round trips | Redis commands (incl. inside Lua) "
        "| Redis µs (read + EVALSHA) |",
        "|---|---|---|---|---|",
    ]
    labels = {
        "names": "no player (seat tokens)",
        "players": "all 4 bound to heavy players (1,000 games each), seat tokens",
        "fresh players": "all 4 bound to new players (empty indexes), seat tokens",
        "player keys": "all 4 bound to heavy players, moved with player keys",
    }
    for r in out["moves"]:
        lines.append(
            f"| {labels[r['mode']]} | {r['posts']} | **{r['round_trips']:g}** "
            f"| {r['commands']:g} | {r['redis_us']:g} |"
        )
    return lines


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
