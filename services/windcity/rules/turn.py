"""A turn before resolution: draw, the secret plan with public renewals, and the
insurance market where several seats answer in any order."""

from __future__ import annotations

from itertools import permutations
from typing import Any

import shared.rng as rng
from shared.engine import RuleError

from . import board
from .cards import CARDS, KAUF

RENEW_PRICE = (2, 3)  # single house, beach house or duplex
INSURE_PRICE = (3, 6)
_ROW = board.ROW
_POS = board.POS
_SECTION = board.SECTION
_BEACH = board.BEACH_ROW
_ORDER_GET = board.ORDER.__getitem__
# square -> renewal / insurance price of a single house there (beach: the higher price;
# a duplex pays the higher price anywhere)
_RENEW_SINGLE = {sq: RENEW_PRICE[r == _BEACH] for sq, r in _ROW.items()}
_INSURE_SINGLE = {sq: INSURE_PRICE[r == _BEACH] for sq, r in _ROW.items()}
_EMPTY: list[str] = []  # sentinel: no ``renew`` field
_BEACH_SQUARES = frozenset(board.row_squares(board.BEACH_ROW))

# Every ordered choice of 1-3 distinct actions out of 5 (1-based), fixed order.
ORDERINGS: tuple[tuple[int, ...], ...] = tuple(
    p for k in (1, 2, 3) for p in permutations(range(1, 6), k)
)


def start_turn(state: dict[str, Any], seat: int, events: list[dict[str, Any]] | None) -> None:
    """Begin ``seat``'s turn: count it and draw (refilling the deck from the discards).

    In place on a state whose deck, discard and scalars it may replace (they are
    replaced, never edited); ``events`` (``None``: not wanted) gets the public events."""
    state["turn"] += 1
    state["active"] = seat
    state["phase"] = "plan"
    state["plan"] = None
    state["pending"] = []
    deck = state["deck"]
    if not deck:
        s, deck = rng.shuffle(state["rng"], state["discard"])
        state["rng"] = s
        state["discard"] = []
        if events is not None:
            events.append({"type": "deck_reshuffled", "size": len(deck)})
    state["card"] = deck[0]
    state["deck"] = deck[1:]
    if events is not None:
        events.append({"type": "turn_started", "seat": seat, "turn": state["turn"]})
        events.append({"type": "card_drawn", "seat": seat})


def _square_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list):
        raise RuleError("bad-move", f"{what} must be a list of squares")
    for sq in value:
        if not isinstance(sq, str) or sq not in _POS:
            raise RuleError("bad-square", f"{sq!r} is not a square")
    if len(value) > 1 and len(set(value)) != len(value):
        raise RuleError("bad-move", f"{what} lists a square twice")
    return value


def _bad_field(move: dict[str, Any], allowed: tuple[str, ...]) -> None:
    for key in move:
        if key not in allowed:
            raise RuleError("bad-move", f"unexpected field {key!r}")


_PLAN_FIELDS = ("type", "actions", "kauf", "renew")
_PLAN_FIELD_SET = frozenset(_PLAN_FIELDS)


def check_plan(
    state: dict[str, Any], seat: int, move: dict[str, Any]
) -> tuple[list[int], Any, list[str], int]:
    """Validate a plan move; returns (actions, kauf target, renewals, renewal cost)."""
    if not move.keys() <= _PLAN_FIELD_SET:
        _bad_field(move, _PLAN_FIELDS)
    actions = move.get("actions")
    if type(actions) is not list or not 1 <= len(actions) <= 3:
        raise RuleError("bad-actions", "choose 1-3 different actions numbered 1-5, in order")
    card = CARDS[state["card"]]
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
    renew = move.get("renew", _EMPTY)
    houses = state["houses"]
    cost = 0
    if renew is _EMPTY or (type(renew) is list and not renew):
        renew = []
    else:
        # Fast path: our distinct insured houses; anything else is checked again in the
        # rules' order, so the error is the same.
        ok = type(renew) is list
        if ok:
            try:
                for sq in renew:
                    h = houses.get(sq)
                    if h is None or h[0] != seat or not h[2]:
                        ok = False
                        break
            except (TypeError, KeyError):  # an unhashable item; a board without that square
                ok = False
            if ok and len(renew) > 1 and len(set(renew)) != len(renew):
                ok = False
        if not ok:
            renew = _square_list(renew, "renew")
            for sq in renew:
                h = _own_house(houses, seat, sq)
                if not h[2]:
                    raise RuleError("not-insured", f"your house on {sq} is not insured")
        cost = renewal_cost(houses, renew)
    kauf = move.get("kauf")
    if has_kauf:
        if kauf is None:
            raise RuleError("kauf-target-required", "a Kauf action needs a target square")
        if not isinstance(kauf, str) or kauf not in _POS or _ROW[kauf] > state["north"]:
            raise RuleError("bad-square", f"{kauf!r} is not a square of the play area")
        if _SECTION[kauf] == 0:
            raise RuleError("not-a-land-square", f"{kauf} is in the sea")
        h = _own_house(houses, seat, kauf)
        if h[1] == 2 or _ROW[kauf] == _BEACH or kauf in renew:
            raise RuleError(
                "bad-kauf-target", "Kauf needs one of your single, uninsured, non-beach houses"
            )
    elif kauf is not None:
        raise RuleError("bad-move", "kauf must be null when no Kauf action is chosen")
    if cost > state["money"][seat]:
        raise RuleError("cannot-afford", f"renewals cost {cost}")
    return actions, kauf, renew, cost


def renewal_cost(houses: dict[str, list[Any]], renew: list[str]) -> int:
    """What renewing ``renew`` (insured houses) costs: 2 a house, 3 a beach house or duplex."""
    cost = 0
    for sq in renew:
        cost += RENEW_PRICE[1] if houses[sq][1] == 2 else _RENEW_SINGLE[sq]
    return cost


def make_plan(
    state: dict[str, Any],
    seat: int,
    actions: list[int],
    kauf: str | None,
    renew: list[str],
    cost: int,
    events: list[dict[str, Any]] | None,
    owned: bool,
) -> None:
    """Record the secret plan, lapse/renew insurance publicly, open the market.

    In place: with ``owned`` (a fork) the houses and money are edited, else replaced
    by changed copies; ``events`` (``None``: not wanted) gets the public events."""
    houses = state["houses"]
    n = state["num_players"]
    lapsed = [sq for sq, h in houses.items() if h[2] and h[0] == seat and sq not in renew]
    if lapsed:
        if not owned:
            houses = dict(houses)
            state["houses"] = houses
        for sq in lapsed:
            h = houses[sq]
            houses[sq] = [h[0], h[1], False]
    renew_sorted = _sorted(renew)
    if events is not None:
        events.append(
            {
                "type": "plan_made",
                "seat": seat,
                "renew": renew_sorted,
                "lapsed": _sorted(lapsed),
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
            if not h[2]:
                p = h[0]
                k = need.get(p)
                if k is not None and (k == 1 or (h[1] == 1 and _ROW[sq] != _BEACH)):
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


def _own_house(houses: dict[str, list[Any]], seat: int, square: str) -> list[Any]:
    """The house on ``square``, which must be ``seat``'s own."""
    h = houses.get(square)
    if h is None or h[0] != seat:
        raise RuleError("not-your-house", f"you have no house on {square}")
    return h


def insurance_cost(houses: dict[str, list[Any]], squares: list[str]) -> int:
    """What insuring ``squares`` (uninsured houses) costs: 3 a house, 6 a beach house or
    duplex."""
    cost = 0
    for sq in squares:
        cost += INSURE_PRICE[1] if houses[sq][1] == 2 else _INSURE_SINGLE[sq]
    return cost


def check_insure(state: dict[str, Any], seat: int, move: dict[str, Any]) -> tuple[list[str], int]:
    """Validate an insure move; returns (squares, cost)."""
    if len(move) != 2 or "squares" not in move:
        _bad_field(move, ("type", "squares"))
    squares: Any = move.get("squares")
    houses = state["houses"]
    # Fast path: a list of our distinct uninsured houses; anything else is checked again
    # below in the rules' order, so the error is the same.
    ok = type(squares) is list
    if ok:
        try:
            for sq in squares:
                h = houses.get(sq)
                if h is None or h[0] != seat or h[2]:
                    ok = False
                    break
        except TypeError:  # an unhashable item
            ok = False
        if ok and len(squares) > 1 and len(set(squares)) != len(squares):
            ok = False
    if not ok:
        squares = _square_list(squares, "squares")
        for sq in squares:
            h = _own_house(houses, seat, sq)
            if h[2]:
                raise RuleError("already-insured", f"your house on {sq} is already insured")
    cost = insurance_cost(houses, squares) if squares else 0
    if cost > state["money"][seat]:
        raise RuleError("cannot-afford", f"insurance costs {cost}")
    return squares, cost


def insure(
    state: dict[str, Any],
    seat: int,
    squares: list[str],
    cost: int,
    events: list[dict[str, Any]] | None,
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
        houses[sq] = [h[0], h[1], True]
    money[seat] -= cost
    money[seller] += cost
    if events is not None:
        events.append({"type": "insured", "seat": seat, "squares": _sorted(squares), "paid": cost})
        events.append(
            {
                "type": "payment",
                "payer": seat,
                "payee": seller,
                "amount": cost,
                "reason": "insurance",
            }
        )


def _sorted(squares: list[str]) -> list[str]:
    """A new list of ``squares`` in board order (:func:`board.sort_squares`)."""
    if len(squares) > 1:
        return sorted(squares, key=_ORDER_GET)
    return list(squares)


def _mine(houses: dict[str, list[Any]], seat: int) -> list[str]:
    """``seat``'s houses, in board order."""
    out = [sq for sq, h in houses.items() if h[0] == seat]
    if len(out) > 1:
        out.sort(key=_ORDER_GET)
    return out


def _renewable(houses: dict[str, list[Any]], mine: list[str]) -> list[tuple[str, int]]:
    return [
        (sq, RENEW_PRICE[1] if h[1] == 2 else _RENEW_SINGLE[sq])
        for sq in mine
        if (h := houses[sq])[2]
    ]


def _kauf_targets(houses: dict[str, list[Any]], mine: list[str]) -> list[str]:
    return [sq for sq in mine if houses[sq][1] == 1 and _ROW[sq] != _BEACH]


def renewable(state: dict[str, Any], seat: int) -> list[tuple[str, int]]:
    """(square, renewal price) of ``seat``'s insured houses, in board order."""
    houses = state["houses"]
    return _renewable(houses, _mine(houses, seat))


def insurable(state: dict[str, Any], seat: int) -> list[tuple[str, int]]:
    """(square, insurance price) of ``seat``'s uninsured houses, in board order."""
    houses = state["houses"]
    return [
        (sq, INSURE_PRICE[1] if h[1] == 2 else _INSURE_SINGLE[sq])
        for sq in _mine(houses, seat)
        if not (h := houses[sq])[2]
    ]


def kauf_targets(state: dict[str, Any], seat: int) -> list[str]:
    """Squares a plan may name for Kauf: the seat's single non-beach houses."""
    houses = state["houses"]
    return _kauf_targets(houses, _mine(houses, seat))


def greedy(items: list[tuple[str, int]], budget: int, skip: str | None = None) -> list[str]:
    """The items taken in order while they fit in ``budget`` (never ``skip``): the
    ready-made "all affordable" subset of the listings."""
    out, total = [], 0
    for sq, price in items:
        if sq != skip and total + price <= budget:
            out.append(sq)
            total += price
    return out


def plan_parts(
    state: dict[str, Any], seat: int
) -> tuple[list[tuple[None, list[str]]], list[tuple[str, list[str]]]]:
    """The (Kauf target, renewals) a plan of ``seat`` may carry, in listing order: without
    a Kauf action, and with one (x each Kauf target); renewals [] and, if any, every
    affordable one (greedy in board order; a renewed target would be rejected)."""
    houses = state["houses"]
    budget = state["money"][seat]
    mine = _mine(houses, seat)
    ren = _renewable(houses, mine)
    targets = _kauf_targets(houses, mine)
    empty: list[str] = []
    if not ren:
        return [(None, empty)], [(t, empty) for t in targets]
    full = greedy(ren, budget)
    plain: list[tuple[None, list[str]]] = [(None, empty), (None, full)] if full else [(None, empty)]
    with_kauf: list[tuple[str, list[str]]] = []
    renewed = {sq for sq, _ in ren}
    all_fit = sum([price for _, price in ren]) <= budget
    for t in targets:
        with_kauf.append((t, empty))
        if t not in renewed:  # skipping it changes nothing: the same list
            fits = full
        elif all_fit:  # everything fits, so everything but the target does
            fits = [sq for sq in full if sq != t]
        else:
            fits = greedy(ren, budget, skip=t)
        if fits:
            with_kauf.append((t, fits))
    return plain, with_kauf


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


def insure_parts(state: dict[str, Any], seat: int) -> tuple[list[str], list[str]]:
    """What the listed insure moves hold besides []: each single affordable house, and
    all affordable ones (greedy in board order) when that is more than one."""
    budget = state["money"][seat]
    ins = insurable(state, seat)
    singles = [sq for sq, price in ins if price <= budget]
    full = greedy(ins, budget)
    return singles, full if len(full) > 1 else []
