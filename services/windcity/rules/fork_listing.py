"""A fork's plan and placement listings (:func:`plans`, :func:`placements`): those of
:func:`listing.legal_actions`, the same moves in the same order, made from the fork's
caches (:mod:`.forks`) instead of the whole board (its insure listing is
:func:`playpath.legal_actions`'s own).

A placement listing is a list of the shared moves, a plan listing a :class:`ForkPlans`,
which counts the Kauf parts instead of building them."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from typing import Any

from . import board
from .cards import ORDERS_BY_CARD
from .forks import OTHERS, Fork, free, own
from .insurance import RENEW_PRICE, RENEW_SINGLE
from .listing import STARTS, Lazy, starts_of
from .parts import Part, greedy
from .shapes import PlaceHouse, PlanMove
from .state import WindCityState

_ROW = board.ROW
_BEACH = board.BEACH_ROW
_QUOTA = board.QUOTA
_BEACH_MAX = board.BEACH_MAX
_RENEW_DUPLEX = RENEW_PRICE[1]
_EMPTY: list[str] = []  # the renewals of every part without any (read-only)
_PLAIN_ONLY: list[Part] = [(None, _EMPTY)]


class ForkPlans(Lazy[PlanMove]):
    """A fork's plan listing: :class:`listing.PlanMoves`'s moves in its order, with the
    Kauf parts of :func:`parts.plan_parts` counted instead of built (a part is built when
    its move is read).

    Each target comes with no renewals, then with the affordable ones besides it (greedy,
    the target skipped) unless there are none: such a part is missing for every target
    when no renewal is affordable (``step`` 1, else 2), or for one target alone when the
    one affordable renewal is that target's (``single``, at ``single_at`` among the
    parts)."""

    __slots__ = (
        "_orders",
        "_starts",
        "_plain",
        "_targets",
        "_ren",
        "_budget",
        "_full",
        "_step",
        "_single",
        "_single_at",
        "_kauf_len",
    )

    def __init__(
        self,
        card: int,
        plain: list[Part],
        targets: list[str],
        ren: list[tuple[str, int]],
        budget: int,
        full: list[str],
        afford: list[str],
    ) -> None:
        self._plain = plain
        self._targets = targets
        self._ren = ren
        self._budget = budget
        self._full = full
        self._single: str | None = None
        self._single_at = 0
        n = len(targets)
        if not afford:
            self._step = 1
        else:
            self._step = 2
            n *= 2
            if len(afford) == 1:
                single = afford[0]
                if single in targets:
                    self._single = single
                    self._single_at = 2 * targets.index(single)
                    n -= 1
        self._kauf_len = n
        self._orders = orders = ORDERS_BY_CARD[card]
        key = (card, len(plain), n)
        starts = STARTS.get(key)
        if starts is None:
            starts = STARTS[key] = starts_of(orders, len(plain), n)
        self._starts = starts
        self._len = starts[-1]

    def __getitem__(self, i: Any) -> Any:
        if type(i) is not int or not 0 <= i < self._len:
            return Lazy.__getitem__(self, i)
        starts = self._starts  # _at, inline: random.choice reads one move
        k = bisect_right(starts, i) - 1
        actions, has_kauf = self._orders[k]
        if has_kauf:
            target, renew = self._part(i - starts[k])
        else:
            target, renew = self._plain[i - starts[k]]
        return {"type": "plan", "actions": actions, "kauf": target, "renew": renew}

    def _at(self, i: int) -> PlanMove:
        return self[i]  # type: ignore[no-any-return]

    def _part(self, j: int) -> Part:
        """The ``j``-th Kauf part (``0 <= j < kauf_len``)."""
        if self._step == 1:
            return self._targets[j], _EMPTY
        if self._single is not None and j >= self._single_at:
            if j == self._single_at:
                return self._single, _EMPTY
            j += 1  # past the single target's one part
        t = self._targets[j >> 1]
        if not j & 1:
            return t, _EMPTY
        ren = self._ren
        for sq, _ in ren:
            if sq == t:
                break
        else:  # skipping it changes nothing: the same list
            return t, self._full
        if sum([price for _, price in ren]) <= self._budget:
            return t, [sq for sq in self._full if sq != t]
        return t, greedy(ren, self._budget, skip=t)

    def __iter__(self) -> Iterator[PlanMove]:
        plain = self._plain
        kauf = [self._part(j) for j in range(self._kauf_len)]
        for actions, has_kauf in self._orders:
            for target, renew in kauf if has_kauf else plain:
                yield {"type": "plan", "actions": actions, "kauf": target, "renew": renew}


def plans(state: WindCityState, fork: Fork, seat: int) -> ForkPlans:
    """The plan listing of the fork ``state`` (``fork``: the same object), from its
    ``own`` cache: :func:`parts.plan_parts`'s parts (:class:`ForkPlans`)."""
    houses = state["houses"]
    budget = state["money"][seat]
    ren = []
    targets = []
    full = []
    afford = []  # renewals that fit the money on their own
    total = 0
    mine = fork.own  # forks.own, its up-to-date case inline
    if mine is None or fork.own_len != len(houses):
        mine = own(state, fork, houses)
    for sq in mine[seat]:
        h = houses[sq]
        pieces = h.pieces
        if h.insured:
            price = _RENEW_DUPLEX if pieces == 2 else RENEW_SINGLE[sq]
            ren.append((sq, price))
            if price <= budget:
                afford.append(sq)
                if total + price <= budget:
                    full.append(sq)
                    total += price
        if pieces == 1 and _ROW[sq] != _BEACH:
            targets.append(sq)
    fork.insured = (state["turn"], ren)
    plain: list[Part] = [(None, _EMPTY), (None, full)] if full else _PLAIN_ONLY
    card = state["card"]
    assert card is not None  # drawn when the phase began
    return ForkPlans(card, plain, targets, ren, budget, full, afford)


def placements(state: WindCityState, fork: Fork, seat: int) -> list[PlaceHouse]:
    """The placement listing of the fork ``state`` (``fork``: the same object), from its
    ``free`` cache: :func:`placement.placement_runs`'s squares as moves."""
    n = state["num_players"]
    t = state["tally"]
    q = _QUOTA[n]
    mine = t[seat]
    cached = fork.free
    if cached is None:
        cached = free(state, fork)
    # placement.outlook from the counts
    stuck = fork.stuck
    if stuck and (stuck > 1 or mine[0] or mine[1] < q):
        return []  # another seat without a beach house has no room left in L1
    room = fork.beach_free
    need = fork.need
    if mine[0]:
        beach_ok = room - 1 >= need
        l1_ok = other_ok = room >= need
    else:
        beach_ok = room >= need
        l1_ok = mine[1] + 1 < q and room >= need
        other_ok = mine[1] < q and room >= need
    out: list[PlaceHouse] = []
    if mine[1] < q:  # the beach and the rest of L1 (classes 0 and 1) are in section 1
        if beach_ok and mine[0] < _BEACH_MAX[n]:
            out += cached[0]
        if l1_ok:
            out += cached[1]
    if other_ok:
        for c in OTHERS[n]:
            if mine[c] < q:
                out += cached[c]
    return out
