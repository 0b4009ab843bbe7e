"""Quick match's pools: the open public tables waiting for players, one pool per set of
options (``matchmaking.lua``).

A pool is named by its options' digest ``<d>`` (the games layer's canonical JSON of
them, SHA-256, 16 hex digits) and lives in one hash tag, so each claim is one script on
one slot, atomic on Redis Cluster too:

- ``<p>:mm:{<d>}``: a hash, table (game) id -> seats claimed so far;
- ``<p>:mm:{<d>}:order``: a sorted set, table id -> creation time in ms (oldest first);
- ``<p>:mm:{<d>}:who``: a hash, player id -> the table it claimed a seat at,
  ``t:<table id>`` -> that table's players (to forget them when the table leaves), and
  ``a:<player id>`` -> the players it must not meet (its blocks, both ways, as its claim
  sent them): a claim never joins a table where either side blocked the other.

A table leaves its pool when its last seat is claimed, when it is dropped (it started
with bots, or its game is gone) or when it is older than the caller's bound (its open
game expires soon); it comes back when a player leaves it while it is open. The three
keys expire ``ttl`` seconds after the last claim.

May import the store's own layout.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from shared.store.layout import Layout

SCRIPT = resources.files("shared.store").joinpath("matchmaking.lua").read_text(encoding="utf-8")


class Matchmaking(Layout):
    """The pools' part of :class:`shared.store.gamestore.GameStore`."""

    client: Any
    _match: Any  # matchmaking.lua, registered

    def pool_keys(self, pool: str) -> list[str]:
        """The pool ``pool``'s three keys (one hash slot)."""
        base = f"{self.prefix}:mm:{{{pool}}}"
        return [base, f"{base}:order", f"{base}:who"]

    def claim_seat(
        self,
        pool: str,
        player: str,
        candidate: str,
        seats: int,
        now_ms: int,
        oldest_ms: int,
        ttl: int,
        avoid: frozenset[str] = frozenset(),
    ) -> tuple[str, str]:
        """Claim a seat for ``player`` in ``pool`` (tables of ``seats`` seats): ``("joined",
        table)`` at the oldest pooled table created at or after ``oldest_ms`` where no
        claimer is in ``avoid`` (the player's blocks, both ways) or has the player in
        its own, else ``("new", candidate)`` (the caller then creates that game), or
        ``("seated", table)`` when the player already holds a claim on a pooled table."""
        args = ["claim", player, candidate, seats, now_ms, oldest_ms, ttl, ",".join(sorted(avoid))]
        kind, table = self._match(keys=self.pool_keys(pool), args=args)
        return str(kind), str(table)

    def drop_table(self, pool: str, table: str) -> None:
        """Take ``table`` out of ``pool`` (it started, or its game is gone)."""
        self._match(keys=self.pool_keys(pool), args=["drop", table])

    def release_seat(
        self,
        pool: str,
        table: str,
        player: str | None,
        taken: int,
        seats: int,
        created_ms: int,
        oldest_ms: int,
        ttl: int,
    ) -> bool:
        """A player (``None``: an unbound seat) left ``table``, which has ``taken`` of its
        ``seats`` seats taken now: its claim goes, and the table is pooled again with
        that many claims (a claim still on its way to its join is not counted: that
        joiner may find the table full and claims again), unless it was created before
        ``oldest_ms``. Whether it is pooled again."""
        args = ["release", table, player or "", taken, seats, created_ms, oldest_ms, ttl]
        kind = self._match(keys=self.pool_keys(pool), args=args)[0]
        return str(kind) == "released"

    def pooled(self, pool: str) -> dict[str, int]:
        """The pool's tables and their claimed seats (tests and diagnostics)."""
        return {k: int(v) for k, v in self.client.hgetall(self.pool_keys(pool)[0]).items()}
