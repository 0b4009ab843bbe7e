"""The 25 Wind City cards, as data in one place (rules file, "The 25 cards"), their
public JSON shape, and the action orderings a plan may choose from a card.

Each card has five actions: a move ``D n`` with a cost, or ``Kauf`` with a cost.
Card 2 is the one the original text prints; the others are the rules file's
reconstruction.
"""

from __future__ import annotations

from itertools import permutations
from typing import Literal, TypedDict

# card number -> the five printed actions, "<dir><steps>·<cost>" or "Kauf·<cost>".
CARD_TEXT: dict[int, tuple[str, str, str, str, str]] = {
    1: ("N1·1", "N3·2", "E1·1", "W3·2", "S1·1"),
    2: ("S1·1", "N4·3", "W2·1", "W2·2", "Kauf·4"),
    3: ("N1·1", "E2·1", "E2·2", "W1·1", "S2·3"),
    4: ("N2·1", "E1·1", "W3·2", "S1·1", "Kauf·3"),
    5: ("N3·2", "N1·1", "E1·1", "W1·1", "S1·1"),
    6: ("N4·3", "W2·1", "E4·3", "S1·2", "S1·1"),
    7: ("N1·1", "N2·1", "E2·1", "W1·1", "Kauf·5"),
    8: ("N1·1", "N2·1", "E3·2", "W3·3", "S2·2"),
    9: ("N4·3", "W1·1", "W4·3", "E2·1", "S1·1"),
    10: ("N3·2", "E2·2", "E2·1", "S1·1", "Kauf·4"),
    11: ("N2·1", "N2·2", "W2·2", "E1·1", "S1·1"),
    12: ("N3·2", "E3·3", "W1·1", "W2·1", "S3·4"),
    13: ("N1·1", "N2·2", "W2·1", "W3·2", "Kauf·3"),
    14: ("N2·1", "N2·1", "E4·3", "W2·2", "S1·1"),
    15: ("N1·1", "E1·1", "E2·2", "W3·2", "S2·3"),
    16: ("N2·1", "N1·1", "W1·1", "E3·2", "Kauf·4"),
    17: ("N1·1", "N3·2", "E3·2", "W2·1", "S1·1"),
    18: ("N2·1", "W4·3", "E1·1", "E3·2", "S1·2"),
    19: ("N3·2", "E4·3", "W1·1", "S2·2", "Kauf·5"),
    20: ("N1·1", "N3·2", "E1·1", "E1·1", "S2·2"),
    21: ("N2·2", "W3·2", "E2·2", "W1·1", "S1·1"),
    22: ("N1·1", "N3·3", "W2·2", "E1·1", "Kauf·3"),
    23: ("N1·1", "N3·2", "E2·1", "W1·1", "S1·1"),
    24: ("N1·1", "N2·1", "W2·1", "E2·2", "Kauf·4"),
    25: ("N1·1", "S1·1", "W1·1", "E4·3", "Kauf·4"),
}

KAUF = "K"
Action = tuple[str, int, int]  # (direction N/S/E/W or "K", steps, cost)


def _parse(text: str) -> Action:
    what, cost = text.split("·")
    if what == "Kauf":
        return (KAUF, 0, int(cost))
    return (what[0], int(what[1:]), int(cost))


CARDS: dict[int, tuple[Action, ...]] = {
    n: tuple(_parse(t) for t in texts) for n, texts in CARD_TEXT.items()
}
DECK: tuple[int, ...] = tuple(sorted(CARDS))


class KaufAction(TypedDict):
    kind: Literal["kauf"]
    cost: int


class MoveAction(TypedDict):
    kind: Literal["move"]
    dir: str  # N, S, E or W
    steps: int
    cost: int


PublicAction = KaufAction | MoveAction
"""One printed action as events and views show it."""


def public_action(action: Action) -> PublicAction:
    """The JSON shape of one printed action, as events and views show it."""
    kind, steps, cost = action
    if kind == KAUF:
        return {"kind": "kauf", "cost": cost}
    return {"kind": "move", "dir": kind, "steps": steps, "cost": cost}


PUBLIC_CARDS: dict[int, list[PublicAction]] = {
    n: [public_action(a) for a in acts] for n, acts in CARDS.items()
}

ORDERINGS: tuple[tuple[int, ...], ...] = tuple(
    p for k in (1, 2, 3) for p in permutations(range(1, 6), k)
)
"""Every ordered choice of 1-3 distinct actions out of 5 (1-based), in a fixed order."""


def _orders(kauf_mask: tuple[bool, ...]) -> list[tuple[list[int], bool]]:
    out = []
    for order in ORDERINGS:
        kinds = [kauf_mask[a - 1] for a in order]
        if not all(kinds):
            out.append((list(order), any(kinds)))
    return out


ORDERS_BY_CARD: dict[int, list[tuple[list[int], bool]]] = {}
"""card -> the action orderings a plan may choose, in listing order, and whether each
has the Kauf action (the lists are shared by the listed moves: read-only)."""
for _mask in {tuple(k == KAUF for k, _, _ in c) for c in CARDS.values()}:
    _by_mask = _orders(_mask)
    for _n, _card in CARDS.items():
        if tuple(k == KAUF for k, _, _ in _card) == _mask:
            ORDERS_BY_CARD[_n] = _by_mask
