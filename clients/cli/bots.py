"""Bot strategies and the loop that plays a seat over HTTP.

A strategy is ``choose(view, legal, rng) -> move``: ``view`` is the service's game view
(``{"you", "to_act", "state", ...}``), ``legal`` the seat's legal moves. Strategies are
pure functions of what the seat may see, so they run the same against the service and
against an in-process engine (``clients/cli/evaluate.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .client import GameClient, is_over, my_turn

Json = dict[str, Any]
Strategy = Callable[[Json, list[Json], random.Random], Json]


def random_strategy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """A uniformly random legal move."""
    return rng.choice(legal)


# ----------------------------------------------------------------------------- Manhattan


def _mh_board(state: Json) -> list[list[tuple[int, int]]]:
    """54 buildings (index (city-1)*9 + lot-1), each a bottom-to-top list of (seat, floors)."""
    board: list[list[tuple[int, int]]] = [[] for _ in range(54)]
    for city in state["cities"]:
        for lot in city["lots"]:
            board[(city["city"] - 1) * 9 + lot["lot"] - 1] = [
                (p["seat"], p["floors"]) for p in lot["pieces"]
            ]
    return board


def mh_points(heights: list[int], owners: list[int | None], n: int) -> list[int]:
    """Points each seat would score if the round ended now (tallest 3, majority 2, 1/building)."""
    pts = [0] * n
    best = max(heights)
    if best and heights.count(best) == 1:
        pts[owners[heights.index(best)]] += 3  # type: ignore[index]
    for c in range(6):
        counts = [0] * n
        for o in owners[c * 9 : c * 9 + 9]:
            if o is not None:
                counts[o] += 1
                pts[o] += 1
        most = max(counts)
        if most and counts.count(most) == 1:
            pts[counts.index(most)] += 2
    return pts


def _exposure(board: list[list[tuple[int, int]]], i: int, seat: int, n: int) -> float:
    """How easily an opponent could take building ``i`` from ``seat`` (0 = safe)."""
    mine = sum(f for s, f in board[i] if s == seat)
    worst = 0.0
    for other in range(n):
        if other == seat:
            continue
        theirs = sum(f for s, f in board[i] if s == other)
        need = mine - theirs
        if need <= 4:
            worst = max(worst, (5 - max(need, 1)) / 4)
    return worst


def manhattan_greedy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """Place where the position's score lead grows most; select a balanced set of pieces.

    A placement is valued by (my points − best opponent's points) if the round were
    scored right after it, minus a small price for big pieces (they are worth keeping
    for take-overs) and for leaving the building easy to take back.
    """
    state = view["state"]
    seat = view["you"]
    kinds = {m["type"] for m in legal}
    if "place" in kinds:
        board = _mh_board(state)
        n = len(state["players"])
        heights = [sum(f for _, f in b) for b in board]
        owners: list[int | None] = [b[-1][0] if b else None for b in board]
        best, best_v = legal[0], float("-inf")
        for m in legal:
            if m["type"] != "place":
                continue
            i = (m["city"] - 1) * 9 + m["lot"] - 1
            h0, o0 = heights[i], owners[i]
            heights[i], owners[i] = h0 + m["floors"], seat
            pts = mh_points(heights, owners, n)
            heights[i], owners[i] = h0, o0
            lead = pts[seat] - max(p for s, p in enumerate(pts) if s != seat)
            after = board[i] + [(seat, m["floors"])]
            board_i, board[i] = board[i], after
            risk = _exposure(board, i, seat, n)
            board[i] = board_i
            v = lead * 1.0 - 0.25 * m["floors"] - 0.6 * risk + rng.random() * 0.01
            if v > best_v:
                best, best_v = m, v
        return best
    if "select" in kinds:
        me = state["players"][seat]
        stock = {int(k): v for k, v in me["stock"].items()}
        left = sum(stock.values()) or 1
        k = len(legal[0]["pieces"])
        ideal = {f: stock[f] * k / left for f in stock}

        def cost(m: Json) -> float:
            return sum(abs(m["pieces"].count(f) - ideal[f]) for f in ideal) - 0.05 * sum(
                m["pieces"]
            )

        return min(legal, key=cost)
    if "forfeit" in kinds:
        return min(legal, key=lambda m: m.get("floors", 0))
    return rng.choice(legal)


# ----------------------------------------------------------------------------- Wind City


def windcity_greedy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """Placeholder until the Wind City view lands: random."""
    return rng.choice(legal)


STRATEGIES: dict[str, dict[str, Strategy]] = {
    "manhattan": {"random": random_strategy, "greedy": manhattan_greedy},
    "windcity": {"random": random_strategy, "greedy": windcity_greedy},
}


def strategy(game: str, name: str) -> Strategy:
    """The strategy ``name`` ("random" or "greedy") for ``game``."""
    try:
        return STRATEGIES[game][name]
    except KeyError:
        raise ValueError(f"no strategy {name!r} for {game!r}") from None


def play_seat(
    client: GameClient,
    game_id: str,
    choose: Strategy,
    *,
    rng: random.Random | None = None,
    on_move: Callable[[Json, Json], None] | None = None,
    turn_timeout: float | None = 300.0,
    poll_wait: float = 10.0,
) -> Json:
    """Play the client's seat (``client.token``) until the game ends; return the final view.

    Waits for each turn with :meth:`GameClient.wait_for_turn`; ``on_move(move, answer)``
    is called after every move made.
    """
    from .errors import Conflict, PreconditionFailed, UnprocessableEntity

    rng = rng or random.Random()
    view = client.wait_for_turn(game_id, timeout=turn_timeout, poll_wait=poll_wait)
    while not is_over(view):
        if not my_turn(view):
            view = client.wait_for_turn(game_id, timeout=turn_timeout, poll_wait=poll_wait)
            continue
        legal = client.legal_moves(game_id)
        if not legal:
            view = client.wait_for_turn(game_id, timeout=turn_timeout, poll_wait=poll_wait)
            continue
        move = choose(view, legal, rng)
        try:
            answer = client.move(game_id, move, if_match=view.get("version"))
        except (Conflict, PreconditionFailed, UnprocessableEntity):
            view = client.view(game_id)  # the game moved on under us: look again
            continue
        if on_move:
            on_move(move, answer)
        view = answer.get("game") or client.view(game_id)
    return view
