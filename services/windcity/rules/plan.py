"""The active seat's plan (the ``plan`` move): its secret action order and Kauf target,
the public renewals and lapses, and opening the insurance market to the seats that can
buy."""

from __future__ import annotations

from shared.engine import Move, RuleError

from . import board
from .cards import CARDS, KAUF
from .checks import bad_field, own_house, square_list
from .insurance import INSURE_PRICE, renewal_cost
from .shapes import WindCityEvent
from .state import UNINSURED, House, WindCityState

_ROW = board.ROW
_POS = board.POS
_SECTION = board.SECTION
_BEACH = board.BEACH_ROW
_EMPTY: list[str] = []  # sentinel: no ``renew`` field
_PLAN_FIELDS = ("type", "actions", "kauf", "renew")
_PLAN_FIELD_SET = frozenset(_PLAN_FIELDS)


def check_plan(
    state: WindCityState, seat: int, move: Move
) -> tuple[list[int], str | None, list[str], int]:
    """Validate a plan move; returns (actions, kauf target, renewals, renewal cost)."""
    if not move.keys() <= _PLAN_FIELD_SET:
        bad_field(move, _PLAN_FIELDS)
    actions, has_kauf = _check_actions(state, move.get("actions"))
    houses = state["houses"]
    renew = _check_renewals(houses, seat, move.get("renew", _EMPTY))
    cost = renewal_cost(houses, renew) if renew else 0
    kauf = move.get("kauf")
    if has_kauf:
        _check_kauf(state, seat, kauf, renew)
    elif kauf is not None:
        raise RuleError("bad-move", "kauf must be null when no Kauf action is chosen")
    if cost > state["money"][seat]:
        raise RuleError("cannot-afford", "renewals cost {cost}", cost=cost)
    return actions, kauf, renew, cost


def _check_actions(state: WindCityState, actions: object) -> tuple[list[int], bool]:
    """The plan's actions checked against the drawn card, and whether one is Kauf."""
    if type(actions) is not list or not 1 <= len(actions) <= 3:
        raise RuleError("bad-actions", "choose 1-3 different actions numbered 1-5, in order")
    card_no = state["card"]
    assert card_no is not None  # drawn when the plan phase began
    card = CARDS[card_no]
    has_kauf = has_move = False
    for a in actions:
        if type(a) is not int or not 1 <= a <= 5:  # type() also rejects bools
            raise RuleError("bad-actions", "actions are numbers 1-5 on the drawn card")
        if card[a - 1][0] == KAUF:
            has_kauf = True
        else:
            has_move = True
    if len(actions) > 1 and len(set(actions)) != len(actions):
        raise RuleError("bad-actions", "choose different actions")
    if not has_move:
        raise RuleError("bad-actions", "at least one chosen action must move the hurricane")
    return actions, has_kauf


def _check_renewals(houses: dict[str, House], seat: int, renew: object) -> list[str]:
    """The ``renew`` field checked: the seat's own distinct insured houses."""
    if renew is _EMPTY or (type(renew) is list and not renew):
        return []
    # Fast path: our distinct insured houses; anything else is checked again in the
    # rules' order, so the error is the same.
    if type(renew) is list and _own_insured(houses, seat, renew):
        return renew
    checked = square_list(renew, "renew")
    for sq in checked:
        if not own_house(houses, seat, sq).insured:
            raise RuleError("not-insured", "your house on {sq} is not insured", sq=sq)
    return checked


def _own_insured(houses: dict[str, House], seat: int, renew: list[str]) -> bool:
    """Whether ``renew`` lists distinct squares of the seat's insured houses."""
    try:
        for sq in renew:
            h = houses.get(sq)
            if h is None or h.owner != seat or not h.insured:
                return False
    except (TypeError, KeyError):  # an unhashable item; a board without that square
        return False
    return len(renew) < 2 or len(set(renew)) == len(renew)


def _check_kauf(state: WindCityState, seat: int, kauf: object, renew: list[str]) -> None:
    """A Kauf's target: one of the seat's single, uninsured, non-beach houses in the play
    area, not renewed this turn."""
    if kauf is None:
        raise RuleError("kauf-target-required", "a Kauf action needs a target square")
    if not isinstance(kauf, str) or kauf not in _POS or _ROW[kauf] > state["north"]:
        raise RuleError("bad-square", "{kauf!r} is not a square of the play area", kauf=kauf)
    if _SECTION[kauf] == 0:
        raise RuleError("not-a-land-square", "{kauf} is in the sea", kauf=kauf)
    h = own_house(state["houses"], seat, kauf)
    if h.pieces == 2 or _ROW[kauf] == _BEACH or kauf in renew:
        raise RuleError(
            "bad-kauf-target", "Kauf needs one of your single, uninsured, non-beach houses"
        )


def make_plan(
    state: WindCityState,
    seat: int,
    actions: list[int],
    kauf: str | None,
    renew: list[str],
    cost: int,
    events: list[WindCityEvent] | None,
    owned: bool,
) -> None:
    """Record the secret plan, lapse/renew insurance publicly, open the market.

    In place: with ``owned`` (a fork) the houses and money are edited, else replaced
    by changed copies; ``events`` (``None``: not wanted) gets the public events."""
    houses = state["houses"]
    n = state["num_players"]
    lapsed = [sq for sq, h in houses.items() if h.owner == seat and h.insured and sq not in renew]
    if lapsed:
        if not owned:
            houses = dict(houses)
            state["houses"] = houses
        for sq in lapsed:
            h = houses[sq]
            houses[sq] = UNINSURED[h]
    renew_sorted = board.sort_squares(renew)
    if events is not None:
        events.append(
            {
                "type": "plan_made",
                "seat": seat,
                "renew": renew_sorted,
                "lapsed": board.sort_squares(lapsed),
                "paid": cost,
            }
        )
        renew_sorted = renew_sorted[:]
    money = state["money"]
    if cost:
        if not owned:
            money = list(money)
            state["money"] = money
        money[seat] -= cost
        if events is not None:
            events.append(
                {
                    "type": "payment",
                    "payer": seat,
                    "payee": "bank",
                    "amount": cost,
                    "reason": "renewal",
                }
            )
    state["plan"] = {"actions": list(actions), "kauf": kauf, "renew": renew_sorted}
    # Who can answer: a seat with an uninsured house it can afford (3, or 6 for a beach
    # house or duplex); the others' only answer would be "nothing", so they are skipped.
    alive = state["alive"]
    others = [p for p in range(n) if p != seat and alive[p]]
    # seat -> what it must own to answer: 1 any uninsured house, 2 a cheap one (single,
    # not on the beach); the scan stops once every such seat is known to have one.
    need: dict[int, int] = {}
    for p in others:
        m = money[p]
        if m >= INSURE_PRICE[1]:
            need[p] = 1
        elif m >= INSURE_PRICE[0]:
            need[p] = 2
    can: set[int] = set()
    if need:
        for sq, h in houses.items():
            if not h.insured:
                p = h.owner
                k = need.get(p)
                if k is not None and (k == 1 or (h.pieces == 1 and _ROW[sq] != _BEACH)):
                    del need[p]
                    can.add(p)
                    if not need:
                        break
    pending = [p for p in others if p in can]
    state["pending"] = pending
    state["phase"] = "insure"
    if events is not None:
        skipped = [p for p in others if p not in can]
        events.append(
            {"type": "insurance_market", "seller": seat, "pending": pending[:], "skipped": skipped}
        )
