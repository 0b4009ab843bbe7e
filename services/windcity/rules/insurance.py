"""Insurance: its prices (renewing and buying), and the market where the other seats
buy it from the active seat, answering in any order (the ``insure`` move)."""

from __future__ import annotations

from typing import Any

from shared.engine import Move, RuleError

from . import board
from .checks import bad_field, own_house, square_list
from .shapes import WindCityEvent
from .state import INSURED, House, WindCityState

RENEW_PRICE = (2, 3)  # single house; beach house or duplex
INSURE_PRICE = (3, 6)
_ROW = board.ROW
_BEACH = board.BEACH_ROW
RENEW_SINGLE: dict[str, int] = {sq: RENEW_PRICE[r == _BEACH] for sq, r in _ROW.items()}
"""square -> renewing a single house there (a beach house: the higher price; a duplex
pays the higher price anywhere)."""
INSURE_SINGLE: dict[str, int] = {sq: INSURE_PRICE[r == _BEACH] for sq, r in _ROW.items()}
"""square -> insuring a single house there (as :data:`RENEW_SINGLE`)."""


def renewal_cost(houses: dict[str, House], renew: list[str]) -> int:
    """What renewing ``renew`` (insured houses) costs: 2 a house, 3 a beach house or duplex."""
    cost = 0
    for sq in renew:
        cost += RENEW_PRICE[1] if houses[sq].pieces == 2 else RENEW_SINGLE[sq]
    return cost


def insurance_cost(houses: dict[str, House], squares: list[str]) -> int:
    """What insuring ``squares`` (uninsured houses) costs: 3 a house, 6 a beach house or
    duplex."""
    cost = 0
    for sq in squares:
        cost += INSURE_PRICE[1] if houses[sq].pieces == 2 else INSURE_SINGLE[sq]
    return cost


def check_insure(state: WindCityState, seat: int, move: Move) -> tuple[list[str], int]:
    """Validate an insure move; returns (squares, cost)."""
    if len(move) != 2 or "squares" not in move:
        bad_field(move, ("type", "squares"))
    squares: Any = move.get("squares")
    houses = state["houses"]
    # Fast path: a list of our distinct uninsured houses; anything else is checked again
    # below in the rules' order, so the error is the same.
    ok = type(squares) is list
    if ok:
        try:
            for sq in squares:
                h = houses.get(sq)
                if h is None or h.owner != seat or h.insured:
                    ok = False
                    break
        except TypeError:  # an unhashable item
            ok = False
        if ok and len(squares) > 1 and len(set(squares)) != len(squares):
            ok = False
    if not ok:
        squares = square_list(squares, "squares")
        for sq in squares:
            if own_house(houses, seat, sq).insured:
                raise RuleError("already-insured", "your house on {sq} is already insured", sq=sq)
    cost = insurance_cost(houses, squares) if squares else 0
    if cost > state["money"][seat]:
        raise RuleError("cannot-afford", "insurance costs {cost}", cost=cost)
    return squares, cost


def insure(
    state: WindCityState,
    seat: int,
    squares: list[str],
    cost: int,
    events: list[WindCityEvent] | None,
    owned: bool,
) -> None:
    """Insure some of ``seat``'s houses (``seat`` is pending), paying the active player.

    In place: with ``owned`` (a fork) the pending list, houses and money are edited, else
    replaced by changed copies; ``events`` (``None``: not wanted) gets the public events."""
    # seat is pending (checked by the caller) and a market lists each seat once
    pending = state["pending"]
    if not owned:
        pending = list(pending)
        state["pending"] = pending
    pending.remove(seat)
    if seat in pending:  # never in a market this engine opened; same answer anyway
        pending[:] = [p for p in pending if p != seat]
    if not squares:
        if events is not None:
            events.append({"type": "insured", "seat": seat, "squares": [], "paid": 0})
        return
    seller = state["active"]
    houses = state["houses"]
    money = state["money"]
    if not owned:
        houses = dict(houses)
        state["houses"] = houses
        money = list(money)
        state["money"] = money
    for sq in squares:
        h = houses[sq]
        houses[sq] = INSURED[h]
    money[seat] -= cost
    money[seller] += cost
    if events is not None:
        events.append(
            {"type": "insured", "seat": seat, "squares": board.sort_squares(squares), "paid": cost}
        )
        events.append(
            {
                "type": "payment",
                "payer": seat,
                "payee": seller,
                "amount": cost,
                "reason": "insurance",
            }
        )
