"""Points per place and the standings' order (docs/api.md "Tournaments").

Default points per place, by table size: the winner always scores 6, the last 0, and
the mean of a table is always 3, so a smaller table neither helps nor hurts on average:

- 2 players: 6, 0
- 3 players: 6, 3, 0
- 4 players: 6, 4, 2, 0
- 5 players: 6, 4, 3, 2, 0

Players who share a place share the points of the places they cover, rounded down
(two tied winners at 4 players: (6 + 4) // 2 = 5 each). A bye scores ``BYE_POINTS``
(3, the mean of a table) unless the tournament says otherwise.

The standings' order: points (more first), then the Buchholz score (the sum of the
current points of every opponent met, once per game shared), then the rating at
registration, then the earlier registration.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

DEFAULT_POINTS: dict[int, tuple[int, ...]] = {
    2: (6, 0),
    3: (6, 3, 0),
    4: (6, 4, 2, 0),
    5: (6, 4, 3, 2, 0),
}
BYE_POINTS = 3


def points_for_size(size: int, table: Mapping[int, Sequence[int]] | None = None) -> tuple[int, ...]:
    """The points per place (best first) of a table of ``size`` players."""
    chosen = (table or {}).get(size) or DEFAULT_POINTS.get(size)
    if chosen is None or len(chosen) != size:
        # a size outside the defaults: 2 points a place from the last (0), winner highest
        return tuple(2 * (size - 1 - p) for p in range(size))
    return tuple(int(x) for x in chosen)


def award(ranks: Sequence[int], per_place: Sequence[int]) -> list[int]:
    """Points of each seat from its rank (1 = best; equal ranks are a shared place)."""
    out = []
    for rank in ranks:
        same = sum(1 for r in ranks if r == rank)
        first = rank - 1
        covered = per_place[first : first + same]
        out.append(sum(covered) // max(1, len(covered)))
    return out


@dataclass
class Entry:
    """One player's record in a tournament (pure: what pairing and standings need)."""

    player: str
    order: int = 0  # registration order (the last tie-break)
    rating: float = 0.0
    points: int = 0
    byes: int = 0
    games: list[str] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)  # once per game shared

    def buchholz(self, points_of: Mapping[str, int]) -> int:
        get = points_of.get
        return sum([get(o, 0) for o in self.opponents])


def standings(entries: Iterable[Entry]) -> list[tuple[Entry, int]]:
    """The entries in standings order, each with its Buchholz score."""
    items = list(entries)
    points_of = {e.player: e.points for e in items}
    scored = [(e, e.buchholz(points_of)) for e in items]
    scored.sort(key=lambda eb: (-eb[0].points, -eb[1], -eb[0].rating, eb[0].order))
    return scored
