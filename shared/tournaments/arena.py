"""The arena's next tables: players who are free (their last game over) are seated again
as soon as a full table of them fits.

``next_tables(free, size, last, blocked)`` takes the free players in standings order
(most points first) and fills tables of ``size`` from the top: the first free player
opens a table and the next free players in order join it, skipping anyone who sat at
the opener's or a joiner's last table (never the same opponents twice in a row) or
who blocked or was blocked by one of them, up to ``WINDOW`` places down. A table that
cannot be filled so is not made: its opener waits for the next players to be free.
Pure and linear in the free players (times ``WINDOW``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

WINDOW = 48

Last = Mapping[str, frozenset[str] | set[str]]


def _clash(a: str, b: str, last: Last, blocked: Last) -> bool:
    return (
        b in last.get(a, ())
        or a in last.get(b, ())
        or b in blocked.get(a, ())
        or a in blocked.get(b, ())
    )


def next_tables(
    free: Sequence[str], size: int, last: Last | None = None, blocked: Last | None = None
) -> list[list[str]]:
    """Full tables of ``size`` from ``free`` (most points first); the rest wait."""
    last = last or {}
    blocked = blocked or {}
    waiting = list(free)
    tables: list[list[str]] = []
    opener_at = 0
    while len(waiting) - opener_at >= size:
        table = [waiting[opener_at]]
        picked = [opener_at]
        for j in range(opener_at + 1, min(len(waiting), opener_at + 1 + WINDOW)):
            if len(table) == size:
                break
            if not any(_clash(waiting[j], t, last, blocked) for t in table):
                table.append(waiting[j])
                picked.append(j)
        if len(table) == size:
            tables.append(table)
            for j in reversed(picked):
                del waiting[j]
        else:
            opener_at += 1  # this opener waits; the next one tries
    return tables
