"""The player registry, common to every service on one Redis, and each service's index
of a player's games ("my games").

The registry (key prefix ``players``, not a service's prefix, so that one player plays
in both games):

- ``players:{<id>}``: a hash per player: ``name``, ``key`` (the SHA-256 of its player
  key), ``tenant`` (the API key's id that created it; ``""`` without keys), ``ext``
  (the tenant's own reference, ``external_id``), ``created`` (ms), ``webhook`` (its
  webhook registration as JSON, shared/webhooks/players.py; absent when none) and
  ``services`` (the key prefixes of the services it has sat in, comma-separated).
  A deleted player keeps only ``deleted``.
- ``players:ext:{<tenant>}``: a hash per tenant, ``external_id`` -> player id.
- ``players:digest``: the players who want the push digest (shared/store/push.py);
- ``players:erasing``: the deleted players whose games the worker still has to erase
  in some service (shared/usecases/privacy.py).

Each is one key in its own slot, so every registry write is one command (atomic on
Redis Cluster too), but for a create with an ``external_id``: ``HSETNX`` claims the
reference first, then ``HSET`` writes the player; a claim whose player was never
written (a crash between the two) is taken over by the next create that names it.

A service's index of one player's games (its own prefix ``<p>``, the player's hash tag):
``<p>:pl:{<id>}:all``, ``<p>:pl:{<id>}:live`` (open and running games only) and
``<p>:pl:{<id>}:ended:<status>`` (the ended games of one status), sorted sets of game
ids scored by the game's last write in ms; ``<p>:pl:{<id>}:since``: ``0`` when every
ended game of the player is in its ended indexes, else the time (ms) they were first
kept (a player whose games were indexed by code without them: its older ended games
are not there until they expire). The game's own write script keeps them
(shared/store/store.lua) on a single Redis; on a cluster they are in another slot and
one more round trip after the write does (:meth:`touch_members`). Ids whose game
expired are dropped as pages are read.

May import the store's own modules (layout, listing).
"""

from __future__ import annotations

import time
from typing import Any

REGISTRY = "players"
ERASING = "players:erasing"
DIGEST_DUE = "players:digest"
"""The players who want the push digest, by when it is due (shared/store/push.py)."""


def registry_key(player_id: str) -> str:
    return f"{REGISTRY}:{{{player_id}}}"


def external_key(tenant: str) -> str:
    return f"{REGISTRY}:ext:{{{tenant}}}"


def member_keys(prefix: str, player_id: str) -> tuple[str, str]:
    """A player's index of its games in the service with key prefix ``prefix``: all
    of them, and the live ones (one hash slot)."""
    base = f"{prefix}:pl:{{{player_id}}}"
    return f"{base}:all", f"{base}:live"


def ended_keys(prefix: str, player_id: str, status: str) -> tuple[str, str]:
    """A player's index of its ended games of one ``status`` here, and the key saying
    since when those indexes are kept (:func:`member_keys`' slot)."""
    base = f"{prefix}:pl:{{{player_id}}}"
    return f"{base}:ended:{status}", f"{base}:since"


class Registry:
    """The player registry (see the module's docstring) on one redis-py client."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def create(self, player_id: str, fields: dict[str, str], external: str | None) -> str:
        """Store a new player; the id it got. With ``external`` (and ``fields["tenant"]``)
        the tenant's reference is claimed first: if another player holds it, that
        player's id comes back and nothing is written."""
        if external is not None:
            index = external_key(fields["tenant"])
            if not self.client.hsetnx(index, external, player_id):
                held = self.client.hget(index, external)
                if held and self.client.exists(registry_key(held)):
                    return str(held)
                self.client.hset(index, external, player_id)  # a claim left by a crash
        self.client.hset(registry_key(player_id), mapping=fields)
        return player_id

    def forget(self, player_id: str, fields: dict[str, str]) -> None:
        """Delete the player: its fields and its reference go at once (its key stops
        working), a tombstone stays (``deleted``: when), and the player joins the set
        of players whose games the worker erases (:data:`ERASING`)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.delete(registry_key(player_id))
        pipe.hset(registry_key(player_id), "deleted", str(int(time.time() * 1000)))
        pipe.zrem(DIGEST_DUE, player_id)
        if fields.get("ext"):
            pipe.hdel(external_key(fields.get("tenant", "")), fields["ext"])
        pipe.execute()
        self.client.sadd(ERASING, player_id)

    def erasing(self) -> list[str]:
        """Deleted players whose games some service may still name them in."""
        return list(self.client.srandmember(ERASING, 20))

    def erased(self, player_id: str) -> None:
        self.client.srem(ERASING, player_id)

    def get(self, player_id: str) -> dict[str, str] | None:
        found = self.client.hgetall(registry_key(player_id))
        return dict(found) if found else None

    def by_external(self, tenant: str, external: str) -> str | None:
        """The id of the tenant's player named ``external``, if any."""
        found = self.client.hget(external_key(tenant), external)
        return str(found) if found else None

    def webhooks(self, player_ids: list[str]) -> dict[str, str]:
        """The ``webhook`` field (a registration's JSON) of each of these players that has
        one (one pipelined round trip; shared/webhooks/players.py reads it)."""
        pipe = self.client.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hget(registry_key(player_id), "webhook")
        found = pipe.execute() if player_ids else []
        return {p: str(raw) for p, raw in zip(player_ids, found, strict=True) if raw}

    def clock_ms(self) -> int:
        """Redis's own time in ms: the clock the outbox's entry ids are stamped with."""
        seconds, micros = self.client.time()
        return int(seconds) * 1000 + int(micros) // 1000

    def update(self, player_id: str, fields: dict[str, str], drop: tuple[str, ...] = ()) -> None:
        """Set ``fields`` of an existing player and delete ``drop`` (one round trip)."""
        pipe = self.client.pipeline(transaction=False)
        if fields:
            pipe.hset(registry_key(player_id), mapping=fields)
        if drop:
            pipe.hdel(registry_key(player_id), *drop)
        pipe.execute()


class Memberships:
    """A service's index of each player's games: the part of
    :class:`shared.store.gamestore.GameStore` that reads and, on a cluster, writes it."""

    client: Any
    prefix: str
    ended_statuses: tuple[str, ...] = ()
    """The statuses of ended games (the games layer's), one index each."""

    def member_keys(self, player_id: str) -> tuple[str, str]:
        return member_keys(self.prefix, player_id)

    def member_ids(self, player_id: str) -> list[str]:
        """Every game id in the player's index of this service, newest first."""
        return list(self.client.zrevrange(self.member_keys(player_id)[0], 0, -1))

    def live_ids(self, player_id: str) -> list[str]:
        """The open and running game ids in the player's index of this service."""
        return list(self.client.zrevrange(self.member_keys(player_id)[1], 0, -1))

    def drop_members(self, player_id: str) -> None:
        """Delete the player's indexes here."""
        keys = [*self.member_keys(player_id), ended_keys(self.prefix, player_id, "-")[1]]
        keys += [ended_keys(self.prefix, player_id, s)[0] for s in self.ended_statuses]
        self.client.delete(*keys)

    def ended_index(self, player_id: str, status: str, complete_after_s: int) -> str | None:
        """The player's index of its ended games of ``status``, when it holds every one
        (kept since the player's first indexed game, or for longer than
        ``complete_after_s``, the life of an ended game); else ``None``."""
        shelf, since = ended_keys(self.prefix, player_id, status)
        found = self.client.get(since)
        if found is None:
            return None
        if int(found) == 0 or time.time() * 1000 - int(found) > complete_after_s * 1000:
            return shelf
        return None

    def touch_members(self, game_id: str, members: list[tuple[str, str | None]], ttl: int) -> None:
        """What the write script does on a single Redis (for a cluster, after the
        write): each ``(player id, ended)`` gets ``game_id`` at now in its index of all
        games, in or out of its live games' index, and in the index of its ended games
        of status ``ended``."""
        now = int(time.time() * 1000)
        for player_id, ended in members:  # one slot per player: one pipeline each
            every, alive = self.member_keys(player_id)
            shelf, since = ended_keys(self.prefix, player_id, ended or "-")
            pipe = self.client.pipeline(transaction=False)
            pipe.exists(every)
            pipe.zadd(every, {game_id: now})
            if ended is None:
                pipe.zadd(alive, {game_id: now})
            else:
                pipe.zrem(alive, game_id)
                pipe.zadd(shelf, {game_id: now})
            kept = (every, alive, since) if ended is None else (every, alive, shelf, since)
            for key in kept:  # the longest-lived game's ttl (none yet: NX)
                pipe.expire(key, ttl, nx=True)
                pipe.expire(key, ttl, gt=True)
            pipe.get(since)
            replies = pipe.execute()
            if replies[-1] is None:  # the first time: '0' for a new player's indexes
                self.client.set(since, now if replies[0] else 0, nx=True, ex=ttl)
