"""Round scoring (tallest, city majority, buildings, promotion card) and final standings."""

from __future__ import annotations

from typing import Any, NamedTuple

from .board import CITIES, LOTS, height
from .promos import promo_points


def tallest_points(board: list[list[int]], n: int) -> list[int]:
    """3 to the owner of the single tallest building; a tie for tallest scores nobody."""
    pts = [0] * n
    best, who, tie = 0, None, False
    for b in board:
        if b:
            h = height(b)
            if h > best:
                best, who, tie = h, b[-1] // 10, False
            elif h == best:
                tie = True
    if who is not None and not tie:
        pts[who] = 3
    return pts


def city_majorities(board: list[list[int]], n: int) -> list[int | None]:
    """Per city, the seat owning strictly more buildings there than anyone else, or None."""
    out: list[int | None] = []
    for c in range(CITIES):
        counts = [0] * n
        for b in board[c * LOTS : (c + 1) * LOTS]:
            if b:
                counts[b[-1] // 10] += 1
        most = max(counts)
        out.append(counts.index(most) if most and counts.count(most) == 1 else None)
    return out


def majority_points(board: list[list[int]], n: int) -> list[int]:
    pts = [0] * n
    for s in city_majorities(board, n):
        if s is not None:
            pts[s] += 2
    return pts


def building_points(board: list[list[int]], n: int) -> list[int]:
    pts = [0] * n
    for b in board:
        if b:
            pts[b[-1] // 10] += 1
    return pts


class _Survey(NamedTuple):
    owned: list[int]  # buildings owned per seat
    majorities: list[int | None]  # per city: the seat with the majority, or None
    tallest_owner: int | None  # owner of the single tallest building (None: a tie or none)
    tallest_owned: list[int]  # per seat: the height of its tallest building (0: none)


def _survey(board: list[list[int]], n: int) -> _Survey:
    """Everything the round scoring and the standings read, from one pass over the
    board (heights summed inline): this runs at every round's end."""
    owned = [0] * n
    tallest_owned = [0] * n
    majorities: list[int | None] = []
    best, who, tie = 0, None, False
    for start in range(0, CITIES * LOTS, LOTS):
        counts = [0] * n
        for b in board[start : start + LOTS]:
            if b:
                s = b[-1] // 10
                counts[s] += 1
                h = 0
                for p in b:
                    h += p % 10
                if h > best:
                    best, who, tie = h, s, False
                elif h == best:
                    tie = True
                if h > tallest_owned[s]:
                    tallest_owned[s] = h
        most = max(counts)
        majorities.append(counts.index(most) if most and counts.count(most) == 1 else None)
        for s in range(n):
            owned[s] += counts[s]
    return _Survey(owned, majorities, None if tie else who, tallest_owned)


def score_round(board: list[list[int]], n: int, promo: str | None) -> dict[str, list[int]]:
    """The points of one round per category and seat; ``promo`` is the card scored.

    The same points as :func:`tallest_points`, :func:`majority_points` and
    :func:`building_points`, from one pass over the board."""
    owned, majorities, tallest_owner, _ = _survey(board, n)
    tallest = [0] * n
    if tallest_owner is not None:
        tallest[tallest_owner] = 3
    majority = [0] * n
    for s in majorities:
        if s is not None:
            majority[s] += 2
    return {
        "tallest": tallest,
        "majority": majority,
        "buildings": owned,
        "promo": promo_points(promo, board, n),
    }


def totals(rounds: list[dict[str, Any]], n: int) -> list[int]:
    """Sum of every category of every scored round, per seat."""
    out = [0] * n
    for r in rounds:
        for pts in r["categories"].values():
            for s in range(n):
                out[s] += pts[s]
    return out


def standings(board: list[list[int]], n: int, total: list[int]) -> dict[str, Any]:
    """Ranked standings with the tie-break chain: total, tallest owned, majorities."""
    survey = _survey(board, n)
    tallest = survey.tallest_owned
    maj = [0] * n
    for s in survey.majorities:
        if s is not None:
            maj[s] += 1
    keys = [(total[s], tallest[s], maj[s]) for s in range(n)]
    # best key first, then by seat (no generators: this runs at every game's end)
    order = sorted(range(n), key=lambda s: (-total[s], -tallest[s], -maj[s], s))
    rows = []
    for s in order:
        key = keys[s]
        rank = 1
        for other in keys:
            if other > key:
                rank += 1
        rows.append(
            {
                "seat": s,
                "rank": rank,
                "total": total[s],
                "tallest": tallest[s],
                "majorities": maj[s],
            }
        )
    return {"standings": rows, "winners": [r["seat"] for r in rows if r["rank"] == 1]}
