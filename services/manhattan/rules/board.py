"""The board: 54 buildings, each a bottom-to-top list of piece codes.

A piece is the integer ``seat * 10 + floors``; a building is a list of them, an empty
lot is ``[]``. Board index ``(city - 1) * 9 + (lot - 1)``. Integers keep the state small
and lists let a move copy only the one building it changes.
"""

from __future__ import annotations

from collections.abc import Sequence

CITIES = 6
LOTS = 9
PIECES = {1: 11, 2: 6, 3: 4, 4: 3}
"""Each player's 24 pieces by floor size."""


def index(city: int, lot: int) -> int:
    """Board index of a city (1-6) and lot (1-9)."""
    return (city - 1) * LOTS + lot - 1


def piece(seat: int, floors: int) -> int:
    return seat * 10 + floors


def height(building: list[int]) -> int:
    return sum([p % 10 for p in building])


def owner(building: list[int]) -> int | None:
    """The seat whose piece is on top, or None for an empty lot."""
    return building[-1] // 10 if building else None


def needed(building: Sequence[int], seat: int) -> int:
    """Smallest piece ``seat`` may place here (0: any piece).

    Stacking rule: on another player's building your floors after placing must be at
    least the owner's floors.
    """
    if not building:
        return 0
    top = building[-1] // 10
    if top == seat:
        return 0
    mine = theirs = 0
    for p in building:
        s = p // 10
        if s == seat:
            mine += p % 10
        elif s == top:
            theirs += p % 10
    return theirs - mine


def neighbours(lot_index: int) -> tuple[int, ...]:
    """Orthogonal neighbours of a lot index 0-8 inside its city's 3x3 grid."""
    return _NEIGHBOURS[lot_index]


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = divmod(i, 3)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < 3 and 0 <= cc < 3:
            out.append(rr * 3 + cc)
    return tuple(out)


_NEIGHBOURS = tuple(_neighbours(i) for i in range(LOTS))
