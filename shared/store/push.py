"""A player's Web Push subscriptions and settings (shared/push), in its registry hash
``players:{<id>}`` (shared/store/players.py): ``push`` holds the settings as JSON and
``push:<subscription id>`` each subscription as JSON, so two devices subscribing at
once never lose one, and ``DELETE /players/me`` (one ``DEL`` of the hash) takes them
all. The per-player rate counters are ``players:{<id>}:pushrate:<window>``
(:func:`shared.store.layout.push_rate_key`). ``players:digest`` is the sorted set of
the players who want the daily digest, each scored by when its next one is due (ms):
the worker claims the due ones by moving them a lease ahead, and sets the next due time
once it has sent (or skipped) one.

May import the store's own modules (layout, players).
"""

from __future__ import annotations

from typing import Any

from shared.store.layout import push_rate_key
from shared.store.players import DIGEST_DUE, registry_key

SETTINGS = "push"
SUBSCRIPTION = "push:"
"""The prefix of a subscription's field: ``push:<subscription id>``."""


def push_fields(fields: dict[str, str]) -> dict[str, str]:
    """The push fields among a player's registry fields."""
    return {k: v for k, v in fields.items() if k == SETTINGS or k.startswith(SUBSCRIPTION)}


_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], member) end
return due
"""


class PushRegistry:
    """The push part of the player registry, on one redis-py client."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def of_players(self, player_ids: list[str]) -> dict[str, dict[str, str]]:
        """The push fields of each of these players that has a subscription (one
        pipelined round trip)."""
        pipe = self.client.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hgetall(registry_key(player_id))
        found = pipe.execute() if player_ids else []
        out = {}
        for player_id, fields in zip(player_ids, found, strict=True):
            mine = push_fields(dict(fields or {}))
            if any(k.startswith(SUBSCRIPTION) for k in mine):
                out[player_id] = mine
        return out

    def drop(self, player_id: str, sub_id: str) -> bool:
        """Delete one subscription; whether it was there."""
        return bool(self.client.hdel(registry_key(player_id), SUBSCRIPTION + sub_id))

    def count(self, player_id: str, window: int, ttl: int, step: int = 1) -> int:
        """Count ``step`` pushes in the player's window ``window`` (-1: give back one
        that did not go out); the count so far."""
        key = push_rate_key(player_id, window)
        pipe = self.client.pipeline(transaction=False)
        pipe.incrby(key, step)
        pipe.expire(key, ttl)
        return int(pipe.execute()[0])

    def digest_plan(self, player_id: str, due_ms: int | None) -> None:
        """Put the player in the digest's set, due at ``due_ms`` unless it is there
        already; ``None``: take it out."""
        if due_ms is None:
            self.client.zrem(DIGEST_DUE, player_id)
        else:
            self.client.zadd(DIGEST_DUE, {player_id: due_ms}, nx=True)

    def digest_at(self, player_id: str, due_ms: int) -> None:
        """The player's next digest is due at ``due_ms`` (if it still wants one)."""
        self.client.zadd(DIGEST_DUE, {player_id: due_ms}, xx=True)

    def digest_claim(self, now_ms: int, lease_ms: int, count: int) -> list[str]:
        """At most ``count`` players whose digest is due, each moved to ``now_ms +
        lease_ms`` (one script: two workers never claim the same player at once; one
        that dies leaves it due again after the lease)."""
        found = self.client.eval(_CLAIM, 1, DIGEST_DUE, now_ms, now_ms + lease_ms, count)
        return [str(p) for p in found]
