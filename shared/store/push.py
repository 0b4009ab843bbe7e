"""A player's Web Push subscriptions and settings (shared/push), in its registry hash
``players:{<id>}`` (shared/store/players.py): ``push`` holds the settings as JSON and
``push:<subscription id>`` each subscription as JSON, so two devices subscribing at
once never lose one, and ``DELETE /players/me`` (one ``DEL`` of the hash) takes them
all. The per-player rate counters are ``players:{<id>}:pushrate:<window>``
(:func:`shared.store.layout.push_rate_key`).

May import the store's own modules (layout, players).
"""

from __future__ import annotations

from typing import Any

from shared.store.layout import push_rate_key
from shared.store.players import registry_key

SETTINGS = "push"
SUBSCRIPTION = "push:"
"""The prefix of a subscription's field: ``push:<subscription id>``."""


def push_fields(fields: dict[str, str]) -> dict[str, str]:
    """The push fields among a player's registry fields."""
    return {k: v for k, v in fields.items() if k == SETTINGS or k.startswith(SUBSCRIPTION)}


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

    def count(self, player_id: str, window: int, ttl: int) -> int:
        """Count one push in the player's window ``window``; the count so far."""
        key = push_rate_key(player_id, window)
        pipe = self.client.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, ttl)
        return int(pipe.execute()[0])
