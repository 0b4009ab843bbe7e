"""Manhattan's round scoring (the rules' two-city example, ties for tallest and for a
city majority) and the final standings' tie-break chain. Promotion cards:
``test_rules_promos.py``."""

from __future__ import annotations

from services.manhattan.rules.scoring import score_round, standings

from .playout import make_state


def test_two_city_scoring_example() -> None:
    purple, yellow, orange, blue = 0, 1, 2, 3
    state = make_state(
        4,
        {
            (1, 1): [(purple, 1)],
            (1, 2): [(purple, 2)],
            (1, 5): [(purple, 1)],
            (1, 9): [(yellow, 2)],
            (2, 1): [(orange, 4), (orange, 3)],
            (2, 4): [(blue, 2)],
            (2, 6): [(blue, 1)],
            (2, 8): [(yellow, 3)],
        },
        sel=[[], [], [], []],
    )
    cats = score_round(state["board"], 4, None)
    assert cats["majority"] == [2, 0, 0, 2]
    assert cats["tallest"] == [0, 0, 3, 0]
    assert cats["buildings"] == [3, 2, 1, 2]
    assert cats["promo"] == [0, 0, 0, 0]


def test_tallest_tie_scores_nobody_even_for_one_owner() -> None:
    board = make_state(2, {(1, 1): [(0, 4)], (2, 1): [(0, 4)], (3, 3): [(1, 3)]})["board"]
    assert score_round(board, 2, None)["tallest"] == [0, 0]
    board = make_state(2, {(1, 1): [(0, 4)], (2, 1): [(1, 1), (0, 4)]})["board"]
    assert score_round(board, 2, None)["tallest"] == [3, 0]


def test_city_majority_tie_scores_nobody() -> None:
    board = make_state(3, {(1, 1): [(0, 1)], (1, 2): [(1, 1)], (1, 3): [(2, 1)], (1, 4): [(2, 1)]})
    assert score_round(board["board"], 3, None)["majority"] == [0, 0, 2]
    board = make_state(3, {(1, 1): [(0, 1)], (1, 2): [(1, 1)]})
    assert score_round(board["board"], 3, None)["majority"] == [0, 0, 0]


def test_tie_break_chain() -> None:
    # equal totals: the taller owned building wins
    board = make_state(2, {(1, 1): [(0, 3)], (2, 1): [(1, 4)]})["board"]
    res = standings(board, 2, [10, 10])
    assert res["winners"] == [1] and [r["rank"] for r in res["standings"]] == [1, 2]
    # equal tallest too: more city majorities wins
    board = make_state(2, {(1, 1): [(0, 3)], (2, 1): [(1, 3)], (3, 2): [(1, 1)]})["board"]
    res = standings(board, 2, [10, 10])
    assert res["winners"] == [1] and [r["majorities"] for r in res["standings"]] == [2, 1]
    # still tied: a shared win
    board = make_state(2, {(1, 1): [(0, 3)], (2, 1): [(1, 3)]})["board"]
    res = standings(board, 2, [10, 10])
    assert res["winners"] == [0, 1] and {r["rank"] for r in res["standings"]} == {1}
    # the total comes first
    res = standings(board, 2, [9, 10])
    assert res["winners"] == [1]
