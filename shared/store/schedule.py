"""The worker's schedule: each game's due time, kept per client so that the worker can
share itself fairly between clients.

A game's client is the ``owner`` it was created with (:func:`client_of`: an API key's
id, or the creator's address without keys). Its due time sits in the client's own sorted
set ``<p>:sched:{<k>}:<client>`` (game id -> due ms), and the client in its shard's index
``<p>:sched:{<k>}`` (client -> a time no later than the earliest due time of its games),
k = crc32(client) % ``WORKER_DUE_SHARDS``: both in one slot, the shards spread over a
Redis Cluster. A game's write sets its entry and lowers its client's (the write script on
a single Redis, see shared/store/documents.py); here the worker claims due games, at most
a few of each client per call, and puts them back (``schedule.lua``: one slot per call,
so it runs on Cluster too).

Why per client: claimed earliest-due-first from one set for everyone, 400 all-bot games
of one client stood ahead of another client's bot move each time it came due (1.6-3.8 s
late, docs/performance.md); now every client with a due game gets a turn in each claim.

May import the store's own modules and redis.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

import redis

from shared.store import replicated
from shared.store.layout import Layout, client_of

SCRIPT = resources.files("shared.store").joinpath("schedule.lua").read_text(encoding="utf-8")

__all__ = ["Claim", "Schedule", "client_of"]


@dataclass
class Claim:
    """A due game the worker claimed: its client, id, claimed score (the lease's end, to
    expect when putting it back) and the shard it was found in (the client's own, but for
    a game found in earlier code's schedule)."""

    client: str
    game_id: str
    score: int
    shard: int


class Schedule(Layout):
    """The schedule's part of :class:`shared.store.gamestore.GameStore`."""

    client: Any
    cluster: bool
    _schedule: Any  # schedule.lua, registered
    replicas: int  # (shared/store/documents.py: REDIS_WAIT_REPLICAS)
    wait_ms: int

    def _claim_args(self, now_ms: int, lease_ms: int, limit: int, per_client: int) -> list[Any]:
        return ["claim", now_ms, lease_ms, limit, per_client]

    @staticmethod
    def _claims(shard: int, reply: list[Any]) -> list[Claim]:
        return [
            Claim(reply[i], reply[i + 1], int(reply[i + 2]), shard) for i in range(0, len(reply), 3)
        ]

    def claim_due(
        self, shard: int, now_ms: int, lease_ms: int, limit: int, per_client: int
    ) -> list[Claim]:
        """At most ``limit`` games of ``shard`` due by ``now_ms``, at most ``per_client``
        of any one client, each claimed for ``lease_ms``; the clients whose earliest due
        game is oldest come first."""
        keys = [self.shard_key(shard), self.old_shard_key(shard)]
        args = self._claim_args(now_ms, lease_ms, limit, per_client)
        return self._claims(shard, self._schedule(keys=keys, args=args))

    def claim_all_due(self, now_ms: int, lease_ms: int, limit: int, per_client: int) -> list[Claim]:
        """:meth:`claim_due` over every shard: one pipelined round trip on a single Redis,
        one call per shard on Cluster (the shards live on different nodes)."""
        if self.cluster:
            found = []
            for shard in range(self.due_shards):
                found += self.claim_due(shard, now_ms, lease_ms, limit, per_client)
            return found
        pipe = self.client.pipeline(transaction=False)
        args = self._claim_args(now_ms, lease_ms, limit, per_client)
        for shard in range(self.due_shards):
            keys = [self.shard_key(shard), self.old_shard_key(shard)]
            self._schedule(keys=keys, args=args, client=pipe)
        found = []
        for shard, reply in enumerate(pipe.execute()):
            found += self._claims(shard, reply)
        return found

    def reschedule(self, claim: Claim, due: int | None, client: str | None = None) -> bool:
        """Move a claimed game to ``due`` (``None``: drop it) unless a write moved it.
        ``client``: the game's own (``client_of`` its document). When the claim found it
        elsewhere (in earlier code's schedule) the entry moves to where its writes put it."""
        client = claim.client if client is None else client
        if (client, self.client_shard(client)) != (claim.client, claim.shard):
            if not self._set(claim, None):
                return False  # a write moved it: its entry is already where it belongs
            if due is not None:
                self.lower_due(client, claim.game_id, due)
            return True
        return self._set(claim, due)

    def hold(self, claim: Claim, now_ms: int, until_ms: int) -> bool:
        """Claim again, until ``until_ms``, a game the worker's own move made due again
        (its next seat a search bot that thinks meanwhile), unless another worker has
        claimed it since: whether it is held (``claim.score`` is then ``until_ms``)."""
        index, key = self.shard_key(claim.shard), self.client_key(claim.shard, claim.client)
        args = ["hold", claim.client, claim.game_id, now_ms, until_ms]
        if not self._schedule(keys=[index, key], args=args):
            return False
        claim.score = until_ms
        return True

    def _set(self, claim: Claim, due: int | None) -> bool:
        index, key = self.shard_key(claim.shard), self.client_key(claim.shard, claim.client)
        args = ["set", claim.client, claim.game_id, claim.score, "" if due is None else int(due)]
        return bool(self._schedule(keys=[index, key], args=args))

    def lower_due(self, client: str, game_id: str, due: int) -> int | None:
        """Move the game's entry earlier only (added if absent): a write's due time on
        Redis Cluster, where the write script cannot reach the schedule's slot. With
        ``REDIS_WAIT_REPLICAS`` it waits for them like the game's write (an entry lost
        in a failover would leave the game's bot or clock unplayed): how many confirmed
        (``None``: none asked for)."""
        key, index = self.schedule_keys(client)
        args = ["lower", client, game_id, int(due)]
        if not self.replicas:
            self._schedule(keys=[index, key], args=args)
            return None
        command = ("EVALSHA", self._schedule.sha, 2, index, key, *args)
        try:
            _, acked = replicated.call_waited(
                self.client, key, self.replicas, self.wait_ms, *command
            )
        except redis.exceptions.NoScriptError:  # not run: loaded, then sent again
            self.client.script_load(self._schedule.script)
            _, acked = replicated.call_waited(
                self.client, key, self.replicas, self.wait_ms, *command
            )
        return int(acked)

    def due_score(self, game_id: str, client: str = "") -> int | None:
        """The game's due time in the schedule (tests and diagnostics)."""
        score = self.client.zscore(self.schedule_keys(client)[0], game_id)
        return None if score is None else int(score)
