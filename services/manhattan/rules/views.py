"""What Manhattan shows: who acts, a seat's view, the scores and the result."""

from __future__ import annotations

from typing import Any

from .board import CITIES, LOTS
from .cards import CITY_NAMES, ROTATION, SIDE_NAMES, SIDES_BY_COUNT
from .options import rounds
from .scoring import score_round, standings
from .state import ManhattanState

_LOT_NUMBERS = [i % LOTS + 1 for i in range(CITIES * LOTS)]


def is_over(state: ManhattanState) -> bool:
    return state["phase"] == "over"


def to_act(state: ManhattanState) -> list[int]:
    """The one seat expected to act, or ``[]`` once the game is over."""
    current = state["current_player"]
    return [] if state["phase"] == "over" or current is None else [current]


def _lots(board: list[list[int]], start: int) -> list[dict[str, Any]]:
    """One city's lots: each lot's pieces bottom up, height and owner (the top piece's
    seat). One loop, no call per lot: 54 lots are most of a view's CPU."""
    lots: list[dict[str, Any]] = []
    append = lots.append
    for i in range(start, start + LOTS):
        building = board[i]
        if not building:
            append({"lot": _LOT_NUMBERS[i], "pieces": [], "height": 0, "owner": None})
            continue
        pieces = []
        height = 0
        for p in building:
            floors = p % 10
            height += floors
            pieces.append({"seat": p // 10, "floors": floors})
        append({"lot": _LOT_NUMBERS[i], "pieces": pieces, "height": height, "owner": p // 10})
    return lots


def view(state: ManhattanState, seat: int | None) -> dict[str, Any]:
    """The public game plus ``seat``'s own hand; never the RNG, deck order or promo deck.

    Built afresh on every call (nothing shared between calls or seats): 54 lots are most
    of a move answer's CPU in the engine, hence the plain loops."""
    n = state["num_players"]
    board = state["board"]
    cities = [
        {"city": c + 1, "name": CITY_NAMES[c], "lots": _lots(board, c * LOTS)}
        for c in range(CITIES)
    ]
    sides = SIDES_BY_COUNT[n]
    stock, selected, hands = state["stock"], state["selected"], state["hands"]
    forfeited, scores = state["forfeited"], state["scores"]
    players = [
        {
            "seat": s,
            "side": SIDE_NAMES[sides[s]],
            "stock": {"1": stock[s][0], "2": stock[s][1], "3": stock[s][2], "4": stock[s][3]},
            "selected": list(selected[s]),
            "hand_size": len(hands[s]),
            "forfeited": list(forfeited[s]),
            "score": scores[s],
        }
        for s in range(n)
    ]
    total_rounds, per_round = rounds(state["options"])
    promo_on = state["options"]["promo_cards"]
    scored = {r["round"]: r["promo_scored"] for r in state["rounds"]}
    out: dict[str, Any] = {
        "phase": state["phase"],
        "round": state["round"],
        "rounds": total_rounds,
        "pieces_per_round": per_round,
        "start_player": state["start_player"],
        "current_player": state["current_player"],
        "options": dict(state["options"]),
        "cities": cities,
        "players": players,
        "discard_pile": list(state["discard_pile"]),
        "deck_size": len(state["deck"]),
        "discards_this_turn": state["discards_this_turn"],
        "promo": {
            "enabled": promo_on,
            "current": state["promos_revealed"][-1]
            if promo_on and state["promos_revealed"]
            else None,
            "revealed": [
                {"round": i + 1, "card": card, "scored": scored.get(i + 1)}
                for i, card in enumerate(state["promos_revealed"])
            ],
        },
        "you": seat if type(seat) is int and 0 <= seat < n else None,
        "hand": None,
    }
    if seat is not None and out["you"] is not None:
        rot = ROTATION[SIDES_BY_COUNT[n][seat]]
        out["hand"] = [{"card": c, "lot": rot[c - 1]} for c in state["hands"][seat]]
    return out


def estimate(state: ManhattanState) -> list[float] | None:
    """Each seat's points if the board were scored now, with the round's promotion card
    (``fake_news`` scores nothing itself: the card it would score is hidden); ``None``
    once over."""
    if state["phase"] == "over":
        return None
    revealed = state["promos_revealed"]
    promo = revealed[-1] if state["options"]["promo_cards"] and revealed else None
    categories = score_round(state["board"], state["num_players"], promo).values()
    return [float(sum(points)) for points in zip(*categories, strict=True)]


def score(state: ManhattanState) -> dict[str, Any]:
    """Running totals and every scored round's points per category and seat."""
    return {
        "totals": list(state["scores"]),
        "rounds": [
            {
                "round": r["round"],
                "promo": r["promo"],
                "promo_scored": r["promo_scored"],
                "categories": {k: list(v) for k, v in r["categories"].items()},
            }
            for r in state["rounds"]
        ],
    }


def result(state: ManhattanState) -> dict[str, Any] | None:
    """Standings and winners once over (tie-break: total, tallest owned, majorities)."""
    if state["phase"] != "over":
        return None
    return standings(state["board"], state["num_players"], state["scores"])
