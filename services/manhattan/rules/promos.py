"""The ten promotion cards (option ``promo_cards``): one extra scoring step per round.

Each scorer takes the end-of-round board and the player count and returns points per
seat. ``fake_news`` scores nothing itself; the game reveals the next card instead.
"""

from __future__ import annotations

from collections.abc import Callable

from .board import CITIES, LOTS, height, neighbours, owner

PROMO_NAMES = {
    "big_business": "Big Business",
    "megacity": "Megacity",
    "mixed_use": "Mixed Use",
    "world_expansion": "World Expansion",
    "small_town": "Small Town",
    "founder": "Founder",
    "above_the_clouds": "Above the Clouds",
    "suburbs": "Suburbs",
    "shire": "Shire",
    "fake_news": "Fake News",
}
PROMO_IDS = tuple(PROMO_NAMES)
FAKE_NEWS = "fake_news"


def _city(board: list[list[int]], c: int) -> list[list[int]]:
    return board[c * LOTS : (c + 1) * LOTS]


def big_business(board: list[list[int]], n: int) -> list[int]:
    """2 to the owner of each city's single tallest building (a tie: nobody)."""
    pts = [0] * n
    for c in range(CITIES):
        best, who, tie = 0, None, False
        for b in _city(board, c):
            if b:
                h = height(b)
                if h > best:
                    best, who, tie = h, owner(b), False
                elif h == best:
                    tie = True
        if who is not None and not tie:
            pts[who] += 2
    return pts


def _per_building_in(board: list[list[int]], n: int, cities: list[int]) -> list[int]:
    pts = [0] * n
    for c in cities:
        for b in _city(board, c):
            if (seat := owner(b)) is not None:
                pts[seat] += 1
    return pts


def _counts(board: list[list[int]]) -> list[int]:
    return [sum(1 for b in _city(board, c) if b) for c in range(CITIES)]


def megacity(board: list[list[int]], n: int) -> list[int]:
    """1 per building in full cities, else in the city/cities with the most buildings."""
    counts = _counts(board)
    most = max(counts)
    if most == 0:
        return [0] * n
    return _per_building_in(board, n, [c for c in range(CITIES) if counts[c] == most])


def small_town(board: list[list[int]], n: int) -> list[int]:
    """1 per building in the built-on city/cities with the fewest buildings."""
    counts = [k for k in _counts(board) if k]
    if not counts:
        return [0] * n
    fewest = min(counts)
    cities = [c for c, k in enumerate(_counts(board)) if k == fewest]
    return _per_building_in(board, n, cities)


def mixed_use(board: list[list[int]], n: int) -> list[int]:
    """2 to the owner of each building with pieces of 3 or more colours."""
    pts = [0] * n
    for b in board:
        if len({p // 10 for p in b}) >= 3 and (seat := owner(b)) is not None:
            pts[seat] += 2
    return pts


def world_expansion(board: list[list[int]], n: int) -> list[int]:
    """1 per owned building, again."""
    pts = [0] * n
    for b in board:
        if b:
            pts[b[-1] // 10] += 1
    return pts


def founder(board: list[list[int]], n: int) -> list[int]:
    """1 per building whose bottom piece is yours but whose top piece is not."""
    pts = [0] * n
    for b in board:
        if b and b[0] // 10 != b[-1] // 10:
            pts[b[0] // 10] += 1
    return pts


def above_the_clouds(board: list[list[int]], n: int) -> list[int]:
    """1 per owned building of 5 or more floors."""
    pts = [0] * n
    for b in board:
        if b and height(b) >= 5:
            pts[b[-1] // 10] += 1
    return pts


def suburbs(board: list[list[int]], n: int) -> list[int]:
    """1 per owned 1-floor building with an orthogonally adjacent empty lot."""
    pts = [0] * n
    for i, b in enumerate(board):
        if b and height(b) == 1:
            base = i - i % LOTS
            if any(not board[base + j] for j in neighbours(i % LOTS)):
                pts[b[-1] // 10] += 1
    return pts


def shire(board: list[list[int]], n: int) -> list[int]:
    """2 per city where one player owns every tallest and every lowest building.

    The city needs buildings of at least two different heights.
    """
    pts = [0] * n
    for c in range(CITIES):
        built = [(height(b), b[-1] // 10) for b in _city(board, c) if b]
        if not built:
            continue
        hi = max(h for h, _ in built)
        lo = min(h for h, _ in built)
        if hi == lo:
            continue
        owners = {s for h, s in built if h in (hi, lo)}
        if len(owners) == 1:
            pts[owners.pop()] += 2
    return pts


def fake_news(board: list[list[int]], n: int) -> list[int]:
    """Scores nothing itself (the game scores the next promotion card instead)."""
    return [0] * n


SCORERS: dict[str, Callable[[list[list[int]], int], list[int]]] = {
    "big_business": big_business,
    "megacity": megacity,
    "mixed_use": mixed_use,
    "world_expansion": world_expansion,
    "small_town": small_town,
    "founder": founder,
    "above_the_clouds": above_the_clouds,
    "suburbs": suburbs,
    "shire": shire,
    "fake_news": fake_news,
}


def promo_points(card: str | None, board: list[list[int]], n: int) -> list[int]:
    """Points per seat from one promotion card (None: no card, nothing)."""
    if card is None:
        return [0] * n
    return SCORERS[card](board, n)
