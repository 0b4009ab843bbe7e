"""Wind City's moves: the checks every move shares, applying one (a copy, or in place
on a fork), and the subset choices (the listing itself: :mod:`.listing`; forks and
their caches: :mod:`.playpath`)."""

from __future__ import annotations

from typing import Any

from shared.engine import Choice, Event, Move, RuleError, State

from . import placement, turn
from .placement import build, check_placement
from .resolve import resolve
from .turn import check_insure, check_plan, insure, make_plan
from .views import to_act

# move type -> the phase it belongs to
_PHASE = {
    "place_hurricane": "hurricane",
    "place_house": "houses",
    "plan": "plan",
    "insure": "insure",
}


def _check_turn(state: dict[str, Any], seat: Any, move: Any) -> str:
    """The checks every move shares, in the rules' order; returns the move type."""
    phase = state["phase"]
    if phase == "over":
        raise RuleError("game-over", "the game is over")
    if not isinstance(move, dict):
        raise RuleError("bad-move", "a move is a JSON object")
    mtype = move.get("type")
    if not isinstance(mtype, str) or mtype not in _PHASE:
        raise RuleError("unknown-move", f"unknown move type {mtype!r}")
    if _PHASE[mtype] != phase:
        raise RuleError("wrong-phase", f"{mtype} is not possible in phase {phase}")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["num_players"]:
        raise RuleError("not-your-turn", f"no seat {seat!r}")
    if phase == "insure":
        if seat in state["pending"]:
            return mtype
        if seat != state["active"] and state["alive"][seat]:
            raise RuleError("already-answered", "you have already answered this turn")
        raise RuleError("not-your-turn", "you do not take part in this insurance market")
    if seat != state["active"]:
        raise RuleError("not-your-turn", f"it is seat {state['active']}'s turn")
    return mtype


def apply_move(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    """The new state and the public events; ``state`` is never mutated: the checks, a
    shallow copy, then the same in-place core as :func:`play`, which replaces (instead of
    editing) every container it changes.

    A well-formed move of the seat to act passes one inline test; anything else goes
    through :func:`_check_turn`, which raises the rules' first error."""
    phase = state["phase"]
    mtype = move.get("type") if type(move) is dict else None
    if (
        type(mtype) is not str
        or _PHASE.get(mtype) != phase
        or type(seat) is not int
        or not 0 <= seat < state["num_players"]
        or (seat not in state["pending"] if phase == "insure" else seat != state["active"])
    ):
        _check_turn(state, seat, move)
    new = dict(state)
    events: list[Event] = []
    if phase == "insure":
        squares, cost = check_insure(new, seat, move)
        insure(new, seat, squares, cost, events, False)
        if not new["pending"]:
            resolve(new, events, False)
    elif phase == "houses":
        build(new, seat, check_placement(new, seat, move), events, False)
    elif phase == "plan":
        actions, kauf, renew, cost = check_plan(new, seat, move)
        make_plan(new, seat, actions, kauf, renew, cost, events, False)
        if not new["pending"]:
            resolve(new, events, False)
    else:
        for key in move:
            if key not in ("type", "square"):
                raise RuleError("bad-move", f"unexpected field {key!r}")
        placement.place_hurricane(new, seat, placement.check_hurricane(move), events)
    return new, events


def play(state: State, seat: int, move: Move) -> None:
    """:func:`apply_move` of a listed move in place on a state owning the containers the
    cores edit (a fork, :func:`playpath.fork`; :func:`playpath.play` keeps a fork's caches
    and calls this for any other state): no checks, no events, the containers edited
    instead of copied."""
    phase = state["phase"]
    if phase == "insure":
        squares = move["squares"]
        cost = turn.insurance_cost(state["houses"], squares) if squares else 0
        turn.insure(state, seat, squares, cost, None, True)
        if not state["pending"]:
            resolve(state, None, True)
    elif phase == "houses":
        placement.build(state, seat, move["square"], None, True)
    elif phase == "plan":
        renew = move["renew"]
        cost = turn.renewal_cost(state["houses"], renew) if renew else 0
        turn.make_plan(state, seat, move["actions"], move["kauf"], renew, cost, None, True)
        if not state["pending"]:
            resolve(state, None, True)
    else:
        placement.place_hurricane(state, seat, move["square"], None)


def choices(state: State, seat: int) -> list[Choice]:
    """The subset ``seat`` may put in its plan's ``renew`` (its insured houses, not the Kauf
    target) or its ``insure`` move's ``squares`` (its uninsured houses), within its money."""
    if seat not in to_act(state) or state["phase"] not in ("plan", "insure"):
        return []
    if state["phase"] == "plan":
        kind, field, priced = "plan", "renew", turn.renewable(state, seat)
    else:
        kind, field, priced = "insure", "squares", turn.insurable(state, seat)
    if not priced:
        return []
    choice: Choice = {
        "type": kind,
        "field": field,
        "options": [{"value": sq, "price": price} for sq, price in priced],
        "budget": state["money"][seat],
    }
    if kind == "plan":
        choice["exclude_field"] = "kauf"
    return [choice]
