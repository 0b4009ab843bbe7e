"""Where things live in Redis: the key names of one service's store (docs/architecture.md,
"Redis layout"), in one place for every part of the store.

Keys of one game share the ``{id}`` hash tag (``<p>:{<id>}:game|events|tail|hist``,
its outbox and webhook state) so the write script touches a single slot and also runs on
Redis Cluster. The listing index ``<p>:games`` and the worker's and the webhooks'
shards (``<p>:sched:{<k>}``, ``<p>:whq:{<k>}``, each shard its own hash tag) live in other
slots. The status sets' keys are :class:`shared.store.status.Tracking`'s.

The worker's schedule is kept per client, so that one client's many due games cannot
hold up another's (shared/store/schedule.py): ``<p>:sched:{<k>}`` holds the clients of
shard k (k = crc32(client) % shards) with due games, ``<p>:sched:{<k>}:<client>`` that
client's games. A game's client is its ``owner`` (:func:`client_of`).

May import nothing but the standard library.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

DUE_SHARDS = 16


class Layout:
    """The key names of the games of one service (key prefix ``prefix``)."""

    def __init__(self, prefix: str, due_shards: int = DUE_SHARDS) -> None:
        self.prefix = prefix
        self.due_shards = due_shards
        self.index_key = f"{prefix}:games"

    def keys(self, game_id: str) -> tuple[str, str, str, str]:
        """The game's document, events, history tail and archive (one hash slot)."""
        base = f"{self.prefix}:{{{game_id}}}"
        return f"{base}:game", f"{base}:events", f"{base}:tail", f"{base}:hist"

    def legacy_keys(self, game_id: str) -> tuple[str, str]:
        """The moves list and idempotency hash of a game written by older code."""
        base = f"{self.prefix}:{{{game_id}}}"
        return f"{base}:moves", f"{base}:idem"

    def chat_keys(self, game_id: str) -> tuple[str, str]:
        """The game's chat stream and its readers' mutes (same hash tag as the game;
        shared/store/chat.py)."""
        base = f"{self.prefix}:{{{game_id}}}"
        return f"{base}:chat", f"{base}:mutes"

    def ring_key(self, game_id: str) -> str:
        """A delayed game's ring of documents (shared/games/spectate.py; same hash tag)."""
        return f"{self.prefix}:{{{game_id}}}:watch"

    def counter_key(self, game_id: str, counter: str) -> str:
        """A rate-limit window's counter of the game (same hash tag as the game)."""
        return f"{self.prefix}:{{{game_id}}}:rl:{counter}"

    def outbox_key(self, game_id: str) -> str:
        """The game's webhook outbox stream (same hash tag as the game); a tournament's
        (``game_id`` its address, :func:`tournament_address`) beside its document."""
        return f"{self._hooks_base(game_id)}:outbox"

    def webhook_state_key(self, game_id: str) -> str:
        """The game's delivery state hash: cursors, attempts, statuses, the lock."""
        return f"{self._hooks_base(game_id)}:whstate"

    def _hooks_base(self, game_id: str) -> str:
        if game_id.startswith(TOURNAMENT_ADDRESS):  # <p>:tn:{<id>}, the document's slot
            return f"{self.prefix}:tn:{{{game_id[len(TOURNAMENT_ADDRESS) :]}}}"
        return f"{self.prefix}:{{{game_id}}}"

    def shard_of(self, game_id: str) -> int:
        """The game's shard (k = crc32(id) % shards) among the webhooks' ready shards."""
        return zlib.crc32(game_id.encode()) % self.due_shards

    def schedule_keys(self, client: str) -> tuple[str, str]:
        """The due times of one client's games and its shard's index of clients:
        ``<p>:sched:{<k>}:<client>`` and ``<p>:sched:{<k>}``, k = crc32(client) % shards
        (each shard its own hash tag, so the shards spread over a cluster's nodes, and
        a client's keys share one slot)."""
        return self.client_key(self.client_shard(client), client), self.shard_key(
            self.client_shard(client)
        )

    def client_shard(self, client: str) -> int:
        """The shard of the schedule a client's games live in (crc32(client) % shards)."""
        return zlib.crc32(client.encode()) % self.due_shards

    def client_key(self, shard: int, client: str) -> str:
        """The due times of ``client``'s games in shard ``shard`` (its own shard, or
        shard k for games the worker found in earlier code's shard k)."""
        return f"{self.shard_key(shard)}:{client}"

    def shard_key(self, shard: int) -> str:
        """The index of the clients with due games in shard ``shard``."""
        return f"{self.prefix}:sched:{{{shard}}}"

    def old_shard_key(self, shard: int) -> str:
        """Shard ``shard`` of the schedule as earlier code kept it (game id -> due ms,
        one set for every client): the worker moves what it finds there (same slot)."""
        return f"{self.prefix}:due:{{{shard}}}"

    def ready_key(self, game_id: str) -> str:
        """The ready-stream shard that tells the worker a game has notifications."""
        return self.ready_shard(self.shard_of(game_id))

    def ready_shard(self, shard: int) -> str:
        return f"{self.prefix}:whq:{{{shard}}}"


TOURNAMENT_ADDRESS = "tn:"
"""What the webhooks' outbox, delivery state and ready entries call a tournament:
``tn:<tournament id>`` where they name a game by its id (no game id has a colon)."""


def tournament_address(tid: str) -> str:
    return TOURNAMENT_ADDRESS + tid


ADDRESS_OWNER = "addr:"
"""The ``owner`` of a game created without an API key: ``addr:`` and the creator's
address (a key's id is what the keys file says; the admin command makes hex ids)."""


def address_owner(address: str) -> str:
    """The ``owner`` of a game a client at ``address`` created without a key."""
    return ADDRESS_OWNER + address


def key_owner(owner: str | None) -> str | None:
    """The API key's id a game's ``owner`` names, or ``None`` (an address, or none)."""
    return None if owner is None or owner.startswith(ADDRESS_OWNER) else owner


def client_of(doc: Mapping[str, Any]) -> str:
    """Whose game it is for the worker's fair share: the ``owner`` the game was created
    with (an API key's id, or ``addr:<address>`` without keys); ``""`` for a game
    created without one (in-process, or by older code)."""
    owner = doc.get("owner")
    return owner if isinstance(owner, str) else ""


def push_rate_key(player_id: str, window: int) -> str:
    """The pushes sent to a player in rate window ``window`` (shared/push/sending.py),
    beside the player's registry hash (its hash tag, so one slot)."""
    return f"players:{{{player_id}}}:pushrate:{window}"
