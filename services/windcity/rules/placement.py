"""Setup's moves: the hurricane on row 1, and house placement with quotas.

Placement legality includes a look-ahead: a house may not be placed if the section
quotas or the beach minimum could then no longer be met by someone.
"""

from __future__ import annotations

from typing import Any

from shared.engine import Move, RuleError

from . import board
from .shapes import WindCityEvent
from .state import BUILT, HOUSES, WindCityState
from .turn import start_turn


def tally(state: WindCityState) -> list[list[int]]:
    """Per seat: [beach houses, houses in land section 1, 2, 3, 4]."""
    if "tally" in state:
        return state["tally"]
    t = [[0, 0, 0, 0, 0] for _ in range(state["num_players"])]
    sec = board.SECTION
    for sq, h in state["houses"].items():
        row = t[h.owner]
        row[sec[sq]] += 1
        if board.ROW[sq] == board.BEACH_ROW:
            row[0] += 1
    return t


def check_hurricane(move: Move) -> str:
    """The square of a hurricane placement, which must be on row 1."""
    sq = move.get("square")
    if not isinstance(sq, str) or sq not in board.POS:
        raise RuleError("bad-square", "{sq!r} is not a square", sq=sq)
    if board.ROW[sq] != 1:
        raise RuleError("not-row-one", "the hurricane starts on row 1")
    return sq


def place_hurricane(
    state: WindCityState, seat: int, sq: str, events: list[WindCityEvent] | None
) -> None:
    """The first player puts the hurricane on row 1 (in place: only scalars change)."""
    state["hurricane"] = sq
    state["phase"] = "houses"
    state["active"] = (state["first"] + 1) % state["num_players"]
    if events is not None:
        events.append({"type": "hurricane_placed", "seat": seat, "square": sq})


# square -> (row, section, on the beach?), for the placement checks.
_INFO: dict[str, tuple[int, int, bool]] = {
    sq: (r, board.SECTION[sq], r == board.BEACH_ROW) for sq, (_, r) in board.POS.items()
}
_QUOTA = board.QUOTA
_BEACH_MAX = board.BEACH_MAX
_IN_USE = board.SECTIONS_IN_USE


def check_house(state: WindCityState, seat: int, sq: Any, t: list[list[int]] | None = None) -> None:
    """Raise RuleError unless ``seat`` may place a house on ``sq`` now."""
    info = _INFO.get(sq) if isinstance(sq, str) else None
    if info is None or info[0] > state["north"]:
        raise RuleError("bad-square", "{sq!r} is not a square of the play area", sq=sq)
    _, section, beach = info
    if section == 0:
        raise RuleError("not-a-land-square", "{sq} is in the sea", sq=sq)
    n = state["num_players"]
    used = _IN_USE[n]
    if section > used:
        raise RuleError("section-not-in-use", "houses go only in land sections 1-{used}", used=used)
    if sq in state["observatories"]:
        raise RuleError("observatory", "{sq} is an observatory", sq=sq)
    if sq in state["houses"]:
        raise RuleError("square-occupied", "{sq} already holds a house", sq=sq)
    if t is None:
        t = tally(state)
    q = _QUOTA[n]
    mine = t[seat]
    if mine[section] >= q:
        raise RuleError(
            "quota-full", "you already have {q} houses in section L{section}", q=q, section=section
        )
    if beach and mine[0] >= _BEACH_MAX[n]:
        raise RuleError("beach-limit", "at most {max} beach houses each", max=_BEACH_MAX[n])
    if not _feasible_after(state, seat, sq, section, beach, t):
        raise RuleError("quota-impossible", "placing on {sq} makes the quotas impossible", sq=sq)


def _feasible_after(
    state: WindCityState, seat: int, sq: str, section: int, beach: bool, t: list[list[int]]
) -> bool:
    """Can every player still complete the quotas after this placement?"""
    ok = outlook(t, seat, _QUOTA[state["num_players"]])
    return ok[0] if beach else ok[1] if section == 1 else ok[2]


def outlook(t: list[list[int]], seat: int, q: int) -> tuple[bool, bool, bool]:
    """Whether every player can still complete the quotas after ``seat`` places a house
    on the beach, elsewhere in L1, or in another section.

    A player without a beach house still needs one, and room in L1 for it; there must be
    enough free beach squares for all of them. Section capacity never binds (58 free
    squares per section, at most n * quota <= 18 houses needed); only the 12 beach
    squares can run out."""
    need = taken = 0
    blocked = False  # another player without a beach house has no room left in L1
    for p, tp in enumerate(t):
        taken += tp[0]
        if not tp[0]:
            need += 1
            if p != seat and tp[1] >= q:
                blocked = True
    if blocked:
        return False, False, False
    free = board.NCOLS - taken
    mine = t[seat]
    if mine[0]:  # this seat has its beach house: only the others' needs count
        ok = free >= need
        return free - 1 >= need, ok, ok
    # the beach house is its own: one fewer needed, one fewer free
    return free - 1 >= need - 1, mine[1] + 1 < q and free >= need, mine[1] < q and free >= need


def check_placement(state: WindCityState, seat: int, move: Move) -> str:
    """Validate a house placement; returns its square.

    The common case (a free, allowed square) is checked inline; anything else goes
    through :func:`check_house`, which raises the rules' first error."""
    if len(move) != 2 or "square" not in move:
        for key in move:
            if key not in ("type", "square"):
                raise RuleError("bad-move", "unexpected field {key!r}", key=key)
    sq: Any = move.get("square")
    t = state.get("tally")
    info = _INFO.get(sq) if type(sq) is str else None
    n = state["num_players"]
    if (
        t is None
        or info is None
        or info[0] > state["north"]
        or not 0 < info[1] <= _IN_USE[n]
        or sq in state["houses"]
        or sq in state["observatories"]
    ):
        check_house(state, seat, sq, t)
        t = state["tally"]  # (a state without it fails here, as it always did)
        info = _INFO[sq]
    _, section, beach = info
    mine = t[seat]
    q = _QUOTA[n]
    if mine[section] >= q or (beach and mine[0] >= _BEACH_MAX[n]):
        check_house(state, seat, sq, t)
    ok = outlook(t, seat, q)
    if not (ok[0] if beach else ok[1] if section == 1 else ok[2]):
        check_house(state, seat, sq, t)
    return sq  # type: ignore[no-any-return]


def build(
    state: WindCityState,
    seat: int,
    sq: str,
    events: list[WindCityEvent] | None,
    owned: bool,
) -> None:
    """Place ``seat``'s house on ``sq``, then pass to the next placer or start the first
    turn. In place: with ``owned`` (a fork) houses, stock and tally are edited, else
    replaced by changed copies; ``events`` (``None``: not wanted) gets the public events."""
    _, section, beach = _INFO[sq]
    houses = state["houses"]
    stock = state["stock"]
    t = state["tally"]
    if owned:
        row = t[seat]
    else:
        houses = state["houses"] = dict(houses)
        stock = state["stock"] = list(stock)
        t = state["tally"] = list(t)
        row = t[seat] = list(t[seat])
    houses[sq] = BUILT[seat]
    stock[seat] -= 1
    row[section] += 1
    row[0] += beach
    if events is not None:
        events.append({"type": "house_placed", "seat": seat, "square": sq})
    n = state["num_players"]
    if len(houses) == HOUSES * n:
        del state["tally"]
        start_turn(state, state["first"], events)
        return
    state["active"] = (seat + 1) % n


CLASSES: dict[int, list[tuple[int, bool, tuple[str, ...]]]] = {
    n: [
        (
            board.section_of_row(first),
            first == board.BEACH_ROW,
            tuple(
                sq
                for row in range(first, last + 1)
                for sq in board.row_squares(row)
                if sq not in board.OBSERVATORIES
            ),
        )
        for first, last in [
            (board.BEACH_ROW, board.BEACH_ROW),
            (board.BEACH_ROW + 1, board.SECTION_ROWS[1][1]),
            *(board.SECTION_ROWS[s] for s in range(2, board.SECTIONS_IN_USE[n] + 1)),
        ]
    ]
    for n in board.SECTIONS_IN_USE
}
"""Per player count: the land in use as placement classes (section, on the beach?):
the beach row, the rest of L1, L2, ...; each with its squares in board order, the
observatories left out (setup puts one on every observatory square in the play area,
and the classes lie inside it)."""


def placement_runs(state: WindCityState, seat: int) -> list[tuple[tuple[str, ...], int]]:
    """The classes ``seat`` may place a house in now, in board order: each class's
    squares (a house may go on the free ones) and how many of them are free.

    Legality beyond the square itself depends only on (section, beach?), so the quota
    look-ahead runs once per listing instead of once per square."""
    n = state["num_players"]
    t = tally(state)
    q = _QUOTA[n]
    mine = t[seat]
    ok = outlook(t, seat, q)
    built = [0, 0, 0, 0, 0]  # houses on the board: on the beach, in L1 (beach included), ...
    for tp in t:
        built[0] += tp[0]
        built[1] += tp[1]
        built[2] += tp[2]
        built[3] += tp[3]
        built[4] += tp[4]
    built[1] -= built[0]  # L1 apart from the beach
    out = []
    for section, beach, squares in CLASSES[n]:
        if mine[section] < q and (
            (ok[0] and mine[0] < _BEACH_MAX[n]) if beach else ok[1] if section == 1 else ok[2]
        ):
            out.append((squares, len(squares) - built[0 if beach else section]))
    return out
