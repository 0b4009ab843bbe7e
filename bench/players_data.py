"""bench.players, the data set: the registry (players made through ``players.create`` on
a pipelined registry), the real games and their seats, the bulk memberships written
straight into the players' indexes, and what the index keys hold."""

from __future__ import annotations

import collections
import random
import time
from typing import Any

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
        doc, _, _ = games.lifecycle.create({"players": 4, "start": "when_full"})
        for k, p in enumerate(who):
            games.lifecycle.join(doc["id"], f"Seat {k}", player=PlayerRef(made[p][0]))
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
