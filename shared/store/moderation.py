"""Moderation's keys, common to every service on one Redis (like the player registry):
players' blocks, the operators' report queue, the audit log and suspensions.

- ``players:{<id>}:blocks``: a set, the players ``<id>`` blocked; ``players:{<id>}:blockers``
  the players who blocked ``<id>`` (same slot: one ``SUNION`` gives both directions).
- ``moderation:reports``: a hash, report id -> the report as JSON. Report ids sort by
  time (12 hex digits of ms, then 8 random ones).
- ``moderation:queue:open`` / ``moderation:queue:resolved``: sorted sets (score 0,
  paged by id with ``ZRANGEBYLEX``), the reports of each status, oldest first.
- ``players:{<id>}:reports``: the ids of the reports ``<id>`` filed;
  ``players:{<id>}:named``: the ids of the reports naming ``<id>`` (as the one
  reported, or as a sender in its context), so an erasure finds them.
- ``moderation:audit``: a stream, one entry per operator action (field ``e``: JSON),
  read newest first; capped at :data:`AUDIT_KEPT` entries.
- a suspension: the field ``suspended`` (until, ms) of the player's registry hash;
  ``players:suspending``: the suspended players whose seats the worker has yet to hand
  to the takeover bot (shared/usecases/moderation.py).

Writes that span players (a block, a report) are a few commands on several slots, in one
pipeline: on Redis Cluster a crash between them can leave one side (a block without its
``blockers`` entry): a block is read from both sides, so it still holds one way.

May import the store's own modules (players) and redis.
"""

from __future__ import annotations

from typing import Any

import redis

from shared.store import jsoncodec
from shared.store.players import REGISTRY, registry_key

REPORTS = "moderation:reports"
QUEUE = "moderation:queue"
AUDIT = "moderation:audit"
SUSPENDING = "players:suspending"
AUDIT_KEPT = 1_000_000
AVOIDED = """
local out = {}
for i = 1, #KEYS, 2 do
  local found = redis.call('SUNION', KEYS[i], KEYS[i + 1])
  if #found > 0 then out[#out + 1] = {(i + 1) / 2, found} end
end
return out
"""
STATUSES = ("open", "resolved")


def player_key(player_id: str, what: str) -> str:
    """One of a player's moderation sets (its registry slot)."""
    return f"{REGISTRY}:{{{player_id}}}:{what}"


class Moderation:
    """Moderation's data (see the module's docstring) on one redis-py client."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.cluster = isinstance(client, redis.RedisCluster)
        self._avoided = client.register_script(AVOIDED)

    # -- blocks -----------------------------------------------------------------------

    def block(self, player_id: str, other: str) -> None:
        pipe = self.client.pipeline(transaction=False)
        pipe.sadd(player_key(player_id, "blocks"), other)
        pipe.sadd(player_key(other, "blockers"), player_id)
        pipe.execute()

    def unblock(self, player_id: str, other: str) -> bool:
        pipe = self.client.pipeline(transaction=False)
        pipe.srem(player_key(player_id, "blocks"), other)
        pipe.srem(player_key(other, "blockers"), player_id)
        return bool(pipe.execute()[0])

    def blocks(self, player_id: str) -> list[str]:
        """The players ``player_id`` blocked, sorted."""
        return sorted(self.client.smembers(player_key(player_id, "blocks")))

    def count_blocks(self, player_id: str) -> int:
        return int(self.client.scard(player_key(player_id, "blocks")))

    def avoided(self, player_id: str) -> set[str]:
        """The players ``player_id`` must not meet: those it blocked and those who
        blocked it (one command)."""
        keys = [player_key(player_id, "blocks"), player_key(player_id, "blockers")]
        return set(self.client.sunion(keys))

    def avoided_many(self, player_ids: list[str]) -> dict[str, set[str]]:
        """:meth:`avoided` of each of ``player_ids`` that avoids anyone (a tournament's
        pairing reads all its players' at once): on a single Redis one script that
        answers only the players with blocks, on Redis Cluster (a player's keys in its
        own slot) one pipeline of ``SMEMBERS``."""
        keys = [player_key(p, w) for p in player_ids for w in ("blocks", "blockers")]
        if not keys:
            return {}
        if not self.cluster:
            found = self._avoided(keys=keys)
            return {player_ids[int(i) - 1]: set(members) for i, members in found}
        pipe = self.client.pipeline(transaction=False)
        for key in keys:  # (a cluster pipeline takes no SUNION)
            pipe.smembers(key)
        replies = pipe.execute()
        pairs = zip(replies[::2], replies[1::2], strict=True)
        return {p: set(a) | set(b) for p, (a, b) in zip(player_ids, pairs, strict=True) if a or b}

    def drop_blocks(self, player_id: str) -> None:
        """A deleted player's blocks go, both ways (the others' sets too)."""
        mine = self.client.smembers(player_key(player_id, "blocks"))
        theirs = self.client.smembers(player_key(player_id, "blockers"))
        pipe = self.client.pipeline(transaction=False)
        for other in mine:
            pipe.srem(player_key(other, "blockers"), player_id)
        for other in theirs:
            pipe.srem(player_key(other, "blocks"), player_id)
        pipe.delete(player_key(player_id, "blocks"), player_key(player_id, "blockers"))
        pipe.execute()

    # -- reports ----------------------------------------------------------------------

    def add_report(self, report: dict[str, Any], reporter: str | None, named: set[str]) -> None:
        """Store a new open report filed by ``reporter`` (a player, or ``None``) naming
        the players ``named``."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(REPORTS, report["id"], jsoncodec.dumps_text(report))
        pipe.zadd(f"{QUEUE}:open", {report["id"]: 0})
        if reporter is not None:
            pipe.sadd(player_key(reporter, "reports"), report["id"])
        for player_id in named:
            pipe.sadd(player_key(player_id, "named"), report["id"])
        pipe.execute()

    def count_report(self, reporter: str, window: int, seconds: int) -> int:
        """Count one report of ``reporter`` in the rate window ``window`` (expiring
        after ``seconds``): the reports it filed in that window, this one included."""
        key = player_key(reporter, f"reportrate:{window}")
        pipe = self.client.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, seconds)
        return int(pipe.execute()[0])

    def report(self, report_id: str) -> dict[str, Any] | None:
        raw = self.client.hget(REPORTS, report_id)
        return None if raw is None else dict(jsoncodec.loads(raw))

    def reports(self, report_ids: list[str]) -> list[dict[str, Any]]:
        """The reports of these ids that still exist, in that order."""
        found = self.client.hmget(REPORTS, report_ids) if report_ids else []
        return [dict(jsoncodec.loads(raw)) for raw in found if raw is not None]

    def page(self, status: str, after: str | None, limit: int) -> tuple[list[dict[str, Any]], bool]:
        """Up to ``limit`` reports of ``status`` after the id ``after``, oldest first, and
        whether more follow."""
        low = "-" if after is None else f"({after}"
        ids = self.client.zrangebylex(f"{QUEUE}:{status}", low, "+", start=0, num=limit + 1)
        return self.reports(list(ids[:limit])), len(ids) > limit

    def save_report(self, report: dict[str, Any]) -> None:
        """Write ``report`` back, in the queue of its status."""
        other = "open" if report["status"] == "resolved" else "resolved"
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(REPORTS, report["id"], jsoncodec.dumps_text(report))
        pipe.zrem(f"{QUEUE}:{other}", report["id"])
        pipe.zadd(f"{QUEUE}:{report['status']}", {report["id"]: 0})
        pipe.execute()

    def filed(self, player_id: str) -> list[str]:
        return sorted(self.client.smembers(player_key(player_id, "reports")))

    def naming(self, player_id: str) -> list[str]:
        return sorted(self.client.smembers(player_key(player_id, "named")))

    def drop_reports(self, report_ids: list[str]) -> None:
        if not report_ids:
            return
        pipe = self.client.pipeline(transaction=False)
        pipe.hdel(REPORTS, *report_ids)
        for status in STATUSES:
            pipe.zrem(f"{QUEUE}:{status}", *report_ids)
        pipe.execute()

    def forget_reports(self, player_id: str) -> None:
        """The player's own sets of report ids go."""
        self.client.delete(player_key(player_id, "reports"), player_key(player_id, "named"))

    # -- the audit log ----------------------------------------------------------------

    def audit(self, entry: dict[str, Any]) -> str:
        """Append an operator action; its id (the stream's, time-ordered)."""
        found = self.client.xadd(
            AUDIT, {"e": jsoncodec.dumps_text(entry)}, maxlen=AUDIT_KEPT, approximate=True
        )
        return str(found)

    def audit_page(self, before: str | None, limit: int) -> tuple[list[dict[str, Any]], bool]:
        """Up to ``limit`` audit entries before the id ``before``, newest first, and
        whether more follow."""
        high = "+" if before is None else f"({before}"
        found = self.client.xrevrange(AUDIT, high, "-", count=limit + 1)
        out = [{"id": str(i), **jsoncodec.loads(f["e"])} for i, f in found[:limit]]
        return out, len(found) > limit

    # -- suspensions ------------------------------------------------------------------

    def suspend(self, player_id: str, until_ms: int) -> None:
        """Mark the player suspended until ``until_ms`` and queue its seats for the
        worker (:data:`SUSPENDING`)."""
        self.client.hset(registry_key(player_id), "suspended", str(until_ms))
        self.client.sadd(SUSPENDING, player_id)

    def lift(self, player_id: str) -> bool:
        pipe = self.client.pipeline(transaction=False)
        pipe.hdel(registry_key(player_id), "suspended")
        pipe.srem(SUSPENDING, player_id)
        return bool(pipe.execute()[0])

    def suspending(self) -> list[str]:
        """Suspended players whose seats the worker may still have to take over."""
        return list(self.client.srandmember(SUSPENDING, 20))

    def taken_over(self, player_id: str) -> None:
        self.client.srem(SUSPENDING, player_id)
