"""The status index and API-key quotas: a sorted set per status of the game ids in it,
scored by when they entered it (the games-by-status gauge), and per API key its own
listing index, a set of its live (open or running) games and a log of its recent
creations (shared/http/middleware/apikeys.py).

They live outside the games' hash slots, so they are written by a pipeline after the
game's own write (like the listing index); a game whose document expired is pruned from
them when they are read.

May import the store's own modules (errors, layout; the game store's type only).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from shared.store.analyses import todo_key
from shared.store.errors import StoreError
from shared.store.layout import key_owner

if TYPE_CHECKING:
    from shared.store.gamestore import GameStore

log = logging.getLogger(__name__)

LIVE_STATUSES = ("open", "running")
OVER_STATUSES = ("finished", "cancelled")
_PRUNE_BATCH = 200


class Tracking:
    """The status sets and per-key sets of one :class:`~shared.store.gamestore.GameStore`
    (its ``tracking``)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.client = store.client
        self.prefix = store.prefix

    def status_key(self, status: str) -> str:
        return f"{self.prefix}:status:{status}"

    def owner_index(self, owner: str) -> str:
        """The listing index of one API key's games (like ``<p>:games``)."""
        return f"{self.prefix}:key:{owner}:games"

    def owner_live(self, owner: str) -> str:
        return f"{self.prefix}:key:{owner}:live"

    def owner_created(self, owner: str) -> str:
        return f"{self.prefix}:key:{owner}:created"

    def moved(
        self,
        game_id: str,
        old: str | None,
        new: str,
        owner: str | None,
        created_us: int | None = None,
        max_age_s: int = 0,
    ) -> None:
        """Record that a game went from ``old`` (``None``: created) to ``new``: one round
        trip. A created game also joins its owner's listing index and live set (an API
        key's: a game owned by an address has neither).

        Bookkeeping only: the game's own write already happened, so a failure here is
        logged, never raised (the status sets are pruned and corrected as they are read).
        """
        try:
            self._moved(game_id, old, new, owner, created_us, max_age_s)
        except StoreError as error:
            log.warning("status bookkeeping of %s failed: %s", game_id, error)

    def _moved(
        self,
        game_id: str,
        old: str | None,
        new: str,
        owner: str | None,
        created_us: int | None,
        max_age_s: int,
    ) -> None:
        now_s = time.time()
        owner = key_owner(owner)  # an address owner has no listing or quota of its own
        pipe = self.client.pipeline(transaction=False)
        if old is not None:
            pipe.zrem(self.status_key(old), game_id)
        pipe.zadd(self.status_key(new), {game_id: now_s})
        if new == "finished" and old != "finished":  # the worker analyses it (analyses.py)
            pipe.zadd(todo_key(self.prefix), {game_id: now_s}, nx=True)
        if owner is not None:
            if old is None and created_us is not None:
                index = self.owner_index(owner)
                pipe.zadd(index, {game_id: created_us})
                pipe.zremrangebyscore(index, "-inf", created_us - max_age_s * 1_000_000)
                pipe.zadd(self.owner_live(owner), {game_id: now_s})
            if new in OVER_STATUSES:
                pipe.zrem(self.owner_live(owner), game_id)
        pipe.execute()

    def forget_created(self, game_id: str, owner: str | None) -> None:
        """Undo what creating an open game recorded outside its own keys (the listing
        index, the open set, its API key's listing and live set): for a game discarded
        right after its creation (a rematch that lost its race). One round trip."""
        owner = key_owner(owner)
        pipe = self.client.pipeline(transaction=False)
        pipe.zrem(self.store.index_key, game_id)
        pipe.zrem(self.status_key("open"), game_id)
        if owner is not None:
            pipe.zrem(self.owner_index(owner), game_id)
            pipe.zrem(self.owner_live(owner), game_id)
        pipe.execute()

    def _prune_gone(self, key: str, older_than: float) -> None:
        """Drop members of ``key`` scored before ``older_than`` whose game document is
        gone (expired); the ones still there are rescored to now (not checked again
        soon). Two round trips, only when there are such members."""
        old = self.client.zrangebyscore(key, "-inf", older_than, start=0, num=_PRUNE_BATCH)
        if not old:
            return
        pipe = self.client.pipeline(transaction=False)
        for game_id in old:
            pipe.exists(self.store.keys(game_id)[0])
        alive = pipe.execute()
        gone = [gid for gid, there in zip(old, alive, strict=True) if not there]
        kept = {gid: time.time() for gid, there in zip(old, alive, strict=True) if there}
        pipe = self.client.pipeline(transaction=False)
        if gone:
            pipe.zrem(key, *gone)
        if kept:
            pipe.zadd(key, kept, xx=True)
        pipe.execute()

    def status_counts(self, ttl_idle: int, ttl_finished: int) -> dict[str, int]:
        """Games stored now by status: over games expire ``ttl_finished`` after they
        ended; live ones are checked once they are ``ttl_idle`` old."""
        now_s = time.time()
        for status in LIVE_STATUSES:
            self._prune_gone(self.status_key(status), now_s - ttl_idle)
        pipe = self.client.pipeline(transaction=False)
        for status in OVER_STATUSES:
            pipe.zremrangebyscore(self.status_key(status), "-inf", now_s - ttl_finished)
        for status in (*LIVE_STATUSES, *OVER_STATUSES):
            pipe.zcard(self.status_key(status))
        replies = pipe.execute()[len(OVER_STATUSES) :]
        return dict(zip((*LIVE_STATUSES, *OVER_STATUSES), map(int, replies), strict=True))

    def reserve(
        self, owner: str, member: str, window_s: int, settle_s: float
    ) -> tuple[int, float | None, int]:
        """Reserve one creation for ``owner`` (``member``: unique per request): counts
        it in the key's creation log (the last ``window_s`` seconds) and holds a place in
        its live set. Returns the creations in the window (this one included), the
        oldest one's time and the live games (this one included). Placeholders older
        than ``settle_s`` whose game never appeared are pruned first."""
        now_s = time.time()
        live_key, created_key = self.owner_live(owner), self.owner_created(owner)
        self._prune_gone(live_key, now_s - settle_s)
        pipe = self.client.pipeline(transaction=False)
        pipe.zremrangebyscore(created_key, "-inf", now_s - window_s)
        pipe.zadd(created_key, {member: now_s})
        pipe.zcard(created_key)
        pipe.zrange(created_key, 0, 0, withscores=True)
        pipe.expire(created_key, window_s + 60)
        pipe.zadd(live_key, {member: now_s})
        pipe.zcard(live_key)
        replies = pipe.execute()
        oldest = replies[3][0][1] if replies[3] else None
        return int(replies[2]), oldest, int(replies[6])

    def release(self, owner: str, member: str, *, creation: bool) -> None:
        """Give back a reservation's live place (and, with ``creation``, its count)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zrem(self.owner_live(owner), member)
        if creation:
            pipe.zrem(self.owner_created(owner), member)
        pipe.execute()
