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
    (``fake_news`` scores nothing itself: the card it would score is hidden), give or
    take, heads-up, the buildings the seats may still take back this round
    (:func:`_contest`); ``None`` once over. Public: the board and the pieces selected,
    never a hand."""
    if state["phase"] == "over":
        return None
    revealed = state["promos_revealed"]
    promo = revealed[-1] if state["options"]["promo_cards"] and revealed else None
    board, n = state["board"], state["num_players"]
    categories = score_round(board, n, promo).values()
    points = [float(sum(points)) for points in zip(*categories, strict=True)]
    if n == 2:  # heads-up only: measured (docs/bots.md, "Issue 42, fourth round")
        _contest(board, state["selected"], points)
    return points


CONTEST = 0.4
"""The chance that a seat holds a card for a given lot: 4 cards of 9 lots, about
1 - (8/9)^4 (the hands are hidden: the same for every seat and building)."""


def _contest(board: list[list[int]], selected: list[list[int]], points: list[float]) -> None:
    """The buildings the other seats could still take this round (public: the board and
    the pieces selected, not yet placed). A seat holding a piece big enough for a
    building (its floors there with the piece at least the owner's) reaches its lot with
    a card with chance ``CONTEST``; it takes as many as it has pieces left at most, each
    a point from the owner to it."""
    n = len(points)
    takers = [(o, max(sel)) for o, sel in enumerate(selected) if sel]
    if not takers:
        return
    open_ = [[0] * n for _ in range(n)]  # [taker][owner]: buildings the taker could take
    for building in board:
        if not building:
            continue
        top = building[-1] // 10
        theirs = 0
        for p in building:
            if p // 10 == top:
                theirs += p % 10
        for o, big in takers:
            if o == top:
                continue
            if big < theirs:
                mine = big
                for p in building:
                    if p // 10 == o:
                        mine += p % 10
                if mine < theirs:
                    continue
            open_[o][top] += 1
    for o, _ in takers:
        row = open_[o]
        total = sum(row)
        if not total:
            continue
        share = min(CONTEST * total, len(selected[o])) / total
        for s in range(n):
            if row[s]:
                points[o] += share * row[s]
                points[s] -= share * row[s]


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
