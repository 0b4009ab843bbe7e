"""Applying a move (:func:`apply_move`): the checks every move shares, then the move's
own check and its steps, on a copy (the listing: :mod:`.listing`; the in-place path:
:mod:`.playpath`)."""

from __future__ import annotations

from typing import Any

from shared.engine import Move, RuleError

from .checks import bad_field
from .insurance import check_insure, insure
from .placement import build, check_hurricane, check_placement, place_hurricane
from .plan import check_plan, make_plan
from .resolve import resolve
from .shapes import MoveType, WindCityEvent
from .state import House, Phase, WindCityState, stored_houses

# move type -> the phase it belongs to
_PHASE: dict[MoveType, Phase] = {
    "place_hurricane": "hurricane",
    "place_house": "houses",
    "plan": "plan",
    "insure": "insure",
}
_PHASE_OF: dict[Any, Phase] = dict(_PHASE)  # looked up with whatever arrives


def _check_turn(state: WindCityState, seat: Any, move: Any) -> None:
    """The checks every move shares, in the rules' order."""
    phase = state["phase"]
    if phase == "over":
        raise RuleError("game-over", "the game is over")
    if not isinstance(move, dict):
        raise RuleError("bad-move", "a move is a JSON object")
    mtype = move.get("type")
    if not isinstance(mtype, str) or mtype not in _PHASE_OF:
        raise RuleError("unknown-move", "unknown move type {mtype!r}", mtype=mtype)
    if _PHASE_OF[mtype] != phase:
        raise RuleError(
            "wrong-phase", "{mtype} is not possible in phase {phase}", mtype=mtype, phase=phase
        )
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["num_players"]:
        raise RuleError("not-your-turn", "no seat {seat!r}", seat=seat)
    if phase == "insure":
        if seat in state["pending"]:
            return
        if seat != state["active"] and state["alive"][seat]:
            raise RuleError("already-answered", "you have already answered this turn")
        raise RuleError("not-your-turn", "you do not take part in this insurance market")
    if seat != state["active"]:
        raise RuleError("not-your-turn", "it is seat {seat}'s turn", seat=state["active"])


def apply_move(
    state: WindCityState, seat: int, move: Move
) -> tuple[WindCityState, list[WindCityEvent]]:
    """The new state and the public events; ``state`` is never mutated: a shallow copy
    (its houses made Houses if ``state`` was loaded from JSON), the checks, then the same
    in-place steps as :func:`playpath.play`, which replace (instead of editing) every
    container they change.

    A well-formed move of the seat to act passes one inline test; anything else goes
    through :func:`_check_turn`, which raises the rules' first error."""
    new = state.copy()
    for h in new["houses"].values():  # loaded from JSON (lists)? Houses then
        if type(h) is not House:
            new["houses"] = stored_houses(new["houses"])
        break
    phase = new["phase"]
    mtype = move.get("type") if type(move) is dict else None
    if (
        type(mtype) is not str
        or _PHASE_OF.get(mtype) != phase
        or type(seat) is not int
        or not 0 <= seat < new["num_players"]
        or (seat not in new["pending"] if phase == "insure" else seat != new["active"])
    ):
        _check_turn(new, seat, move)
    events: list[WindCityEvent] = []
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
        bad_field(move, ("type", "square"))
        place_hurricane(new, seat, check_hurricane(move), events)
    return new, events
