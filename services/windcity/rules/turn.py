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
_BEACH = board.BEACH_ROW
_BEACH_SQUARES = frozenset(board.row_squares(board.BEACH_ROW))

# Every ordered choice of 1-3 distinct actions out of 5 (1-based), fixed order.
ORDERINGS: tuple[tuple[int, ...], ...] = tuple(
    p for k in (1, 2, 3) for p in permutations(range(1, 6), k)
)


def renew_price(sq: str, h: list[Any]) -> int:
    return RENEW_PRICE[1] if h[1] == 2 or _ROW[sq] == _BEACH else RENEW_PRICE[0]


def insure_price(sq: str, h: list[Any]) -> int:
    return INSURE_PRICE[1] if h[1] == 2 or _ROW[sq] == _BEACH else INSURE_PRICE[0]


def start_turn(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Begin ``seat``'s turn: count it and draw (refilling the deck from the discards)."""
    events: list[dict[str, Any]] = []
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
        events.append({"type": "deck_reshuffled", "size": len(deck)})
    state["card"] = deck[0]
    state["deck"] = deck[1:]
    events.append({"type": "turn_started", "seat": seat, "turn": state["turn"]})
    events.append({"type": "card_drawn", "seat": seat})
    return events


def _square_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list):
        raise RuleError("bad-move", f"{what} must be a list of squares")
    for sq in value:
        if not isinstance(sq, str) or sq not in board.POS:
            raise RuleError("bad-square", f"{sq!r} is not a square")
    if len(set(value)) != len(value):
        raise RuleError("bad-move", f"{what} lists a square twice")
    return value


def check_plan(
    state: dict[str, Any], seat: int, move: dict[str, Any]
) -> tuple[list[int], Any, list[str], int]:
    """Validate a plan move; returns (actions, kauf target, renewals, renewal cost)."""
    for key in move:
        if key not in ("type", "actions", "kauf", "renew"):
            raise RuleError("bad-move", f"unexpected field {key!r}")
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
    if len(set(actions)) != len(actions):
        raise RuleError("bad-actions", "choose different actions")
    if not has_move:
        raise RuleError("bad-actions", "at least one chosen action must move the hurricane")
    renew = _square_list(move.get("renew", []), "renew")
    houses = state["houses"]
    cost = 0
    for sq in renew:
        h = _own_house(houses, seat, sq)
        if not h[2]:
            raise RuleError("not-insured", f"your house on {sq} is not insured")
        cost += renew_price(sq, h)
    kauf = move.get("kauf")
    if has_kauf:
        if kauf is None:
            raise RuleError("kauf-target-required", "a Kauf action needs a target square")
        if not isinstance(kauf, str) or kauf not in board.POS or _ROW[kauf] > state["north"]:
            raise RuleError("bad-square", f"{kauf!r} is not a square of the play area")
        if board.SECTION[kauf] == 0:
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


def apply_plan(state: dict[str, Any], seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
    """Record the secret plan, lapse/renew insurance publicly, open the market."""
    actions, kauf, renew, cost = check_plan(state, seat, move)
    houses = state["houses"]
    lapsed = [sq for sq, h in houses.items() if h[2] and h[0] == seat and sq not in renew]
    if lapsed:
        houses = dict(houses)
        for sq in lapsed:
            h = houses[sq]
            houses[sq] = [h[0], h[1], False]
    state["houses"] = houses
    events: list[dict[str, Any]] = [
        {
            "type": "plan_made",
            "seat": seat,
            "renew": board.sort_squares(renew),
            "lapsed": board.sort_squares(lapsed),
            "paid": cost,
        }
    ]
    if cost:
        money = list(state["money"])
        money[seat] -= cost
        state["money"] = money
        events.append(
            {"type": "payment", "payer": seat, "payee": "bank", "amount": cost, "reason": "renewal"}
        )
    state["plan"] = {"actions": list(actions), "kauf": kauf, "renew": events[0]["renew"][:]}
    # Who can answer: a seat with an uninsured house it can afford (3, or 6 for a beach
    # house or duplex); the others' only answer would be "nothing", so they are skipped.
    money = state["money"]
    alive = state["alive"]
    owners = {h[0] for h in houses.values() if not h[2]}
    pending: list[int] = []
    skipped: list[int] = []
    for p in range(state["num_players"]):
        if p == seat or not alive[p]:
            continue
        m = money[p]
        ok = p in owners and (
            m >= INSURE_PRICE[1]
            or (
                m >= INSURE_PRICE[0]
                and any(
                    h[0] == p and not h[2] and h[1] == 1 and sq not in _BEACH_SQUARES
                    for sq, h in houses.items()
                )
            )
        )
        (pending if ok else skipped).append(p)
    state["pending"] = pending
    state["phase"] = "insure"
    events.append(
        {"type": "insurance_market", "seller": seat, "pending": pending[:], "skipped": skipped}
    )
    return events


def _own_house(houses: dict[str, list[Any]], seat: int, square: str) -> list[Any]:
    """The house on ``square``, which must be ``seat``'s own."""
    h = houses.get(square)
    if h is None or h[0] != seat:
        raise RuleError("not-your-house", f"you have no house on {square}")
    return h


def apply_insure(state: dict[str, Any], seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
    """Insure some of ``seat``'s houses, paying the active player."""
    for key in move:
        if key not in ("type", "squares"):
            raise RuleError("bad-move", f"unexpected field {key!r}")
    squares = _square_list(move.get("squares"), "squares")
    houses = state["houses"]
    cost = 0
    for sq in squares:
        h = _own_house(houses, seat, sq)
        if h[2]:
            raise RuleError("already-insured", f"your house on {sq} is already insured")
        cost += insure_price(sq, h)
    if cost > state["money"][seat]:
        raise RuleError("cannot-afford", f"insurance costs {cost}")
    seller = state["active"]
    events: list[dict[str, Any]] = [
        {"type": "insured", "seat": seat, "squares": board.sort_squares(squares), "paid": cost}
    ]
    if squares:
        houses = dict(houses)
        for sq in squares:
            h = houses[sq]
            houses[sq] = [h[0], h[1], True]
        state["houses"] = houses
        money = list(state["money"])
        money[seat] -= cost
        money[seller] += cost
        state["money"] = money
        events.append(
            {
                "type": "payment",
                "payer": seat,
                "payee": seller,
                "amount": cost,
                "reason": "insurance",
            }
        )
    state["pending"] = [p for p in state["pending"] if p != seat]
    return events


def _greedy(items: list[tuple[str, int]], budget: int, skip: str | None = None) -> list[str]:
    out, total = [], 0
    for sq, price in items:
        if sq != skip and total + price <= budget:
            out.append(sq)
            total += price
    return out


def renewable(state: dict[str, Any], seat: int) -> list[tuple[str, int]]:
    """(square, renewal price) of ``seat``'s insured houses, in board order."""
    houses = state["houses"]
    sqs = board.sort_squares(sq for sq, h in houses.items() if h[0] == seat and h[2])
    return [(sq, renew_price(sq, houses[sq])) for sq in sqs]


def insurable(state: dict[str, Any], seat: int) -> list[tuple[str, int]]:
    """(square, insurance price) of ``seat``'s uninsured houses, in board order."""
    houses = state["houses"]
    sqs = board.sort_squares(sq for sq, h in houses.items() if h[0] == seat and not h[2])
    return [(sq, insure_price(sq, houses[sq])) for sq in sqs]


def kauf_targets(state: dict[str, Any], seat: int) -> list[str]:
    """Squares a plan may name for Kauf: the seat's single non-beach houses."""
    houses = state["houses"]
    return board.sort_squares(
        sq for sq, h in houses.items() if h[0] == seat and h[1] == 1 and _ROW[sq] != _BEACH
    )


def legal_plans(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every action ordering (x each Kauf target) with renew [] and renew-all-affordable."""
    card = CARDS[state["card"]]
    budget = state["money"][seat]
    ren = renewable(state, seat)
    targets = kauf_targets(state, seat)
    # renewal variants per Kauf target (a renewed target would be rejected)
    variants: dict[Any, list[list[str]]] = {}
    for t in [None, *targets]:
        full = _greedy(ren, budget, skip=t)
        variants[t] = [[], full] if full else [[]]
    out = []
    for order in _ORDERS_BY_KAUF[tuple(k == KAUF for k, _, _ in card)]:
        acts, has_kauf = order
        for t in targets if has_kauf else (None,):
            for renew in variants[t]:
                out.append({"type": "plan", "actions": list(acts), "kauf": t, "renew": list(renew)})
    return out


def _orders(kauf_mask: tuple[bool, ...]) -> list[tuple[tuple[int, ...], bool]]:
    out = []
    for order in ORDERINGS:
        kinds = [kauf_mask[a - 1] for a in order]
        if not all(kinds):
            out.append((order, any(kinds)))
    return out


_ORDERS_BY_KAUF = {
    mask: _orders(mask) for mask in {tuple(k == KAUF for k, _, _ in c) for c in CARDS.values()}
}


def legal_insures(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """[] , each single affordable house, and all affordable (greedy in board order)."""
    budget = state["money"][seat]
    ins = insurable(state, seat)
    out = [{"type": "insure", "squares": []}]
    singles = [sq for sq, price in ins if price <= budget]
    out.extend({"type": "insure", "squares": [sq]} for sq in singles)
    full = _greedy(ins, budget)
    if len(full) > 1:
        out.append({"type": "insure", "squares": full})
    return out
