"""The tournaments of one service: each a JSON document written by compare-and-set, a
listing and the worker's schedule of them.

- ``<p>:tn:{<id>}``: a hash, ``v`` (the version, 1 up) and ``doc`` (the tournament's
  JSON, shared/usecases/tournaments.py); written only by :meth:`Tournaments.swap`, a
  compare-and-set on ``v`` (one script, one slot), so two workers or a worker and a
  request never both write the same version;
- ``<p>:tournaments``: a sorted set, id -> creation time in ms (the list, newest first);
- ``<p>:tn:due``: a sorted set, id -> when the worker looks at it next (ms). An id
  leaves it only once its tournament is over;
- ``<p>:tn:{<id>}:lease``: the worker copy looking at it now (``SET NX PX``): spreads
  the work, while the compare-and-set alone keeps every step once;
- ``<p>:tn:{<id>}:rows``: a hash, game id -> the result rows of a game of it found over
  (each game's document is decoded once, not at every look at its round);
- ``<p>:tn:{<id>}:outbox`` and ``:whstate``: its webhook's notifications, appended by the
  same script as the write that made them (a transactional outbox, as a game's), and
  their delivery state; the webhooks' ready shards name it ``tn:<id>``
  (shared/store/layout.py), so the worker's one delivery queue sends them.

May import the standard library, redis and the store's layout and JSON codec.
"""

from __future__ import annotations

from typing import Any

import redis

from shared.store import jsoncodec
from shared.store.layout import Layout, tournament_address

SWAP = """
local v = redis.call('HGET', KEYS[1], 'v')
if (v or '0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'doc', ARGV[3])
if ARGV[4] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
if #ARGV > 6 then
  for j = 7, #ARGV do redis.call('XADD', KEYS[2], '*', 'n', ARGV[j]) end
  redis.call('EXPIRE', KEYS[2], ARGV[5])
  if KEYS[3] then redis.call('XADD', KEYS[3], '*', 'g', ARGV[6]) end
end
return 1
"""
NOTES_TTL = 40 * 86400
"""How long a tournament's outbox outlives its last notification (its document is kept
30 days once over)."""


class Tournaments:
    """The tournaments' keys of one service (key prefix ``prefix``)."""

    def __init__(self, client: Any, prefix: str, hooks: Layout | None = None) -> None:
        self.client = client
        self.prefix = prefix
        self.hooks = hooks or Layout(prefix)
        self.cluster = isinstance(client, redis.RedisCluster)
        self.index = f"{prefix}:tournaments"
        self.due_key = f"{prefix}:tn:due"
        self._swap = client.register_script(SWAP)

    def key(self, tid: str) -> str:
        return f"{self.prefix}:tn:{{{tid}}}"

    def version(self, tid: str) -> int:
        """The tournament's version alone (0 when there is none): an ETag's check."""
        return int(self.client.hget(self.key(tid), "v") or 0)

    def read(self, tid: str) -> tuple[dict[str, Any] | None, int]:
        """The tournament and its version (``None, 0`` when there is none)."""
        version, raw = self.client.hmget(self.key(tid), ["v", "doc"])
        if raw is None:
            return None, 0
        return jsoncodec.loads(raw), int(version)

    def swap(
        self,
        tid: str,
        version: int,
        doc: dict[str, Any],
        ttl_ms: int = 0,
        notes: list[dict[str, Any]] | None = None,
    ) -> bool:
        """Write ``doc`` as version ``version + 1`` if ``version`` is still the stored one
        (0: create it), and append ``notes`` (webhook notifications) to its outbox in the
        same script, signalling the webhooks' ready shard (on Redis Cluster, in another
        slot, one more round trip after it); whether it was written."""
        text = jsoncodec.dumps(doc)
        address = tournament_address(tid)
        keys = [self.key(tid), self.hooks.outbox_key(address)]
        if notes and not self.cluster:
            keys.append(self.hooks.ready_key(address))
        args = [version, version + 1, text, ttl_ms, NOTES_TTL, address]
        args += [jsoncodec.dumps(n) for n in notes or []]
        written = bool(self._swap(keys=keys, args=args))
        if written and notes and self.cluster:
            self.client.xadd(self.hooks.ready_key(address), {"g": address})
        return written

    def known_rows(self, tid: str, game_ids: list[str]) -> dict[str, Any]:
        """The kept result rows (:meth:`keep_rows`) of those of ``game_ids`` that have
        some (one ``HMGET``)."""
        if not game_ids:
            return {}
        found = self.client.hmget(f"{self.key(tid)}:rows", game_ids)
        return {g: jsoncodec.loads(raw) for g, raw in zip(game_ids, found, strict=True) if raw}

    def keep_rows(self, tid: str, rows: dict[str, Any]) -> None:
        """Keep the result rows of games found over (``<p>:tn:{<id>}:rows``, game id ->
        JSON): a finished game's rows never change, so any copy may write them."""
        key = f"{self.key(tid)}:rows"
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(key, mapping={g: jsoncodec.dumps(r) for g, r in rows.items()})
        pipe.expire(key, NOTES_TTL)
        pipe.execute()

    def listed(self, tid: str, created_ms: int) -> None:
        self.client.zadd(self.index, {tid: created_ms})

    def page(self, limit: int, before_ms: float | None) -> list[tuple[str, int]]:
        """Ids newest first, created before ``before_ms`` (``None``: from the newest)."""
        top = f"({before_ms}" if before_ms is not None else "+inf"
        found = self.client.zrevrangebyscore(
            self.index, top, "-inf", start=0, num=limit, withscores=True
        )
        return [(tid.decode() if isinstance(tid, bytes) else tid, int(s)) for tid, s in found]

    def schedule(self, tid: str, at_ms: int) -> None:
        self.client.zadd(self.due_key, {tid: at_ms})

    def unschedule(self, tid: str) -> None:
        self.client.zrem(self.due_key, tid)

    def due(self, now_ms: int, limit: int = 50) -> list[str]:
        found = self.client.zrangebyscore(self.due_key, "-inf", now_ms, start=0, num=limit)
        return [t.decode() if isinstance(t, bytes) else t for t in found]

    def lease(self, tid: str, owner: str, ms: int) -> bool:
        """Take the worker's lease on ``tid`` for ``ms`` (refused while another holds it)."""
        return bool(self.client.set(f"{self.key(tid)}:lease", owner, nx=True, px=ms))

    def release(self, tid: str, owner: str) -> None:
        key = f"{self.key(tid)}:lease"
        held = self.client.get(key)
        if held is not None and (held.decode() if isinstance(held, bytes) else held) == owner:
            self.client.delete(key)
