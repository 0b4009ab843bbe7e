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
- ``players:erasing``: the deleted players whose games the worker still has to erase
  in some service (shared/games/privacy.py).

Each is one key in its own slot, so every registry write is one command (atomic on
Redis Cluster too), but for a create with an ``external_id``: ``HSETNX`` claims the
reference first, then ``HSET`` writes the player; a claim whose player was never
written (a crash between the two) is taken over by the next create that names it.

A service's index of one player's games (its own prefix ``<p>``, the player's hash tag):
``<p>:pl:{<id>}:all`` and ``<p>:pl:{<id>}:live`` (open and running games only), sorted
sets of game ids scored by the game's last write in ms. The game's own write script
keeps them (shared/store/store.lua) on a single Redis; on a cluster they are in
another slot and one more round trip after the write does (:meth:`touch_members`).
Ids whose game expired are dropped as pages are read.

May import the store's own modules (layout, listing).
"""

from __future__ import annotations

import time
from typing import Any

REGISTRY = "players"
ERASING = "players:erasing"


def registry_key(player_id: str) -> str:
    return f"{REGISTRY}:{{{player_id}}}"


def external_key(tenant: str) -> str:
    return f"{REGISTRY}:ext:{{{tenant}}}"


def member_keys(prefix: str, player_id: str) -> tuple[str, str]:
    """A player's index of its games in the service with key prefix ``prefix``: all
    of them, and the live ones (one hash slot)."""
    base = f"{prefix}:pl:{{{player_id}}}"
    return f"{base}:all", f"{base}:live"


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

    def member_keys(self, player_id: str) -> tuple[str, str]:
        return member_keys(self.prefix, player_id)

    def member_ids(self, player_id: str) -> list[str]:
        """Every game id in the player's index of this service, newest first."""
        return list(self.client.zrevrange(self.member_keys(player_id)[0], 0, -1))

    def drop_members(self, player_id: str) -> None:
        self.client.delete(*self.member_keys(player_id))

    def touch_members(self, game_id: str, members: list[tuple[str, bool]], ttl: int) -> None:
        """What the write script does on a single Redis (for a cluster, after the
        write): each ``(player id, live)`` gets ``game_id`` at now in its index of all
        games, and in or out of its live games' index."""
        now = int(time.time() * 1000)
        for player_id, live in members:  # one slot per player: one pipeline each
            every, alive = self.member_keys(player_id)
            pipe = self.client.pipeline(transaction=False)
            pipe.zadd(every, {game_id: now})
            if live:
                pipe.zadd(alive, {game_id: now})
            else:
                pipe.zrem(alive, game_id)
            for key in (every, alive):  # the longest-lived game's ttl (none yet: NX)
                pipe.expire(key, ttl, nx=True)
                pipe.expire(key, ttl, gt=True)
            pipe.execute()
