"""The playout path: :func:`fork` gives a state of the caller's own (a :class:`Fork`,
with the caches of :mod:`.forks`), :func:`legal_actions` lists from its caches
(:mod:`.fork_listing`) and :func:`play` applies a listed move to it in place, keeping
the caches in step: the same steps as apply_move, without its checks, copies and events.

A plain state (never forked) takes the plain path: :func:`listing.legal_actions`, and
the steps in place on a state owning the containers they edit.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from . import board, listing
from .fork_listing import placements, plans
from .forks import CLASS_OF, Fork, own
from .insurance import INSURE_PRICE, INSURE_SINGLE, insurance_cost, insure, renewal_cost
from .listing import HURRICANE, INSURE_NOTHING, INSURE_ONE
from .placement import build, place_hurricane
from .plan import make_plan
from .resolve import resolve
from .shapes import InsureMove, PlanMove, WindCityMove
from .state import INSURED, UNINSURED, WindCityState, houses_copy, typed, typed_in_place

_ORDER = board.ORDER
_ROW = board.ROW
_BEACH = board.BEACH_ROW
_QUOTA = board.QUOTA
_INSURE_DUPLEX = INSURE_PRICE[1]
_INSURE_CHEAP = INSURE_PRICE[0]


def fork(state: WindCityState) -> Fork:
    """A :class:`Fork` of ``state`` owning every container play edits (houses and the plan
    are replaced, never edited, so they stay shared); a fork's caches come along."""
    new = Fork(state)
    new["houses"] = houses_copy(state["houses"])
    new["observatories"] = dict(state["observatories"])
    new["money"] = list(state["money"])
    new["stock"] = list(state["stock"])
    new["alive"] = list(state["alive"])
    new["pending"] = list(state["pending"])
    if "tally" in state:
        new["tally"] = [list(row) for row in state["tally"]]
    new.insured = None
    old = state  # typed as a Fork below: its caches
    if type(old) is Fork:
        free = old.free
        if free is None:
            new.free = None
        else:
            new.free = [list(run) for run in free]
            new.free_at = [list(run) for run in old.free_at]
            new.beach_free = old.beach_free
            new.need = old.need
            new.stuck = old.stuck
        new.own = old.own  # replaced, never edited
        new.own_len = old.own_len
    else:
        new.free = None
        new.own = None
        new.own_len = -1
    return new


def legal_actions(state: WindCityState, seat: int) -> Sequence[WindCityMove]:
    """:func:`listing.legal_actions`; on a fork the same moves in the same order, from its
    caches (a placement listing is a list of the shared moves, a plan listing a
    :class:`fork_listing.ForkPlans`)."""
    fork = state  # typed as a Fork below: the caches
    if type(fork) is not Fork:
        return listing.legal_actions(typed(state), seat)
    phase = state["phase"]
    if phase == "insure":
        if seat not in state["pending"]:
            return ()
        # parts.insure_parts in one pass: a house dearer than the money is neither a
        # single nor part of the greedy "all affordable" subset
        houses = state["houses"]
        budget = state["money"][seat]
        out: list[InsureMove] = [INSURE_NOTHING]
        full = []
        total = 0
        mine = fork.own  # forks.own, its up-to-date case inline
        if mine is None or fork.own_len != len(houses):
            mine = own(state, fork, houses)
        for sq in mine[seat]:
            h = houses[sq]
            if not h.insured:
                price = _INSURE_DUPLEX if h.pieces == 2 else INSURE_SINGLE[sq]
                if price <= budget:
                    out.append(INSURE_ONE[sq])
                    if total + price <= budget:
                        full.append(sq)
                        total += price
        if len(full) > 1:
            out.append({"type": "insure", "squares": full})
        return out
    if seat != state["active"] or phase == "over":
        return ()
    if phase == "plan":
        return plans(state, fork, seat)
    if phase == "houses":
        return placements(state, fork, seat)
    return HURRICANE


def play(state: WindCityState, seat: int, move: WindCityMove) -> None:
    """Apply ``move``, one of :func:`legal_actions`, in place: on a fork keeping its
    caches, on any other state (which must own its containers) with the plain steps."""
    fork = state  # typed as a Fork below: the caches
    if type(fork) is not Fork:
        _play_plain(typed_in_place(state), seat, move)
        return
    if move["type"] == "place_house":
        sq = move["square"]
        free = fork.free
        if free is not None:
            c = CLASS_OF[sq]
            at = fork.free_at[c]
            i = bisect_left(at, _ORDER[sq])
            del at[i]
            del free[c][i]
            if c < 2:  # the look-ahead's counts change with L1 houses only
                row = state["tally"][seat]
                if c == 0:
                    fork.beach_free -= 1
                    if not row[0]:
                        fork.need -= 1
                        if row[1] >= _QUOTA[state["num_players"]]:
                            fork.stuck -= 1
                elif not row[0] and row[1] + 1 == _QUOTA[state["num_players"]]:
                    fork.stuck += 1
        fork.own = None
        build(state, seat, sq, None, True)
        if state["phase"] != "houses":
            fork.free = None
    elif move["type"] == "insure":
        # insurance.insure on a fork, the cost added up while insuring (a market this
        # engine opened lists each seat once)
        pending = state["pending"]
        pending.remove(seat)
        squares = move["squares"]
        if squares:
            houses = state["houses"]
            cost = 0
            for sq in squares:
                h = houses[sq]
                cost += _INSURE_DUPLEX if h.pieces == 2 else INSURE_SINGLE[sq]
                houses[sq] = INSURED[h]
            money = state["money"]
            money[seat] -= cost
            money[state["active"]] += cost
        if not pending:
            resolve(state, None, True)
    elif move["type"] == "plan":
        _plan(state, fork, seat, move)
    else:
        place_hurricane(state, seat, move["square"], None)


def _plan(state: WindCityState, fork: Fork, seat: int, move: PlanMove) -> None:
    """:func:`plan.make_plan` (then the resolution when nobody may answer) from the
    ``own`` cache: the seat's lapsing houses and who may buy insurance are looked up
    among each seat's own houses instead of the whole board."""
    houses = state["houses"]
    money = state["money"]
    renew = move["renew"]
    mine = fork.own  # forks.own, its up-to-date case inline
    if mine is None or fork.own_len != len(houses):
        mine = own(state, fork, houses)
    insured = fork.insured
    if insured is not None and insured[0] == state["turn"]:
        for sq, _ in insured[1]:
            if sq not in renew:
                h = houses[sq]
                houses[sq] = UNINSURED[h]
    else:
        for sq in mine[seat]:
            h = houses[sq]
            if h.insured and sq not in renew:
                houses[sq] = UNINSURED[h]
    if renew:
        money[seat] -= renewal_cost(houses, renew)
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
            for sq in mine[p]:
                if not houses[sq].insured:
                    pending.append(p)
                    break
        elif m >= _INSURE_CHEAP:
            for sq in mine[p]:
                h = houses[sq]
                if not h.insured and h.pieces == 1 and _ROW[sq] != _BEACH:
                    pending.append(p)
                    break
    state["pending"] = pending
    state["phase"] = "insure"
    if not pending:
        resolve(state, None, True)


def _play_plain(state: WindCityState, seat: int, move: WindCityMove) -> None:
    """apply_move's steps of a listed move in place on a state owning the containers
    they edit: no checks, no events, the containers edited instead of copied."""
    if move["type"] == "insure":
        squares = move["squares"]
        cost = insurance_cost(state["houses"], squares) if squares else 0
        insure(state, seat, squares, cost, None, True)
        if not state["pending"]:
            resolve(state, None, True)
    elif move["type"] == "place_house":
        build(state, seat, move["square"], None, True)
    elif move["type"] == "plan":
        renew = move["renew"]
        cost = renewal_cost(state["houses"], renew) if renew else 0
        make_plan(state, seat, move["actions"], move["kauf"], renew, cost, None, True)
        if not state["pending"]:
            resolve(state, None, True)
    else:
        place_hurricane(state, seat, move["square"], None)
