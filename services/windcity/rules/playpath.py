"""The playout path (fork, legal_actions, play) on a :class:`Fork`: a state that carries,
besides its keys, what the listings would otherwise recompute from the whole board.

A fork is a ``dict`` subclass whose caches are attributes, not keys: it equals, and
serializes like, the plain state apply_move returns. :func:`play` keeps the caches in
step with the state; a plain dict (never forked) takes the plain path
(:func:`listing.legal_actions`, :func:`moves.play`).

The caches, each derived from the state alone:

- ``free``: per placement class (0 the beach, 1 the rest of L1, 2.. the other sections),
  the placement moves of its free squares in board order (a placement listing is a copy
  of some of these lists: it keeps the squares of its own position); ``free_at``: the
  same squares' board positions, where play finds the move by bisection (``list.index``
  would compare the other moves as dicts); with them the counts the quota look-ahead
  needs (:func:`placement.outlook`): ``beach_free`` squares, ``need`` (seats without a
  beach house) and ``stuck`` (those of them whose L1 quota is full);
- ``own``: per seat, its houses' squares in board order, valid while the board holds
  ``own_len`` houses (after setup houses only disappear, so a smaller count means some
  were destroyed: each seat's list is filtered again);
- ``insured``: the turn of the last plan listing and the active seat's insured houses
  then (square, renewal price): the plan played next in that turn lapses the ones it
  does not renew without looking at the seat's other houses (a turn has one plan phase,
  and nothing changes the state between its listing and its plan).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from typing import Any

from shared.engine import Move, State

from . import board, listing, moves, turn
from .listing import (
    _HURRICANE,
    _INSURE_NOTHING,
    _INSURE_ONE,
    _PLACE,
    _STARTS,
    Part,
    _Lazy,
    _starts,
)
from .placement import CLASSES, build, place_hurricane
from .resolve import resolve

_ORDER = board.ORDER
_ORDER_GET = _ORDER.__getitem__
_ROW = board.ROW
_BEACH = board.BEACH_ROW
_QUOTA = board.QUOTA
_BEACH_MAX = board.BEACH_MAX
_RENEW_SINGLE = {sq: turn.RENEW_PRICE[r == _BEACH] for sq, r in _ROW.items()}
_INSURE_SINGLE = {sq: turn.INSURE_PRICE[r == _BEACH] for sq, r in _ROW.items()}
_RENEW_DUPLEX = turn.RENEW_PRICE[1]
_INSURE_DUPLEX = turn.INSURE_PRICE[1]
_INSURE_CHEAP = turn.INSURE_PRICE[0]

# player count -> the placement classes past L1 (class s: section s)
_OTHERS: dict[int, range] = {n: range(2, len(classes)) for n, classes in CLASSES.items()}
# square -> its placement class (the beach is class 0; the rest of section s, class s)
_CLASS_OF: dict[str, int] = {
    sq: 0 if beach else section
    for classes in CLASSES.values()
    for section, beach, squares in classes
    for sq in squares
}
# player count -> every class's placement moves, and their squares' board positions, on
# an empty board
_ALL_FREE: dict[int, tuple[tuple[Move, ...], ...]] = {
    n: tuple(tuple(_PLACE[sq] for sq in squares) for _, _, squares in classes)
    for n, classes in CLASSES.items()
}
_ALL_AT: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple(_ORDER[sq] for sq in squares) for _, _, squares in classes)
    for n, classes in CLASSES.items()
}


class Fork(dict[str, Any]):
    """A state :func:`play` may change in place, with the caches of this module."""

    __slots__ = (
        "free",
        "free_at",
        "beach_free",
        "need",
        "stuck",
        "own",
        "own_len",
        "insured",
    )
    free: list[list[Move]] | None
    free_at: list[list[int]]
    beach_free: int
    need: int
    stuck: int
    own: list[list[str]] | None
    own_len: int
    insured: tuple[int, list[tuple[str, int]]] | None


def fork(state: State) -> State:
    """A :class:`Fork` of ``state`` owning every container play edits (house lists and
    the plan are replaced, never edited, so they stay shared); a fork's caches come
    along."""
    new = Fork(state)
    new["houses"] = dict(state["houses"])
    new["observatories"] = dict(state["observatories"])
    new["money"] = list(state["money"])
    new["stock"] = list(state["stock"])
    new["alive"] = list(state["alive"])
    new["pending"] = list(state["pending"])
    if "tally" in state:
        new["tally"] = [list(row) for row in state["tally"]]
    new.insured = None
    if type(state) is Fork:
        free = state.free
        if free is None:
            new.free = None
        else:
            new.free = [list(run) for run in free]
            new.free_at = [list(run) for run in state.free_at]
            new.beach_free = state.beach_free
            new.need = state.need
            new.stuck = state.stuck
        new.own = state.own  # replaced, never edited
        new.own_len = state.own_len
    else:
        new.free = None
        new.own = None
        new.own_len = -1
    return new


def _free(state: Fork) -> list[list[Move]]:
    """The ``free`` cache, made from the board when missing."""
    free = state.free
    if free is None:
        houses = state["houses"]
        n = state["num_players"]
        if houses:
            open_ = [[sq for sq in squares if sq not in houses] for _, _, squares in CLASSES[n]]
            free = [[_PLACE[sq] for sq in squares] for squares in open_]
            state.free_at = [[_ORDER[sq] for sq in squares] for squares in open_]
        else:
            free = [list(run) for run in _ALL_FREE[n]]
            state.free_at = [list(run) for run in _ALL_AT[n]]
        state.free = free
        q = _QUOTA[n]
        t = state["tally"]
        state.beach_free = board.NCOLS - sum([tp[0] for tp in t])
        state.need = sum([not tp[0] for tp in t])
        state.stuck = sum([not tp[0] and tp[1] >= q for tp in t])
    return free


def _own(state: Fork, houses: dict[str, list[Any]]) -> list[list[str]]:
    """The ``own`` cache, brought up to date with the board."""
    own = state.own
    size = len(houses)
    if own is None:
        own = [[] for _ in range(state["num_players"])]
        for sq, h in houses.items():
            own[h[0]].append(sq)
        for squares in own:
            if len(squares) > 1:
                squares.sort(key=_ORDER_GET)
    elif state.own_len != size:
        own = [[sq for sq in squares if sq in houses] for squares in own]
    else:
        return own
    state.own = own
    state.own_len = size
    return own


def legal_actions(state: State, seat: int) -> Sequence[Move]:
    """:func:`listing.legal_actions`, from a fork's caches (a plain state: that function).

    A placement listing is a list of the shared moves (the same ones in the same order as
    the plain listing's), a plan listing a :class:`_ForkPlans`."""
    if type(state) is not Fork:
        return listing.legal_actions(state, seat)
    phase = state["phase"]
    if phase == "insure":
        if seat not in state["pending"]:
            return ()
        # turn.insure_parts in one pass: a house dearer than the money is neither a
        # single nor part of the greedy "all affordable" subset
        houses = state["houses"]
        budget = state["money"][seat]
        out = [_INSURE_NOTHING]
        full = []
        total = 0
        own = _own(state, houses)
        for sq in own[seat]:
            h = houses[sq]
            if not h[2]:
                price = _INSURE_DUPLEX if h[1] == 2 else _INSURE_SINGLE[sq]
                if price <= budget:
                    out.append(_INSURE_ONE[sq])
                    if total + price <= budget:
                        full.append(sq)
                        total += price
        if len(full) > 1:
            out.append({"type": "insure", "squares": full})
        return out
    if seat != state["active"] or phase == "over":
        return ()
    if phase == "plan":
        return _plans(state, seat)
    if phase == "houses":
        return _placements(state, seat)
    return _HURRICANE


_EMPTY: list[str] = []  # the renewals of every part without any (read-only)
_PLAIN_ONLY: list[Part] = [(None, _EMPTY)]


class _ForkPlans(_Lazy):
    """A fork's plan listing: :class:`listing.PlanMoves`'s moves in its order, with the
    Kauf parts of :func:`turn.plan_parts` counted instead of built (a part is built when
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
        self._orders = orders = turn.ORDERS_BY_CARD[card]
        key = (card, len(plain), n)
        starts = _STARTS.get(key)
        if starts is None:
            starts = _STARTS[key] = _starts(orders, len(plain), n)
        self._starts = starts
        self._len = starts[-1]

    def __getitem__(self, i: Any) -> Any:
        if type(i) is not int or not 0 <= i < self._len:
            return _Lazy.__getitem__(self, i)
        starts = self._starts  # _at, inline: random.choice reads one move
        k = bisect_right(starts, i) - 1
        actions, has_kauf = self._orders[k]
        if has_kauf:
            target, renew = self._part(i - starts[k])
        else:
            target, renew = self._plain[i - starts[k]]
        return {"type": "plan", "actions": actions, "kauf": target, "renew": renew}

    def _at(self, i: int) -> Move:
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
        return t, turn.greedy(ren, self._budget, skip=t)

    def __iter__(self) -> Iterator[Move]:
        plain = self._plain
        kauf = [self._part(j) for j in range(self._kauf_len)]
        for actions, has_kauf in self._orders:
            for target, renew in kauf if has_kauf else plain:
                yield {"type": "plan", "actions": actions, "kauf": target, "renew": renew}


def _plans(state: Fork, seat: int) -> _ForkPlans:
    """:func:`turn.plan_parts`'s listing from the ``own`` cache (:class:`_ForkPlans`)."""
    houses = state["houses"]
    budget = state["money"][seat]
    ren = []
    targets = []
    full = []
    afford = []  # renewals that fit the money on their own
    total = 0
    own = _own(state, houses)
    for sq in own[seat]:
        h = houses[sq]
        if h[2]:
            price = _RENEW_DUPLEX if h[1] == 2 else _RENEW_SINGLE[sq]
            ren.append((sq, price))
            if price <= budget:
                afford.append(sq)
                if total + price <= budget:
                    full.append(sq)
                    total += price
        if h[1] == 1 and _ROW[sq] != _BEACH:
            targets.append(sq)
    state.insured = (state["turn"], ren)
    plain = [(None, _EMPTY), (None, full)] if full else _PLAIN_ONLY
    return _ForkPlans(state["card"], plain, targets, ren, budget, full, afford)


def _placements(state: Fork, seat: int) -> list[Move]:
    """:func:`placement.placement_runs`'s squares as moves, from the ``free`` cache."""
    n = state["num_players"]
    t = state["tally"]
    q = _QUOTA[n]
    mine = t[seat]
    free = state.free
    if free is None:
        free = _free(state)
    # placement.outlook from the counts
    stuck = state.stuck
    if stuck and (stuck > 1 or mine[0] or mine[1] < q):
        return []  # another seat without a beach house has no room left in L1
    room = state.beach_free
    need = state.need
    if mine[0]:
        beach_ok = room - 1 >= need
        l1_ok = other_ok = room >= need
    else:
        beach_ok = room >= need
        l1_ok = mine[1] + 1 < q and room >= need
        other_ok = mine[1] < q and room >= need
    out: list[Move] = []
    if mine[1] < q:  # the beach and the rest of L1 (classes 0 and 1) are in section 1
        if beach_ok and mine[0] < _BEACH_MAX[n]:
            out += free[0]
        if l1_ok:
            out += free[1]
    if other_ok:
        for c in _OTHERS[n]:
            if mine[c] < q:
                out += free[c]
    return out


def play(state: State, seat: int, move: Move) -> None:
    """:func:`moves.play` on a fork, keeping its caches (a plain state: that function)."""
    if type(state) is not Fork:
        moves.play(state, seat, move)
        return
    phase = state["phase"]
    if phase == "insure":
        # turn.insure on a fork, the cost added up while insuring (a market this engine
        # opened lists each seat once)
        pending = state["pending"]
        pending.remove(seat)
        squares = move["squares"]
        if squares:
            houses = state["houses"]
            cost = 0
            for sq in squares:
                h = houses[sq]
                cost += _INSURE_DUPLEX if h[1] == 2 else _INSURE_SINGLE[sq]
                houses[sq] = [h[0], h[1], True]
            money = state["money"]
            money[seat] -= cost
            money[state["active"]] += cost
        if not pending:
            resolve(state, None, True)
    elif phase == "plan":
        _plan(state, seat, move)
    elif phase == "houses":
        sq = move["square"]
        free = state.free
        if free is not None:
            c = _CLASS_OF[sq]
            at = state.free_at[c]
            i = bisect_left(at, _ORDER[sq])
            del at[i]
            del free[c][i]
            if c < 2:  # the look-ahead's counts change with L1 houses only
                row = state["tally"][seat]
                if c == 0:
                    state.beach_free -= 1
                    if not row[0]:
                        state.need -= 1
                        if row[1] >= _QUOTA[state["num_players"]]:
                            state.stuck -= 1
                elif not row[0] and row[1] + 1 == _QUOTA[state["num_players"]]:
                    state.stuck += 1
        state.own = None
        build(state, seat, sq, None, True)
        if state["phase"] != "houses":
            state.free = None
    else:
        place_hurricane(state, seat, move["square"], None)


def _plan(state: Fork, seat: int, move: Move) -> None:
    """:func:`turn.make_plan` (then the resolution when nobody may answer) from the
    ``own`` cache: the seat's lapsing houses and who may buy insurance are looked up
    among each seat's own houses instead of the whole board."""
    houses = state["houses"]
    money = state["money"]
    renew = move["renew"]
    own = _own(state, houses)
    insured = state.insured
    if insured is not None and insured[0] == state["turn"]:
        for sq, _ in insured[1]:
            if sq not in renew:
                h = houses[sq]
                houses[sq] = [h[0], h[1], False]
    else:
        for sq in own[seat]:
            h = houses[sq]
            if h[2] and sq not in renew:
                houses[sq] = [h[0], h[1], False]
    if renew:
        money[seat] -= turn.renewal_cost(houses, renew)
    state["plan"] = {
        "actions": list(move["actions"]),
        "kauf": move["kauf"],
        "renew": board.sort_squares(renew) if len(renew) > 1 else list(renew),
    }
    alive = state["alive"]
    pending = []
    for p in range(state["num_players"]):
        if p == seat or not alive[p]:
            continue
        m = money[p]
        if m >= _INSURE_DUPLEX:
            for sq in own[p]:
                if not houses[sq][2]:
                    pending.append(p)
                    break
        elif m >= _INSURE_CHEAP:
            for sq in own[p]:
                h = houses[sq]
                if not h[2] and h[1] == 1 and _ROW[sq] != _BEACH:
                    pending.append(p)
                    break
    state["pending"] = pending
    state["phase"] = "insure"
    if not pending:
        resolve(state, None, True)
