"""What each seat may see, the running score and the final result.

The view never includes the RNG state, the seed or the deck order; the drawn card and
the plan are shown to the active seat alone.
"""

from __future__ import annotations

from . import board
from .cards import PUBLIC_CARDS
from .parts import insurable, renewable
from .shapes import CardView, Result, Score, ScoreRow, Standing, View, YouView
from .state import Plan, WindCityState

HOUSE_POINTS = (10, 20)  # single house; beach house or duplex


def is_over(state: WindCityState) -> bool:
    return state["phase"] == "over"


def to_act(state: WindCityState) -> list[int]:
    """Seats expected to move now; several during the insurance market."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "insure":
        return list(state["pending"])
    return [state["active"]]


def view(state: WindCityState, seat: int | None) -> View:
    """The public state plus, under ``you``, the viewing seat's private and helper data."""
    n = state["num_players"]
    houses = state["houses"]
    on_board = [0] * n
    for h in houses.values():
        on_board[h.owner] += h.pieces
    phase = state["phase"]
    pending = state["pending"]
    out: View = {
        "phase": phase,
        "turn": state["turn"],
        "max_turns": state["options"]["max_turns"],
        "options": state["options"].copy(),
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
                "owner": houses[sq].owner,
                "insured": houses[sq].insured,
                "duplex": houses[sq].pieces == 2,
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
        card: CardView | None = None
        shown: Plan | None = None
        number = state["card"]
        if seat == state["active"] and number is not None:
            card = {"number": number, "actions": [a.copy() for a in PUBLIC_CARDS[number]]}
            plan = state["plan"]
            if plan is not None:
                shown = {
                    "actions": list(plan["actions"]),
                    "kauf": plan["kauf"],
                    "renew": list(plan["renew"]),
                }
        you: YouView = {
            "seat": seat,
            "card": card,
            "plan": shown,
            "renewable": (
                [{"square": sq, "price": p} for sq, p in renewable(state, seat)]
                if phase == "plan" and seat == state["active"]
                else []
            ),
            "insurable": (
                [{"square": sq, "price": p} for sq, p in insurable(state, seat)]
                if phase == "insure" and seat in pending
                else []
            ),
        }
        out["you"] = you
    return out


def score(state: WindCityState) -> Score:
    """Per seat: plain houses, beach houses, duplexes, house points, money, total."""
    n = state["num_players"]
    count_money = state["options"]["score_money"]
    counts = [[0, 0, 0, 0] for _ in range(n)]  # plain, beach, duplex, house points
    for sq, h in state["houses"].items():
        c = counts[h.owner]
        if h.pieces == 2:
            c[2] += 1
            c[3] += HOUSE_POINTS[1]
        elif board.ROW[sq] == board.BEACH_ROW:
            c[1] += 1
            c[3] += HOUSE_POINTS[1]
        else:
            c[0] += 1
            c[3] += HOUSE_POINTS[0]
    rows: list[ScoreRow] = []
    for p, (plain, beach, duplex, points) in enumerate(counts):
        money = state["money"][p]
        money_points = money if count_money else 0
        rows.append(
            {
                "seat": p,
                "houses": plain,
                "beach": beach,
                "duplex": duplex,
                "house_points": points,
                "money": money,
                "money_points": money_points,
                "total": points + money_points,
                "in_game": state["alive"][p],
            }
        )
    return {"score_money": count_money, "seats": rows}


def result(state: WindCityState) -> Result | None:
    """:func:`final_result` once over, else None."""
    if state["phase"] != "over":
        return None
    return final_result(state)


def final_result(state: WindCityState) -> Result:
    """Standings: players still in the game first, then total, then house points; equal
    keys share a rank and a win."""
    rows = score(state)["seats"]

    def key(r: ScoreRow) -> tuple[bool, int, int]:
        return (r["in_game"], r["total"], r["house_points"])

    ordered = sorted(rows, key=lambda r: (tuple(-int(x) for x in key(r)), r["seat"]))
    standings: list[Standing] = []
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
