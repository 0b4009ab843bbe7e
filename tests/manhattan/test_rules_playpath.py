"""Manhattan's playout path (fork, legal_actions, play) beyond the contract suite.

The contract test plays whole random games on a fork, but random play from the start
almost never gets stuck: here crowded boards make seats discard and forfeit on a fork,
and the parts a fork shares with its origin (buildings, stock rows) are checked to stay
untouched. The listings are the engine's shared templates, legal_moves hands out copies,
and neither depends on the listing's memo tables.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from services.manhattan import rules as m
from services.manhattan.rules import listing

from .playout import crowded, make_state

E = m.ENGINE


def text(value: Any) -> str:
    return json.dumps(value)  # key order too: play must build what apply_move builds


def follow(state: dict[str, Any], rng: random.Random) -> Counter:
    """Play ``state`` to the end on one fork (legal_actions + play) and through
    apply_move side by side, checking they agree after every move and that no state
    apply_move made changed; returns the kinds of moves played."""
    mine = E.fork(state)
    kinds: Counter = Counter()
    seen = []
    while not m.is_over(state):
        seat = m.to_act(state)[0]
        actions = E.legal_actions(mine, seat)
        assert list(actions) == m.legal_moves(state, seat)
        move = rng.choice(actions)
        kinds[move["type"]] += 1
        seen.append((state, text(state)))
        state, _ = m.apply_move(state, seat, move)
        E.play(mine, seat, move)
        assert text(mine) == text(state)
    for old, before in seen:
        assert text(old) == before, "play changed a state apply_move made"
    return kinds


def test_stuck_seats_discard_and_forfeit_on_a_fork() -> None:
    rng = random.Random(3)
    kinds: Counter = Counter()
    for i in range(120):
        n = 2 + i % 3
        order = rng.sample(range(1, 10), 9)
        kinds += follow(crowded(n, i % n, order, rng.randint(0, 3), rng), rng)
    assert kinds["discard"] and kinds["forfeit"] and kinds["place"], kinds


def test_random_play_on_a_fork_reaches_select_and_place() -> None:
    rng = random.Random(4)
    kinds: Counter = Counter()
    for seed in range(6):
        options = {"six_rounds": seed % 2 == 0, "promo_cards": seed % 3 == 0}
        kinds += follow(m.setup(2 + seed % 3, options, seed), rng)
    assert kinds["select"] and kinds["place"], kinds


def test_a_fork_leaves_the_shared_buildings_and_rows_alone() -> None:
    """Stacking on a building, selecting and forfeiting on a fork replace the shared
    lists instead of changing them."""
    state = make_state(2, {(1, 1): [(1, 2)]}, hands=[[1, 2, 3, 4], [5, 6, 7, 8]], sel=[[3], [1]])
    before = text(state)
    building, stock = state["board"][0], state["stock"][0]
    mine = E.fork(state)
    E.play(mine, 0, {"type": "place", "city": 1, "lot": 1, "floors": 3})
    assert mine["board"][0] == [12, 3] and building == [12]
    E.play(mine, 1, {"type": "place", "city": 1, "lot": 5, "floors": 1})
    assert mine["phase"] == "select"  # the round ended on the fork
    E.play(mine, mine["current_player"], E.legal_actions(mine, mine["current_player"])[0])
    assert text(state) == before and state["stock"][0] is stock


def test_legal_actions_are_shared_and_legal_moves_are_copies() -> None:
    state = m.setup(3, {}, 1)
    seat = m.to_act(state)[0]
    first, again = E.legal_actions(state, seat), E.legal_actions(state, seat)
    assert all(a is b for a, b in zip(first, again, strict=True))
    listed = m.legal_moves(state, seat)
    listed[0]["pieces"].append(4)
    listed[1]["type"] = "place"
    assert list(E.legal_actions(state, seat)) == m.legal_moves(state, seat) != listed


def test_place_listing_does_not_depend_on_its_memo_tables() -> None:
    """Listing with warm tables, with cleared ones, and after a caller changed a listed
    move: the same moves every time."""
    r = random.Random(5)
    for g in range(6):
        state = m.setup(2 + g % 3, {}, g)
        while not m.is_over(state):
            seat = m.to_act(state)[0]
            legal = m.legal_moves(state, seat)
            if legal[0]["type"] == "place":
                for table in (*listing._NEEDS, *listing._LOTS, listing._SIZES):
                    table.clear()
                assert m.legal_moves(state, seat) == legal
                legal[0]["city"] = 99
                assert m.legal_moves(state, seat)[0]["city"] != 99
            state, _ = m.apply_move(state, seat, r.choice(m.legal_moves(state, seat)))
