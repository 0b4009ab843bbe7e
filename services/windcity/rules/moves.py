"""Wind City's moves: the checks every move shares, applying one, and listing them."""

from __future__ import annotations

from typing import Any

from shared.engine import Choice, Event, Move, RuleError, State

from . import placement, turn
from .board import row_squares
from .placement import place_house
from .resolve import resolve
from .turn import apply_insure, apply_plan
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
    """The new state and the public events; ``state`` is never mutated (shallow copy,
    and every changed container is replaced, not edited).

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
    if phase == "insure":
        events = apply_insure(new, seat, move)
        if not new["pending"]:
            events += resolve(new)
    elif phase == "houses":
        events = place_house(new, seat, move)
    elif phase == "plan":
        events = apply_plan(new, seat, move)
        if not new["pending"]:
            events += resolve(new)
    else:
        for key in move:
            if key not in ("type", "square"):
                raise RuleError("bad-move", f"unexpected field {key!r}")
        events = placement.place_hurricane(new, seat, move)
    return new, events


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every legal move with its subset field empty (``renew``, ``squares``), plus the
    ready-made subsets of docs/windcity.md; :func:`choices` describes the rest."""
    if seat not in to_act(state):
        return []
    phase = state["phase"]
    if phase == "hurricane":
        return [{"type": "place_hurricane", "square": sq} for sq in row_squares(1)]
    if phase == "houses":
        return [
            {"type": "place_house", "square": sq} for sq in placement.legal_placements(state, seat)
        ]
    if phase == "plan":
        return turn.legal_plans(state, seat)
    return turn.legal_insures(state, seat)


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
