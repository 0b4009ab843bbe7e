"""What each seat may see, the running score and the final result.

The view never includes the RNG state, the seed or the deck order; the drawn card and
the plan are shown to the active seat alone.
"""

from __future__ import annotations

from typing import Any

from . import board
from .cards import PUBLIC_CARDS
from .turn import insurable, renewable

HOUSE_POINTS = (10, 20)  # single house; beach house or duplex


def is_over(state: dict[str, Any]) -> bool:
    phase: str = state["phase"]
    return phase == "over"


def to_act(state: dict[str, Any]) -> list[int]:
    """Seats expected to move now; several during the insurance market."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "insure":
        return list(state["pending"])
    return [state["active"]]


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The public state plus, under ``you``, the viewing seat's private and helper data."""
    n = state["num_players"]
    houses = state["houses"]
    on_board = [0] * n
    for h in houses.values():
        on_board[h[0]] += h[1]
    phase = state["phase"]
    pending = state["pending"]
    out: dict[str, Any] = {
        "phase": phase,
        "turn": state["turn"],
        "max_turns": state["options"]["max_turns"],
        "options": dict(state["options"]),
        "north_edge": state["north"],
        "land_sections": board.SECTIONS_IN_USE[n],
        "quota": board.QUOTA[n],
        "beach_max": board.BEACH_MAX[n],
        "first": state["first"],
        "active": None if phase == "over" else state["active"],
        "to_act": to_act(state),
        "pending": list(pending),
        "hurricane": state["hurricane"],
        "houses": [
            {
                "square": sq,
                "owner": houses[sq][0],
                "insured": houses[sq][2],
                "duplex": houses[sq][1] == 2,
                "beach": board.ROW[sq] == board.BEACH_ROW,
            }
            for sq in board.sort_squares(houses)
        ],
        "observatories": [{"square": sq, "marker": m} for sq, m in state["observatories"].items()],
        "players": [
            {
                "seat": p,
                "money": state["money"][p],
                "stock": state["stock"][p],
                "houses_on_board": on_board[p],
                "in_game": state["alive"][p],
            }
            for p in range(n)
        ],
        "deck_size": len(state["deck"]),
        "discard": list(state["discard"]),
        "end": state["end"],
    }
    if seat is not None and isinstance(seat, int) and 0 <= seat < n:
        you: dict[str, Any] = {"seat": seat, "card": None, "plan": None}
        if seat == state["active"] and state["card"] is not None:
            you["card"] = {
                "number": state["card"],
                "actions": [dict(a) for a in PUBLIC_CARDS[state["card"]]],
            }
            plan = state["plan"]
            if plan is not None:
                you["plan"] = {
                    "actions": list(plan["actions"]),
                    "kauf": plan["kauf"],
                    "renew": list(plan["renew"]),
                }
        you["renewable"] = (
            [{"square": sq, "price": p} for sq, p in renewable(state, seat)]
            if phase == "plan" and seat == state["active"]
            else []
        )
        you["insurable"] = (
            [{"square": sq, "price": p} for sq, p in insurable(state, seat)]
            if phase == "insure" and seat in pending
            else []
        )
        out["you"] = you
    return out


def score(state: dict[str, Any]) -> dict[str, Any]:
    """Per seat: plain houses, beach houses, duplexes, house points, money, total."""
    n = state["num_players"]
    count_money = state["options"]["score_money"]
    rows = [{"seat": p, "houses": 0, "beach": 0, "duplex": 0, "house_points": 0} for p in range(n)]
    for sq, h in state["houses"].items():
        r = rows[h[0]]
        if h[1] == 2:
            r["duplex"] += 1
            r["house_points"] += HOUSE_POINTS[1]
        elif board.ROW[sq] == board.BEACH_ROW:
            r["beach"] += 1
            r["house_points"] += HOUSE_POINTS[1]
        else:
            r["houses"] += 1
            r["house_points"] += HOUSE_POINTS[0]
    for p, r in enumerate(rows):
        r["money"] = state["money"][p]
        r["money_points"] = state["money"][p] if count_money else 0
        r["total"] = r["house_points"] + r["money_points"]
        r["in_game"] = state["alive"][p]
    return {"score_money": count_money, "seats": rows}


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    """Standings once over: players still in the game first, then total, then house
    points; equal keys share a rank and a win."""
    if state["phase"] != "over":
        return None
    rows = score(state)["seats"]

    def key(r: dict[str, Any]) -> tuple[bool, int, int]:
        return (r["in_game"], r["total"], r["house_points"])

    ordered = sorted(rows, key=lambda r: (tuple(-int(x) for x in key(r)), r["seat"]))
    standings = []
    rank = 0
    prev = None
    for i, r in enumerate(ordered):
        k = key(r)
        if k != prev:
            rank = i + 1
            prev = k
        standings.append(
            {
                "seat": r["seat"],
                "rank": rank,
                "total": r["total"],
                "house_points": r["house_points"],
                "money": r["money"],
                "in_game": r["in_game"],
            }
        )
    return {
        "reason": state["end"],
        "safety_stop": state["end"] == "max_turns",
        "turns": state["turn"],
        "standings": standings,
        "winners": [s["seat"] for s in standings if s["rank"] == 1],
    }
