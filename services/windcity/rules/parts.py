"""What a seat's plan and insure moves may carry, from its houses: the houses it may
renew or insure (with their prices) and its Kauf targets, and the parts the listings
combine (a Kauf target or none, and the ready-made subsets: nothing, one house, or all
affordable ones greedily in board order)."""

from __future__ import annotations

from . import board
from .insurance import INSURE_PRICE, INSURE_SINGLE, RENEW_PRICE, RENEW_SINGLE
from .state import House, WindCityState

_ROW = board.ROW
_BEACH = board.BEACH_ROW
_ORDER_GET = board.ORDER.__getitem__

Priced = list[tuple[str, int]]
"""(square, price) of houses, in board order."""
Part = tuple[str | None, list[str]]
"""What a listed plan carries besides its actions: (Kauf target or None, renewals)."""


def _mine(houses: dict[str, House], seat: int) -> list[str]:
    """``seat``'s houses, in board order."""
    out = [sq for sq, h in houses.items() if h.owner == seat]
    if len(out) > 1:
        out.sort(key=_ORDER_GET)
    return out


def _renewable(houses: dict[str, House], mine: list[str]) -> Priced:
    return [
        (sq, RENEW_PRICE[1] if h.pieces == 2 else RENEW_SINGLE[sq])
        for sq in mine
        if (h := houses[sq]).insured
    ]


def _kauf_targets(houses: dict[str, House], mine: list[str]) -> list[str]:
    return [sq for sq in mine if houses[sq].pieces == 1 and _ROW[sq] != _BEACH]


def renewable(state: WindCityState, seat: int) -> Priced:
    """(square, renewal price) of ``seat``'s insured houses, in board order."""
    houses = state["houses"]
    return _renewable(houses, _mine(houses, seat))


def insurable(state: WindCityState, seat: int) -> Priced:
    """(square, insurance price) of ``seat``'s uninsured houses, in board order."""
    houses = state["houses"]
    return [
        (sq, INSURE_PRICE[1] if h.pieces == 2 else INSURE_SINGLE[sq])
        for sq in _mine(houses, seat)
        if not (h := houses[sq]).insured
    ]


def kauf_targets(state: WindCityState, seat: int) -> list[str]:
    """Squares a plan may name for Kauf: the seat's single non-beach houses."""
    houses = state["houses"]
    return _kauf_targets(houses, _mine(houses, seat))


def greedy(items: Priced, budget: int, skip: str | None = None) -> list[str]:
    """The items taken in order while they fit in ``budget`` (never ``skip``): the
    ready-made "all affordable" subset of the listings."""
    out, total = [], 0
    for sq, price in items:
        if sq != skip and total + price <= budget:
            out.append(sq)
            total += price
    return out


def plan_parts(state: WindCityState, seat: int) -> tuple[list[Part], list[Part]]:
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
    plain: list[Part] = [(None, empty), (None, full)] if full else [(None, empty)]
    with_kauf: list[Part] = []
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


def insure_parts(state: WindCityState, seat: int) -> tuple[list[str], list[str]]:
    """What the listed insure moves hold besides []: each single affordable house, and
    all affordable ones (greedy in board order) when that is more than one."""
    budget = state["money"][seat]
    ins = insurable(state, seat)
    singles = [sq for sq, price in ins if price <= budget]
    full = greedy(ins, budget)
    return singles, full if len(full) > 1 else []
