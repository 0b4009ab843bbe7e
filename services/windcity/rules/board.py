"""Board geometry: square names, sections, observatories, the play area by player count,
and the squares a hurricane move crosses.

Everything here is static data computed once at import (the paths: once each, when first
crossed), so the hot path only does dictionary look-ups.
"""

from __future__ import annotations

from collections.abc import Iterable

COLS = "ABCDEFGHIJKL"
NCOLS = 12
NROWS = 24
SEA_LAST_ROW = 4
BEACH_ROW = 5

# Land sections 1..4 (0 is the sea): first and last row of each.
SECTION_ROWS = {0: (1, 4), 1: (5, 9), 2: (10, 14), 3: (15, 19), 4: (20, 24)}

# Two observatories per section; only those inside the play area are used.
OBSERVATORIES = ("D2", "J3", "H6", "B7", "E11", "K12", "I16", "C17", "F21", "L22")

# Per player count: land sections in use, houses per player per section, beach max.
SECTIONS_IN_USE = {2: 2, 3: 2, 4: 3, 5: 4}
QUOTA = {2: 6, 3: 6, 4: 4, 5: 3}
BEACH_MAX = {2: 3, 3: 3, 4: 3, 5: 2}


def name(col: int, row: int) -> str:
    """Square name for a 0-based column and a 1-based row, e.g. (2, 7) -> 'C7'."""
    return COLS[col] + str(row)


# name -> (col, row) for every square of the full board.
POS: dict[str, tuple[int, int]] = {
    name(c, r): (c, r) for r in range(1, NROWS + 1) for c in range(NCOLS)
}
# (row * NCOLS + col) -> name, for fast stepping.
NAMES: list[str] = [""] * ((NROWS + 2) * NCOLS)
for _sq, (_c, _r) in POS.items():
    NAMES[_r * NCOLS + _c] = _sq
# Board order (south to north, west to east) for stable listings.
ORDER: dict[str, int] = {sq: r * NCOLS + c for sq, (c, r) in POS.items()}


def section_of_row(row: int) -> int:
    """0 for the sea, 1..4 for the land sections."""
    return 0 if row <= SEA_LAST_ROW else (row - BEACH_ROW) // 5 + 1


SECTION: dict[str, int] = {sq: section_of_row(r) for sq, (_, r) in POS.items()}
ROW: dict[str, int] = {sq: r for sq, (_, r) in POS.items()}


def north_edge(num_players: int, play_area: str) -> int:
    """The northernmost row in play: the last row of the last section in use, or 24."""
    if play_area == "full":
        return NROWS
    return SECTION_ROWS[SECTIONS_IN_USE[num_players]][1]


ROW_SQUARES: dict[int, tuple[str, ...]] = {
    r: tuple(NAMES[r * NCOLS + c] for c in range(NCOLS)) for r in range(1, NROWS + 1)
}


def row_squares(row: int) -> tuple[str, ...]:
    """The 12 squares of a row, west to east."""
    return ROW_SQUARES[row]


def sort_squares(squares: Iterable[str]) -> list[str]:
    """Squares in board order (south to north, then west to east)."""
    out = list(squares)
    if len(out) > 1:
        out.sort(key=ORDER.__getitem__)
    return out


DELTA: dict[str, tuple[int, int]] = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}
"""Direction -> (column step, row step); columns wrap around, rows do not."""

Path = tuple[tuple[str, ...], int, bool, int, int, bool]
"""A hurricane move's squares entered, steps lost south of row 1, whether it left the
north edge, the column and row it ends on, and whether it entered a land square."""

PATHS: dict[tuple[int, int, str, int, int], Path] = {}
"""(column, row, direction, steps, northern row) -> the move's path, as :func:`path`
found it: the board is fixed, so a move crosses the same squares every time."""


def path(col: int, row: int, kind: str, steps: int, north: int) -> Path:
    """Where ``steps`` steps towards ``kind`` from (``col``, ``row``) go (kept in
    :data:`PATHS`): stepping south of row 1 loses the step, stepping north of ``north``
    leaves the board and stops there."""
    key = (col, row, kind, steps, north)
    dc, dr = DELTA[kind]
    squares = []
    lost = 0
    left = land = False
    for _ in range(steps):
        r = row + dr
        if r < 1:
            lost += 1
            continue
        if r > north:
            left = True
            break
        row = r
        col = (col + dc) % NCOLS
        squares.append(NAMES[r * NCOLS + col])
        if r > SEA_LAST_ROW:
            land = True
    found = PATHS[key] = (tuple(squares), lost, left, col, row, land)
    return found
