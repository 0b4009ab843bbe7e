"""What this process last wrote or read of a game, for its next write to skip the read.

A move reads the game (one round trip), decides, then writes with a compare-and-set on
the version. A process that wrote or read the game a moment ago already holds that
document and history tail: its next write may decide on them and send the script
straight away. The script refuses the write unless the version is still the one the
copy has, and a document and tail at one version never change (every write raises the
version, the history script never writes), so a write that lands was decided on the
current game, exactly as after a read. A refused write brings the current document back
(:class:`shared.store.WriteResult`), so a stale copy costs the decision, not a round
trip.

Copies are kept for ``WRITE_FROM_COPY_SECONDS`` only (0: never): a bot or script moving
on one connection finds its own last write; a copy much older than that has most likely
been overtaken by another process, and deciding on it would be wasted.
"""

from __future__ import annotations

import contextlib
import time
from typing import NamedTuple

SIZE = 1024
"""Copies a process keeps at most (the oldest go first)."""


class Copy(NamedTuple):
    stored: str  # the document as stored (shared/store/document_codec.py)
    events_from: int | None  # raised by the write script after ``stored`` was packed
    tail: str | None  # the history tail at the same version
    at: float  # time.monotonic() when it was current


class Copies:
    """A bounded, short-lived map of game id -> :class:`Copy`."""

    def __init__(self, seconds: float, size: int = SIZE) -> None:
        self.seconds = seconds
        self.size = size
        self._kept: dict[str, Copy] = {}

    def keep(
        self, game_id: str, stored: str, tail: str | None, events_from: int | None = None
    ) -> None:
        if self.seconds <= 0:
            return
        kept = self._kept
        kept.pop(game_id, None)  # re-inserted last: the oldest stays first
        if len(kept) >= self.size:
            with contextlib.suppress(KeyError, RuntimeError, StopIteration):  # another thread's
                del kept[next(iter(kept))]
        kept[game_id] = Copy(stored, events_from, tail, time.monotonic())

    def drop(self, game_id: str) -> None:
        self._kept.pop(game_id, None)

    def take(self, game_id: str) -> Copy | None:
        """The game's copy if it is recent enough, removed (a write keeps the next)."""
        found = self._kept.pop(game_id, None)
        if found is None or time.monotonic() - found.at > self.seconds:
            return None
        return found
