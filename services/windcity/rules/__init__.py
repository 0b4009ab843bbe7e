"""Wind City rules engine (pure: no I/O, no Flask/Redis), implementing shared.engine.Engine.

Modules: board (geometry), cards (the 25 cards), shared.rng (splitmix64), options,
placement (setup), turn (plan + insurance market), resolve (automatic resolution),
views (view, score, result). Rules: /shared/rules/windcity.md.
"""

from __future__ import annotations

from typing import Any

from shared.engine import RuleError

from . import placement, turn
from .board import row_squares
from .options import MAX_PLAYERS, MIN_PLAYERS
from .resolve import resolve
from .views import result, score, to_act, view

NAME = "windcity"

__all__ = [
    "NAME",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "RuleError",
    "setup",
    "to_act",
    "legal_moves",
    "apply_move",
    "view",
    "score",
    "is_over",
    "result",
]

# move type -> the phase it belongs to
_PHASE = {
    "place_hurricane": "hurricane",
    "place_house": "houses",
    "plan": "plan",
    "insure": "insure",
}


def setup(num_players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """A new game for seats 0..num_players-1; the first player must place the hurricane."""
    return placement.new_state(num_players, options, seed)


def is_over(state: dict[str, Any]) -> bool:
    return bool(state["phase"] == "over")


def _check_turn(state: dict[str, Any], seat: Any, move: Any) -> str:
    """Common checks; returns the move type."""
    if state["phase"] == "over":
        raise RuleError("game-over", "the game is over")
    if not isinstance(move, dict):
        raise RuleError("bad-move", "a move is a JSON object")
    mtype = move.get("type")
    if not isinstance(mtype, str) or mtype not in _PHASE:
        raise RuleError("unknown-move", f"unknown move type {mtype!r}")
    if _PHASE[mtype] != state["phase"]:
        raise RuleError("wrong-phase", f"{mtype} is not possible in phase {state['phase']}")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["n"]:
        raise RuleError("not-your-turn", f"no seat {seat!r}")
    if mtype == "insure":
        if seat in state["pending"]:
            return mtype
        if seat != state["active"] and state["alive"][seat]:
            raise RuleError("already-answered", "you have already answered this turn")
        raise RuleError("not-your-turn", "you do not take part in this insurance market")
    if seat != state["active"]:
        raise RuleError("not-your-turn", f"it is seat {state['active']}'s turn")
    return mtype


def apply_move(
    state: dict[str, Any], seat: int, move: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The new state and the public events; ``state`` is never mutated (shallow copy,
    and every changed container is replaced, not edited)."""
    mtype = _check_turn(state, seat, move)
    new = dict(state)
    if mtype == "place_house":
        events = placement.place_house(new, seat, move)
    elif mtype == "insure":
        events = turn.apply_insure(new, seat, move)
        if not new["pending"]:
            events += resolve(new)
    elif mtype == "plan":
        events = turn.apply_plan(new, seat, move)
        if not new["pending"]:
            events += resolve(new)
    else:
        for key in move:
            if key not in ("type", "square"):
                raise RuleError("bad-move", f"unexpected field {key!r}")
        events = placement.place_hurricane(new, seat, move)
    return new, events


def legal_moves(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every legal move for whole moves; for the subset moves (plan renewals, insure) a
    documented representative selection: see docs/windcity.md."""
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
