"""Whose turn it is: a turn begins (counted, a card drawn, the deck refilled from the
discards when empty), and once resolved it ends in the game's end or the next seat's
turn."""

from __future__ import annotations

import shared.rng as rng

from .shapes import WindCityEvent
from .state import EndReason, WindCityState
from .views import final_result


def start_turn(state: WindCityState, seat: int, events: list[WindCityEvent] | None) -> None:
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


def end_turn(state: WindCityState, left: bool, events: list[WindCityEvent] | None) -> None:
    """After a resolved turn (``left``: the hurricane left the north edge): the game ends,
    or the next seat still in the game begins its turn."""
    alive = state["alive"]
    reason: EndReason | None = None
    if left:
        reason = "north_edge"
    elif sum(alive) <= 1:
        reason = "last_player"
    elif state["turn"] >= state["options"]["max_turns"]:
        reason = "max_turns"
    if reason is not None:
        finish(state, reason, events)
        return
    n = state["num_players"]
    nxt = (state["active"] + 1) % n
    while not alive[nxt]:
        nxt = (nxt + 1) % n
    start_turn(state, nxt, events)


def finish(state: WindCityState, reason: EndReason, events: list[WindCityEvent] | None) -> None:
    """End the game now (the result is computed from the final state on demand)."""
    state["phase"] = "over"
    state["end"] = reason
    state["pending"] = []
    if events is not None:
        events.append({"type": "game_over", "reason": reason, "result": final_result(state)})
