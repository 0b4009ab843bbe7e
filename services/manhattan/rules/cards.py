"""Seats, compass sides and building cards: which board lot a printed card allows."""

from __future__ import annotations

SIDE_NAMES = ("S", "W", "N", "E")
"""Compass sides clockwise; the index is the side number used by the rotation table."""

SIDES_BY_COUNT = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
"""Default seating: kit seat ``i`` (join order) sits on side ``SIDES_BY_COUNT[n][i]``."""

ROTATION = (
    (1, 2, 3, 4, 5, 6, 7, 8, 9),  # South
    (3, 6, 9, 2, 5, 8, 1, 4, 7),  # West
    (9, 8, 7, 6, 5, 4, 3, 2, 1),  # North
    (7, 4, 1, 8, 5, 2, 9, 6, 3),  # East
)
"""``ROTATION[side][card - 1]`` is the board lot a printed card lot allows from that side."""

UNROTATION = tuple(tuple(row.index(lot) + 1 for lot in range(1, 10)) for row in ROTATION)
"""``UNROTATION[side][lot - 1]`` is the printed card that allows board ``lot`` from a side."""

CITY_NAMES = ("New York", "Sydney", "Frankfurt", "Hong Kong", "São Paulo", "Cairo")

COPIES_PER_LOT = 5
HAND_SIZE = 4
DECK = tuple(card for card in range(1, 10) for _ in range(COPIES_PER_LOT))
"""The 45 building cards, 5 per printed lot."""
