"""The end of a round, an in-place step of the move that places or forfeits its last
piece: the round is scored into the state, then the game ends (with its result) or the
next round starts with the next start player and promotion card.
"""

from __future__ import annotations

from shared.engine import Event

from .options import rounds
from .promos import FAKE_NEWS
from .scoring import score_round
from .state import ManhattanState
from .views import result


def end_round(new: ManhattanState, events: list[Event] | None) -> None:
    """Score the round (parts replaced, not changed: states share them); then the game
    ends or the next round starts with the next start player and promotion card."""
    n = new["num_players"]
    r = new["round"]
    promo = new["promos_revealed"][-1] if new["options"]["promo_cards"] else None
    scored = promo
    if promo == FAKE_NEWS:
        pdeck = new["promo_deck"]
        scored = pdeck[0] if pdeck else None
        new["promo_deck"] = pdeck[1:]
    cats = score_round(new["board"], n, scored)
    new["rounds"] = new["rounds"] + [
        {"round": r, "promo": promo, "promo_scored": scored, "categories": cats}
    ]
    # per seat: its total so far plus its points of every category (zip, no generators;
    # not strict: the categories have one entry per seat, as range(n) read them)
    per_seat = zip(*cats.values(), strict=False)
    new["scores"] = totals = [
        total + sum(points) for total, points in zip(new["scores"], per_seat, strict=False)
    ]
    if events is not None:
        events.append(
            {
                "type": "round_scored",
                "round": r,
                "promo": promo,
                "promo_scored": scored,
                "categories": {k: list(v) for k, v in cats.items()},
                "totals": list(totals),
            }
        )
    if r == rounds(new["options"])[0]:
        new["phase"] = "over"
        new["current_player"] = None
        if events is not None:
            events.append({"type": "game_over", "result": result(new)})
        return
    new["round"] = r + 1
    new["start_player"] = new["current_player"] = (new["start_player"] + 1) % n
    new["phase"] = "select"
    revealed = None
    if new["options"]["promo_cards"]:
        pdeck = new["promo_deck"]
        revealed = pdeck[0] if pdeck else None
        new["promo_deck"] = pdeck[1:]
        new["promos_revealed"] = new["promos_revealed"] + [revealed]
    if events is not None:
        events.append(
            {
                "type": "round_started",
                "round": r + 1,
                "start_player": new["start_player"],
                "promo": revealed,
            }
        )
