"""Helpers for the Manhattan rules tests: constructed states (crowded boards where a seat
is stuck among them), random play, invariants.

The invariant checks recompute everything from the raw state with code independent of
the engine's own helpers where that is cheap (piece and card bookkeeping, base scoring).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from services.manhattan import rules as m
from services.manhattan.rules.board import PIECES
from services.manhattan.rules.cards import DECK, ROTATION, SIDES_BY_COUNT
from services.manhattan.rules.promos import promo_points
from shared.engine import RuleError


def dumps(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def place(city: int, lot: int, floors: int) -> dict[str, Any]:
    """A place move."""
    return {"type": "place", "city": city, "lot": lot, "floors": floors}


def code_of(state: dict[str, Any], seat: int, move: dict[str, Any]) -> str:
    """The code ``move`` is refused with; the refusal leaves ``state`` as it was."""
    before = dumps(state)
    with pytest.raises(RuleError) as info:
        m.apply_move(state, seat, move)
    assert dumps(state) == before
    return info.value.code


def make_state(
    n: int,
    buildings: dict[tuple[int, int], list[tuple[int, int]]] | None = None,
    *,
    hands: list[list[int]] | None = None,
    sel: list[list[int]] | None = None,
    cur: int = 0,
    options: dict[str, bool] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """A build-phase state with the given buildings ``{(city, lot): [(seat, floors)...]}``.

    Stocks are adjusted so every piece is accounted for; hands are taken from the deck
    so the 45 cards stay conserved.
    """
    state = m.setup(n, options or {}, seed)
    board: list[list[int]] = [[] for _ in range(54)]
    used: list[Counter[int]] = [Counter() for _ in range(n)]
    for (city, lot), pieces in (buildings or {}).items():
        board[(city - 1) * 9 + lot - 1] = [s * 10 + f for s, f in pieces]
        for s, f in pieces:
            used[s][f] += 1
    sel = sel if sel is not None else [[] for _ in range(n)]
    for s in range(n):
        for f in sel[s]:
            used[s][f] += 1
    stock = [[PIECES[f] - used[s][f] for f in (1, 2, 3, 4)] for s in range(n)]
    assert all(c >= 0 for row in stock for c in row), "constructed board uses too many pieces"
    pool = list(DECK)
    new_hands = []
    for s in range(n):
        h = hands[s] if hands is not None else state["hands"][s]
        for c in h:
            pool.remove(c)
        new_hands.append(sorted(h))
    state.update(
        board=board,
        stock=stock,
        selected=[sorted(x) for x in sel],
        hands=new_hands,
        deck=pool,
        discard_pile=[],
        phase="build",
        current_player=cur,
        start_player=cur,
    )
    return state


SORTED_DECK = sorted(DECK)


def check_invariants(
    state: dict[str, Any], encoded: str | None = None, with_view: bool = True
) -> None:
    """Conservation of pieces and cards, owners, hands, running totals, JSON round trip.

    ``with_view`` also checks the view's owner/height of every building and the JSON
    round trip (the costly part; playouts do it on a sample of moves).
    """
    n = state["num_players"]
    counts = [[0] * 5 for _ in range(n)]
    for b in state["board"]:
        for p in b:
            counts[p // 10][p % 10] += 1
    for s in range(n):
        row = counts[s]
        for f in state["selected"][s]:
            row[f] += 1
        for f in state["forfeited"][s]:
            row[f] += 1
        stock = state["stock"][s]
        assert [row[f] + stock[f - 1] for f in (1, 2, 3, 4)] == [11, 6, 4, 3], (s, row, stock)
    cards = state["deck"] + state["discard_pile"]
    for h in state["hands"]:
        assert len(h) == 4
        cards = cards + h
    assert sorted(cards) == SORTED_DECK
    totals = [0] * n
    for r in state["rounds"]:
        for pts in r["categories"].values():
            for s in range(n):
                totals[s] += pts[s]
    assert totals == state["scores"] == m.score(state)["totals"]
    if with_view:
        v = m.view(state, None)
        for city in v["cities"]:
            for lot in city["lots"]:
                pieces = lot["pieces"]
                assert lot["owner"] == (pieces[-1]["seat"] if pieces else None)
                assert lot["height"] == sum(p["floors"] for p in pieces)
        assert json.loads(encoded if encoded is not None else dumps(state)) == state


def base_score_from_view(v: dict[str, Any], n: int) -> dict[str, list[int]]:
    """Tallest / majority / buildings recomputed from a view, independent of scoring.py."""
    tallest = [0] * n
    majority = [0] * n
    buildings = [0] * n
    heights = []
    for city in v["cities"]:
        owned: Counter[int] = Counter()
        for lot in city["lots"]:
            if lot["pieces"]:
                heights.append((lot["height"], lot["owner"]))
                owned[lot["owner"]] += 1
                buildings[lot["owner"]] += 1
        ranked = owned.most_common()
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            majority[ranked[0][0]] += 2
    if heights:
        top = max(h for h, _ in heights)
        at_top = [o for h, o in heights if h == top]
        if len(at_top) == 1:
            tallest[at_top[0]] += 3
    return {"tallest": tallest, "majority": majority, "buildings": buildings}


def check_round_scored(state: dict[str, Any], event: dict[str, Any]) -> None:
    """A round_scored event matches a from-scratch recomputation on the current board."""
    n = state["num_players"]
    expected = base_score_from_view(m.view(state, None), n)
    expected["promo"] = promo_points(event["promo_scored"], state["board"], n)
    assert event["categories"] == expected
    assert state["rounds"][-1]["categories"] == expected
    assert event["totals"] == state["scores"]


def play_game(
    n: int, options: dict[str, bool], seed: int, *, rng: random.Random
) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]], Counter]:
    """Play one random game to the end, checking Manhattan's invariants after every move
    (conservation, owners, round scoring); what every engine owes (listed moves apply,
    refusals change nothing, JSON, replay) is tests/contract/'s job.

    Returns the final state, the moves played and a Counter of the events seen.
    """
    state = m.setup(n, options, seed)
    played = []
    seen: Counter = Counter()
    while not m.is_over(state):
        seat = m.to_act(state)[0]
        moves = m.legal_moves(state, seat)
        assert moves, "the seat to act always has a legal move"
        move = rng.choice(moves)
        state, events = m.apply_move(state, seat, move)
        played.append((seat, move))
        for ev in events:
            seen[ev["type"]] += 1
            assert "hand" not in ev and "deck" not in ev
            if ev["type"] == "round_scored":
                check_round_scored(state, ev)
        check_invariants(
            state,
            with_view=any(e["type"] == "round_scored" for e in events) or rng.random() < 0.1,
        )
    return state, played, seen


def random_state(n: int, options: dict, seed: int, steps: int) -> dict:
    rng = random.Random(seed)
    state = m.setup(n, options, seed)
    for _ in range(steps):
        if m.is_over(state):
            break
        seat = m.to_act(state)[0]
        state, _ = m.apply_move(state, seat, rng.choice(m.legal_moves(state, seat)))
    return state


def full_board(empty=()) -> dict:
    """Seats 1-3 own all 54 lots (but ``empty``), each with at least 2 floors of the owner.

    Each of them has 6x2, 4x3, 3x4 and 5 towers of 1+1: 18 buildings, 54 in all.
    """
    towers = [[2]] * 6 + [[3]] * 4 + [[4]] * 3 + [[1, 1]] * 5
    lots = [(c, lot) for c in range(1, 7) for lot in range(1, 10)]
    buildings = {}
    for i, key in enumerate(lots):
        seat, k = divmod(i, 18)
        if key not in empty:
            buildings[key] = [(seat + 1, f) for f in towers[k]]
    return buildings


def one_open_lot(hands: list[list[int]], draws: list[int]) -> dict:
    """4 players, only lot 1 of city 1 open; seat 0 (South) holds no lot-1 card.

    ``draws`` are the next cards seat 0 draws, first drawn first.
    """
    state = make_state(4, full_board(empty=[(1, 1)]), hands=hands, sel=[[1], [1], [], []])
    deck = state["deck"]
    for c in draws:
        deck.remove(c)
    state["deck"] = deck + draws[::-1]  # the pile is drawn from its end
    return state


def crowded(
    n: int, cur: int, column_order: list[int], open_lots: int, rng: random.Random
) -> dict[str, Any]:
    """Other seats' tall buildings fill whole lot columns (``column_order`` first).

    Seat ``cur`` holds 1-floor pieces and, where it can, only cards for filled lots,
    so it is stuck; ``open_lots`` lots are left empty when the board would be full.
    """
    towers = [[2]] * 6 + [[3]] * 4 + [[4]] * 3 + [[1, 1]] * 5
    others = [s for s in range(n) if s != cur]
    lots = sorted(
        ((c, lot) for c in range(1, 7) for lot in range(1, 10)),
        key=lambda cl: (column_order.index(cl[1]), cl[0]),
    )
    slots = [(s, t) for s in others for t in towers][: 54 - open_lots]
    buildings = {cl: [(s, f) for f in t] for cl, (s, t) in zip(lots, slots, strict=False)}
    filled = {lot for lot in range(1, 10) if all((c, lot) in buildings for c in range(1, 7))}
    rot = ROTATION[SIDES_BY_COUNT[n][cur]]
    pool = list(DECK)
    rng.shuffle(pool)
    pool.sort(key=lambda card: rot[card - 1] not in filled)  # stuck cards first
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[cur] = pool[:4]
    rest = pool[4:]
    rng.shuffle(rest)
    for s in others:
        hands[s], rest = rest[:4], rest[4:]
    sel: list[list[int]] = [[] for _ in range(n)]
    sel[cur] = [1] * rng.randint(1, 3)
    for s in others:
        sel[s] = [1] * rng.randint(0, 1)  # the one 1-floor piece the towers leave
    state = make_state(n, buildings, hands=hands, sel=sel, cur=cur, seed=rng.getrandbits(32))
    state["round"] = 4  # the last round: the stocks could not fill another
    k = rng.randint(0, 6)
    state["discard_pile"], state["deck"] = state["deck"][:k], state["deck"][k:]
    return state
