"""Round scoring (tallest, city majority, buildings, promotion card) and final standings."""

from __future__ import annotations

from typing import Any

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


def score_round(board: list[list[int]], n: int, promo: str | None) -> dict[str, list[int]]:
    """The points of one round per category and seat; ``promo`` is the card scored."""
    return {
        "tallest": tallest_points(board, n),
        "majority": majority_points(board, n),
        "buildings": building_points(board, n),
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


def tallest_owned(board: list[list[int]], n: int) -> list[int]:
    """Height of each seat's tallest owned building (0 if it owns none)."""
    out = [0] * n
    for b in board:
        if b:
            s = b[-1] // 10
            out[s] = max(out[s], height(b))
    return out


def standings(board: list[list[int]], n: int, total: list[int]) -> dict[str, Any]:
    """Ranked standings with the tie-break chain: total, tallest owned, majorities."""
    tallest = tallest_owned(board, n)
    maj = [0] * n
    for s in city_majorities(board, n):
        if s is not None:
            maj[s] += 1
    keys = {s: (total[s], tallest[s], maj[s]) for s in range(n)}
    order = sorted(range(n), key=lambda s: (tuple(-k for k in keys[s]), s))
    rows = []
    for s in order:
        rank = 1 + sum(1 for t in range(n) if keys[t] > keys[s])
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
