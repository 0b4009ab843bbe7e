"""The hurricane during a turn's resolution (:mod:`.resolve`): :class:`Turn`, the
resolution in progress, and the movement it makes: a movement action with the
destruction of the uninsured houses it enters (:func:`move`), and coming to rest past
insured houses after the last one (:func:`come_to_rest`).
"""

from __future__ import annotations

from collections.abc import Callable

from . import board
from .shapes import WindCityEvent
from .state import House, WindCityState

_NAMES = board.NAMES
_POS = board.POS
_NC = board.NCOLS
_SEA_LAST = board.SEA_LAST_ROW
_DELTA = board.DELTA
_PATHS = board.PATHS


class Turn:
    """One turn's resolution in progress. Unless ``owned`` (a fork), ``houses`` and
    ``stock`` are the state's own until their first change (``*_shared``), which copies
    them; ``money`` is a copy from the start."""

    __slots__ = (
        "append",
        "col",
        "houses",
        "houses_shared",
        "land",
        "last_dir",
        "left",
        "log",
        "money",
        "north",
        "owned",
        "row",
        "seat",
        "state",
        "stock",
        "stock_shared",
        "touched",
    )

    def __init__(
        self, state: WindCityState, events: list[WindCityEvent] | None, owned: bool, at: str
    ) -> None:
        self.state = state
        self.seat = state["active"]
        self.owned = owned
        self.log = events is not None
        self.append: Callable[[WindCityEvent], None] = (
            events.append if events is not None else _ignore
        )
        self.north = state["north"]
        self.houses = state["houses"]
        self.stock = state["stock"]
        self.houses_shared = self.stock_shared = not owned
        self.money = state["money"] if owned else list(state["money"])
        self.col, self.row = _POS[at]
        self.touched = False  # entered a square holding a house (insured or not)
        self.land = False  # entered a land square
        self.left = False  # left the board by the north edge
        self.last_dir = "N"  # the direction of the last step that entered a square

    def own_houses(self) -> dict[str, House]:
        if self.houses_shared:
            self.houses = dict(self.houses)
            self.houses_shared = False
        return self.houses

    def own_stock(self) -> list[int]:
        if self.stock_shared:
            self.stock = list(self.stock)
            self.stock_shared = False
        return self.stock


def move(turn: Turn, action: int, kind: str, steps: int) -> None:
    """A movement action: the squares entered, the uninsured houses on them destroyed."""
    key = (turn.col, turn.row, kind, steps, turn.north)
    path = _PATHS.get(key)
    if path is None:
        path = board.path(*key)
    entered, lost, left, turn.col, turn.row, crossed_land = path
    turn.left = left
    if entered:
        turn.last_dir = kind
        if crossed_land:
            turn.land = True
        houses = turn.houses
        for sq in entered:
            h = houses.get(sq)
            if h is not None:
                turn.touched = True
                if not h.insured:
                    destroy(turn, sq, h)
                    houses = turn.houses
    if turn.log:
        turn.append(
            {
                "type": "hurricane_moved",
                "seat": turn.seat,
                "action": action,
                "dir": kind,
                "squares": list(entered),
                "lost_steps": lost,
                "left_board": left,
            }
        )


def destroy(turn: Turn, sq: str, h: House) -> None:
    """The uninsured house ``h`` on ``sq`` is destroyed: its pieces go back to stock."""
    del turn.own_houses()[sq]
    turn.own_stock()[h.owner] += h.pieces
    if turn.log:
        turn.append({"type": "house_destroyed", "square": sq, "owner": h.owner, "pieces": h.pieces})


def come_to_rest(turn: Turn) -> None:
    """After the last movement: on an insured house, the hurricane steps on (in the
    last direction) until it is on a square without one, destroys an uninsured house,
    or leaves the board."""
    h = turn.houses.get(_NAMES[turn.row * _NC + turn.col])
    if h is None or not h.insured:
        return
    d = turn.last_dir
    rest: list[str] = []
    while True:
        if (d == "E" or d == "W") and _row_insured(turn.houses, turn.row):
            d = "N"  # a whole row of insured houses: lapping it would never end
        dc, dr = _DELTA[d]
        r = turn.row + dr
        if r > turn.north:
            turn.left = True
            break
        if r < 1:  # cannot happen (no houses in the sea); never loop on row 1
            break
        turn.row = r
        turn.col = (turn.col + dc) % _NC
        sq = _NAMES[r * _NC + turn.col]
        if r > _SEA_LAST:
            turn.land = True
        h = turn.houses.get(sq)
        rest.append(sq)
        if h is None:
            break
        turn.touched = True
        if not h.insured:
            destroy(turn, sq, h)
            break
    if turn.log and (rest or turn.left):  # else only a refused step south of row 1
        turn.append(
            {
                "type": "hurricane_moved",
                "seat": turn.seat,
                "action": None,
                "dir": d,
                "squares": rest,
                "lost_steps": 0,
                "left_board": turn.left,
                "rest": True,
            }
        )


def _row_insured(houses: dict[str, House], row: int) -> bool:
    """Whether every square of ``row`` holds an insured house."""
    base = row * _NC
    for c in range(_NC):
        h = houses.get(_NAMES[base + c])
        if h is None or not h.insured:
            return False
    return True


def _ignore(event: WindCityEvent) -> None:
    """``append`` when no events are wanted (every call site checks ``log`` first)."""
