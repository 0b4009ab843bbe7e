"""Setup: the initial state, the hurricane on row 1, and house placement with quotas.

Placement legality includes a look-ahead: a house may not be placed if the section
quotas or the beach minimum could then no longer be met by someone.
"""

from __future__ import annotations

from typing import Any, cast

from shared.engine import RuleError

from . import board
from .state import HOUSES
from .turn import start_turn


def tally(state: dict[str, Any]) -> list[list[int]]:
    """Per seat: [beach houses, houses in land section 1, 2, 3, 4]."""
    if "tally" in state:
        return cast(list[list[int]], state["tally"])
    t = [[0, 0, 0, 0, 0] for _ in range(state["num_players"])]
    sec = board.SECTION
    for sq, h in state["houses"].items():
        row = t[h[0]]
        row[sec[sq]] += 1
        if board.ROW[sq] == board.BEACH_ROW:
            row[0] += 1
    return t


def place_hurricane(state: dict[str, Any], seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
    """The first player puts the hurricane on row 1 (mutates the fresh copy ``state``)."""
    sq = move.get("square")
    if not isinstance(sq, str) or sq not in board.POS:
        raise RuleError("bad-square", f"{sq!r} is not a square")
    if board.ROW[sq] != 1:
        raise RuleError("not-row-one", "the hurricane starts on row 1")
    state["hurricane"] = sq
    state["phase"] = "houses"
    state["active"] = (state["first"] + 1) % state["num_players"]
    return [{"type": "hurricane_placed", "seat": seat, "square": sq}]


# square -> (row, section, on the beach?), for the placement checks.
_INFO: dict[str, tuple[int, int, bool]] = {
    sq: (r, board.SECTION[sq], r == board.BEACH_ROW) for sq, (_, r) in board.POS.items()
}
_QUOTA = board.QUOTA
_BEACH_MAX = board.BEACH_MAX
_IN_USE = board.SECTIONS_IN_USE


def check_house(
    state: dict[str, Any], seat: int, sq: Any, t: list[list[int]] | None = None
) -> None:
    """Raise RuleError unless ``seat`` may place a house on ``sq`` now."""
    info = _INFO.get(sq) if isinstance(sq, str) else None
    if info is None or info[0] > state["north"]:
        raise RuleError("bad-square", f"{sq!r} is not a square of the play area")
    _, section, beach = info
    if section == 0:
        raise RuleError("not-a-land-square", f"{sq} is in the sea")
    n = state["num_players"]
    used = _IN_USE[n]
    if section > used:
        raise RuleError("section-not-in-use", f"houses go only in land sections 1-{used}")
    if sq in state["observatories"]:
        raise RuleError("observatory", f"{sq} is an observatory")
    if sq in state["houses"]:
        raise RuleError("square-occupied", f"{sq} already holds a house")
    if t is None:
        t = tally(state)
    q = _QUOTA[n]
    mine = t[seat]
    if mine[section] >= q:
        raise RuleError("quota-full", f"you already have {q} houses in section L{section}")
    if beach and mine[0] >= _BEACH_MAX[n]:
        raise RuleError("beach-limit", f"at most {_BEACH_MAX[n]} beach houses each")
    if not _feasible_after(state, seat, sq, section, beach, t):
        raise RuleError("quota-impossible", f"placing on {sq} makes the quotas impossible")


def _feasible_after(
    state: dict[str, Any], seat: int, sq: str, section: int, beach: bool, t: list[list[int]]
) -> bool:
    """Can every player still complete the quotas after this placement?

    A player without a beach house still needs one, and room in L1 for it; there must be
    enough free beach squares for all of them. Section capacity never binds (58 free
    squares per section, at most n * quota <= 18 houses needed); only the 12 beach
    squares can run out."""
    b = [tp[0] for tp in t]  # beach houses per seat, after this placement
    if beach:
        b[seat] += 1
    need = b.count(0)
    if need:
        q = _QUOTA[state["num_players"]]
        for p, tp in enumerate(t):
            if not b[p] and tp[1] + (p == seat and section == 1) >= q:
                return False  # no room left in L1 for this seat's compulsory beach house
    free: int = board.NCOLS - sum(b)
    return free >= need


def place_house(state: dict[str, Any], seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
    """Place one house, then pass to the next placer or start the first turn.

    The common case (a free, allowed square) is checked inline; anything else goes
    through :func:`check_house`, which raises the rules' first error."""
    if len(move) != 2 or "square" not in move:
        for key in move:
            if key not in ("type", "square"):
                raise RuleError("bad-move", f"unexpected field {key!r}")
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
    if (
        mine[section] >= _QUOTA[n]
        or (beach and mine[0] >= _BEACH_MAX[n])
        or not _feasible_after(state, seat, sq, section, beach, t)
    ):
        check_house(state, seat, sq, t)
    houses = dict(state["houses"])
    houses[sq] = [seat, 1, False]
    state["houses"] = houses
    stock = list(state["stock"])
    stock[seat] -= 1
    state["stock"] = stock
    t = list(t)
    row = list(mine)
    row[section] += 1
    row[0] += beach
    t[seat] = row
    state["tally"] = t
    if len(houses) == HOUSES * n:
        del state["tally"]
        events = [{"type": "house_placed", "seat": seat, "square": sq}]
        events += start_turn(state, state["first"])
        return events
    state["active"] = (seat + 1) % n
    return [{"type": "house_placed", "seat": seat, "square": sq}]


def legal_placements(state: dict[str, Any], seat: int) -> list[str]:
    """Every square where ``seat`` may place a house now, in board order.

    Legality beyond the square itself depends only on (section, beach?), so the quota
    look-ahead runs once per class instead of once per square."""
    n = state["num_players"]
    t = tally(state)
    houses = state["houses"]
    obs = state["observatories"]
    q = board.QUOTA[n]
    mine = t[seat]
    out = []
    last_row = board.SECTION_ROWS[board.SECTIONS_IN_USE[n]][1]
    ok: dict[tuple[int, bool], bool] = {}
    for row in range(board.BEACH_ROW, last_row + 1):
        section = board.section_of_row(row)
        beach = row == board.BEACH_ROW
        cls = (section, beach)
        if cls not in ok:
            ok[cls] = (
                mine[section] < q
                and not (beach and mine[0] >= board.BEACH_MAX[n])
                and _feasible_after(state, seat, "", section, beach, t)
            )
        if not ok[cls]:
            continue
        for sq in board.row_squares(row):
            if sq not in houses and sq not in obs:
                out.append(sq)
    return out
