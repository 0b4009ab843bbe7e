"""Ratings and leaderboards in Redis (the numbers are the games layer's:
shared/games/ratings.py).

- A player's rating for one game lives in its registry hash (``players:{<id>}``,
  shared/store/players.py): ``<game>:mu``, ``<game>:sigma``, ``<game>:n`` (rated games)
  and ``<game>:won`` (its win share summed: 1 for a win, 1/k for a k-way tie).
- ``players:{<id>}:rated``: a sorted set of the games already counted for it
  (``<game>:<game id>`` -> when), the same hash tag: :meth:`apply` (``rating.lua``)
  counts a game once however often it runs, the worker's and the request's alike.
  Entries older than any game lives are dropped as new ones come.
- ``<p>:lb:{t:<tenant>}``: a service's leaderboard of one tenant (``""`` without API
  keys): player id -> display value (the ordinal, mu - 3 sigma), players with at least
  ``LEADERBOARD_MIN_GAMES`` rated games only; ``<p>:lb:boards`` names the tenants with
  one. Pages are read from a snapshot of it (``<p>:lb:{t:<tenant>}:snap:<stamp>``, the
  same hash tag; ``:snap`` the newest stamp, ``:snaps`` the kept ones), which the worker
  takes every ``LEADERBOARD_SNAPSHOT_SECONDS`` (:meth:`Ratings.refresh`), so a reader
  following its cursor never sees a player twice or misses one while ratings change.

May import the store's own modules.
"""

from __future__ import annotations

import time
from importlib import resources
from typing import Any

import redis

from shared.store.players import registry_key

SCRIPT = resources.files("shared.store").joinpath("rating.lua").read_text(encoding="utf-8")
SNAPSHOT_TTL = 3600  # a safety net: snapshots are unlinked as newer ones come (KEPT)
KEPT = 3  # snapshots kept: a reader has about two refresh periods to page through one
CHUNK = 1000  # players copied per command when a snapshot is taken


def _seconds(stamp: str) -> float:
    """A snapshot's stamp in seconds (µs written by this code, s.mmm by earlier code)."""
    return float(stamp) / 1_000_000 if "." not in stamp else float(stamp)


def rated_key(player_id: str) -> str:
    return f"{registry_key(player_id)}:rated"


class Ratings:
    """Ratings of one service's game (``game``: the engine's name) and its leaderboards
    (key prefix ``prefix``), on one redis-py client."""

    def __init__(self, client: Any, prefix: str, game: str) -> None:
        self.client = client
        self.prefix = prefix
        self.game = game
        self._apply = client.register_script(SCRIPT)

    def current(self, player_ids: list[str]) -> dict[str, tuple[float, float, int] | None]:
        """Each player's ``(mu, sigma, games)`` for this game (``None``: never rated): one
        round trip on a single Redis."""
        fields = [f"{self.game}:mu", f"{self.game}:sigma", f"{self.game}:n"]
        pipe = self.client.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hmget(registry_key(player_id), fields)
        out: dict[str, tuple[float, float, int] | None] = {}
        for player_id, (mu, sigma, n) in zip(player_ids, pipe.execute(), strict=True):
            out[player_id] = None if mu is None else (float(mu), float(sigma), int(n or 0))
        return out

    def apply(
        self, game_id: str, updates: list[dict[str, Any]], max_age_s: int
    ) -> list[tuple[float, float, int] | None]:
        """Count game ``game_id`` for each player of ``updates`` (``player``,
        ``before``/``after`` ``{mu, sigma}``, ``won``), once: a player it was counted for
        already is left alone (``None`` back); else its rating becomes ``after`` (or,
        if another game changed it since ``before`` was read, moves by the same
        difference) and its ``(mu, sigma, games)`` comes back. One script per player
        (its own slot), pipelined (on a cluster, one after the other)."""
        now = int(time.time() * 1000)
        cluster = isinstance(self.client, redis.RedisCluster)  # (no scripts in its pipelines)
        pipe = None if cluster else self.client.pipeline(transaction=False)
        replies = []
        for update in updates:
            player = update["player"]
            before, after = update["before"], update["after"]
            args = [f"{self.game}:{game_id}", self.game, now, now - max_age_s * 1000]
            args += [repr(before["mu"]), repr(before["sigma"])]
            args += [repr(after["mu"]), repr(after["sigma"]), repr(update["won"])]
            keys = [registry_key(player), rated_key(player)]
            replies.append(self._apply(keys=keys, args=args, client=pipe or self.client))
        out: list[tuple[float, float, int] | None] = []
        for reply in replies if pipe is None else pipe.execute():
            out.append(None if not reply else (float(reply[0]), float(reply[1]), int(reply[2])))
        return out

    # -- leaderboards ------------------------------------------------------------------

    def board_key(self, tenant: str) -> str:
        return f"{self.prefix}:lb:{{t:{tenant}}}"  # (never an empty tag: Cluster ignores one)

    def rank(self, tenant: str, entries: dict[str, float | None]) -> None:
        """Set players' display values on the tenant's board (``None``: not on it)."""
        pipe = self.client.pipeline(transaction=False)
        shown = {pid: value for pid, value in entries.items() if value is not None}
        if shown:
            pipe.zadd(self.board_key(tenant), shown)
            pipe.sadd(f"{self.prefix}:lb:boards", tenant)
        hidden = [pid for pid, value in entries.items() if value is None]
        if hidden:
            pipe.zrem(self.board_key(tenant), *hidden)
        pipe.execute()

    def boards(self) -> list[str]:
        """The tenants with a leaderboard here."""
        return sorted(self.client.smembers(f"{self.prefix}:lb:boards"))

    def snapshot(self, tenant: str, every_s: int) -> str:
        """The stamp of the board's newest snapshot: the worker's (:meth:`refresh`), or
        one taken now when there is none or the newest is more than two periods old (no
        worker runs)."""
        latest = self.client.get(f"{self.board_key(tenant)}:snap")
        if latest is not None and time.time() - _seconds(latest) < 2 * every_s:
            return str(latest)
        return self.refresh(tenant, every_s)

    def refresh(self, tenant: str, every_s: int = 0) -> str:
        """Take a new snapshot of the board unless the newest is younger than
        ``every_s``; its stamp. The copy goes by ``ZSCAN`` in chunks (Redis is never
        held for more than one chunk, where one ``ZUNIONSTORE`` of 100,000 players held
        it 160-280 ms); a player whose rating changes meanwhile is copied once, with
        one of its values. Only the :data:`KEPT` newest snapshots stay; older ones are
        ``UNLINK``-ed (freed in the background)."""
        board = self.board_key(tenant)
        latest = self.client.get(f"{board}:snap")
        now = time.time()
        if latest is not None and now - _seconds(latest) < every_s:
            return str(latest)
        if latest is not None and not self.client.set(f"{board}:taking", "1", nx=True, ex=60):
            return str(latest)  # another process is taking one
        # a stamp (µs) newer than the newest, also when two are taken within one µs
        stamp = str(max(int(now * 1_000_000), int(_seconds(latest or "0.0") * 1_000_000) + 1))
        snap = f"{board}:snap:{stamp}"
        cursor = 0
        while True:
            cursor, chunk = self.client.zscan(board, cursor, count=CHUNK)
            if chunk:
                self.client.zadd(snap, dict(chunk))
            if cursor == 0:
                break
        pipe = self.client.pipeline(transaction=False)
        pipe.expire(snap, SNAPSHOT_TTL)
        pipe.set(f"{board}:snap", stamp)
        pipe.rpush(f"{board}:snaps", stamp)
        pipe.lrange(f"{board}:snaps", 0, -KEPT - 1)
        pipe.ltrim(f"{board}:snaps", -KEPT, -1)
        pipe.delete(f"{board}:taking")
        old = pipe.execute()[3]
        if old:
            self.client.unlink(*(f"{board}:snap:{s}" for s in old))
        return stamp

    def forget(self, player_id: str) -> None:
        """A deleted player leaves every leaderboard here and the snapshots kept of it,
        and its set of games counted goes (its rating went with its registry hash)."""
        for tenant in self.boards():
            board = self.board_key(tenant)
            stamps = self.client.lrange(f"{board}:snaps", 0, -1)
            pipe = self.client.pipeline(transaction=False)  # one hash tag: one slot
            for key in (board, *(f"{board}:snap:{stamp}" for stamp in stamps)):
                pipe.zrem(key, player_id)
            pipe.execute()
        self.client.delete(rated_key(player_id))

    def page(
        self, tenant: str, stamp: str, offset: int, limit: int
    ) -> tuple[list[tuple[str, float]], int] | None:
        """Entries ``offset..offset+limit-1`` of snapshot ``stamp`` (best first) and its
        size; ``None`` when that snapshot has expired."""
        snap = f"{self.board_key(tenant)}:snap:{stamp}"
        pipe = self.client.pipeline(transaction=False)
        pipe.zrevrange(snap, offset, offset + limit - 1, withscores=True)
        pipe.zcard(snap)
        rows, size = pipe.execute()
        if size == 0 and not self.client.exists(snap):
            return None
        return [(str(pid), float(score)) for pid, score in rows], int(size)

    def tenants(self, player_ids: list[str]) -> list[str | None]:
        """Each player's tenant (``None``: the player is gone)."""
        pipe = self.client.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hget(registry_key(player_id), "tenant")
        return list(pipe.execute())

    def details(self, player_ids: list[str]) -> list[list[str | None]]:
        """Each player's name, mu, sigma, rated games and win share here (one round trip)."""
        fields = ["name", *(f"{self.game}:{f}" for f in ("mu", "sigma", "n", "won"))]
        pipe = self.client.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hmget(registry_key(player_id), fields)
        return list(pipe.execute())
