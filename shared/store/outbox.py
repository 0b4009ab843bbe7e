"""The webhooks' keys (shared/webhooks): each game's outbox stream ``<p>:{<id>}:outbox``
(appended by the write script itself: the transactional outbox) and delivery state
``<p>:{<id>}:whstate`` with one lock per registration, and the ready shards
``<p>:whq:{<k>}`` that tell the workers, through one consumer group, which games have
notifications.

May import the store's own modules (layout, documents, entries, jsoncodec) and redis.
"""

from __future__ import annotations

from typing import Any

import redis.exceptions

from shared.store import jsoncodec
from shared.store.documents import dumps
from shared.store.entries import stream_entries
from shared.store.layout import Layout

UNLOCK = """
if redis.call('GET', KEYS[1]) ~= ARGV[2] then return 0 end
if ARGV[1] == 'renew' then return redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return redis.call('DEL', KEYS[1])
"""
APPEND = """
if redis.call('XLEN', KEYS[1]) + #ARGV - 2 > tonumber(ARGV[1]) then return false end
local ids = {}
for j = 3, #ARGV do ids[#ids + 1] = redis.call('XADD', KEYS[1], '*', 'n', ARGV[j]) end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return ids
"""

ONCE = """
if redis.call('HGET', KEYS[2], ARGV[1]) == ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('XADD', KEYS[1], '*', 'n', ARGV[4])
for _, key in ipairs(KEYS) do
  redis.call('EXPIRE', key, ARGV[3], 'NX')
  redis.call('EXPIRE', key, ARGV[3], 'GT')
end
return 1
"""


class Outbox(Layout):
    """The webhooks' part of :class:`shared.store.gamestore.GameStore`."""

    client: Any
    cluster: bool
    _unlock: Any  # UNLOCK, registered
    _append: Any  # APPEND, registered
    _once: Any  # ONCE, registered

    def signal_ready(self, game_id: str) -> None:
        """Tell the worker the game has notifications (outside the game's write)."""
        self.client.xadd(self.ready_key(game_id), {"g": game_id})

    def outbox_append(
        self, game_id: str, notes: list[dict[str, Any]], ttl: int, cap: int
    ) -> list[str] | None:
        """Append notifications outside a game write (``webhook.test``); their ids, or
        ``None`` (nothing appended) when the outbox would then hold more than ``cap``."""
        args = [cap, ttl, *(dumps(note) for note in notes)]
        ids = self._append(keys=[self.outbox_key(game_id)], args=args)
        if ids is None:
            return None
        self.signal_ready(game_id)
        return [str(i) for i in ids]

    def outbox_once(
        self, game_id: str, mark: tuple[str, str], note: dict[str, Any], ttl: int
    ) -> bool:
        """Append a notification the worker makes (``clock_low``) unless the delivery
        state's field ``mark[0]`` already holds ``mark[1]`` (it was made before), and
        signal the game ready; whether it was appended."""
        keys = [self.outbox_key(game_id), self.webhook_state_key(game_id)]
        if not self._once(keys=keys, args=[mark[0], mark[1], ttl, dumps(note)]):
            return False
        self.signal_ready(game_id)
        return True

    def outbox_forget(self, game_id: str, entry_ids: list[str], fields: list[str]) -> None:
        """Delete handled notifications from the outbox and ``fields`` (their delivery
        records, cursors of registrations gone) from the delivery state, together."""
        pipe = self.client.pipeline(transaction=not self.cluster)
        for start in range(0, len(entry_ids), 500):
            pipe.xdel(self.outbox_key(game_id), *entry_ids[start : start + 500])
        for start in range(0, len(fields), 500):
            pipe.hdel(self.webhook_state_key(game_id), *fields[start : start + 500])
        pipe.execute()

    def outbox_entries(
        self, game_id: str, after: str = "-", count: int = 100
    ) -> list[tuple[str, dict[str, Any]]]:
        """Notifications after stream id ``after`` (exclusive; ``-``: from the start)."""
        start = after if after == "-" else f"({after}"
        entries = self.client.xrange(self.outbox_key(game_id), start, "+", count=count)
        return [(entry_id, jsoncodec.loads(fields["n"])) for entry_id, fields in entries]

    def outbox_recent(self, game_id: str, count: int) -> list[tuple[str, dict[str, Any]]]:
        """The last ``count`` notifications, newest first."""
        entries = self.client.xrevrange(self.outbox_key(game_id), "+", "-", count=count)
        return [(entry_id, jsoncodec.loads(fields["n"])) for entry_id, fields in entries]

    # -- delivery state ----------------------------------------------------------------

    def webhook_state(self, game_id: str) -> dict[str, str]:
        return dict(self.client.hgetall(self.webhook_state_key(game_id)))

    def webhook_fields(self, game_id: str, fields: list[str]) -> list[str | None]:
        """Some fields of the delivery state (``None`` for those missing)."""
        return list(self.client.hmget(self.webhook_state_key(game_id), fields))

    def webhook_state_set(self, game_id: str, fields: dict[str, str], ttl: int) -> None:
        key = self.webhook_state_key(game_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(key, mapping=fields)
        pipe.expire(key, ttl)
        pipe.execute()

    def webhook_lock(self, game_id: str, reg_id: str, owner: str, ms: int) -> bool:
        """Hold the deliveries of one registration for ``ms`` (renewable by the same
        ``owner``): only the holder sends them, so they go out in order."""
        key = f"{self.webhook_state_key(game_id)}:lock:{reg_id}"
        if self.client.set(key, owner, nx=True, px=ms):
            return True
        return bool(self._unlock(keys=[key], args=["renew", owner, ms]))

    def webhook_unlock(self, game_id: str, reg_id: str, owner: str) -> None:
        key = f"{self.webhook_state_key(game_id)}:lock:{reg_id}"
        self._unlock(keys=[key], args=["release", owner, 0])

    # -- the ready shards --------------------------------------------------------------

    def ready_group(self, shard: int, group: str) -> None:
        """Create the consumer group of a ready shard (and the stream) if missing."""
        try:
            self.client.xgroup_create(self.ready_shard(shard), group, id="0", mkstream=True)
        except redis.exceptions.ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise

    def ready_read_all(
        self, group: str, consumer: str, count: int, idle_ms: int
    ) -> list[tuple[int, str, str]]:
        """Ready entries ``(shard, entry id, game id)`` of every shard for ``consumer``:
        first those another consumer held longer than ``idle_ms`` (XAUTOCLAIM: a dead or
        slow worker, or a game waiting for its backoff), then new ones (XREADGROUP).
        One pipelined round trip on a single Redis; a missing group is created."""
        try:
            return self._ready_read_all(group, consumer, count, idle_ms)
        except redis.exceptions.ResponseError as error:
            if "NOGROUP" not in str(error):
                raise
        for shard in range(self.due_shards):
            self.ready_group(shard, group)
        return self._ready_read_all(group, consumer, count, idle_ms)

    def _ready_read_all(
        self, group: str, consumer: str, count: int, idle_ms: int
    ) -> list[tuple[int, str, str]]:
        pipe = self.client.pipeline(transaction=False)
        for shard in range(self.due_shards):
            key = self.ready_shard(shard)
            pipe.xautoclaim(key, group, consumer, idle_ms, "0-0", count=count)
            pipe.xreadgroup(group, consumer, {key: ">"}, count=count)
        replies = pipe.execute()
        found: list[tuple[int, str, str]] = []
        for shard in range(self.due_shards):
            claimed, fresh = replies[2 * shard], replies[2 * shard + 1]
            found += [(shard, i, f["g"]) for i, f in claimed[1] if f]
            found += [(shard, i, f["g"]) for i, f in stream_entries(fresh)]
        return found

    def ready_done(self, shard: int, group: str, entry_ids: list[str]) -> None:
        """Acknowledge and delete handled ready entries."""
        if entry_ids:
            pipe = self.client.pipeline(transaction=False)
            pipe.xack(self.ready_shard(shard), group, *entry_ids)
            pipe.xdel(self.ready_shard(shard), *entry_ids)
            pipe.execute()
