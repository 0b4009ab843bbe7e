"""Worked examples from the seeds, the rotation table, setup, errors, stuck players."""

from __future__ import annotations

import pytest

from services.manhattan import rules as m
from services.manhattan.rules.cards import ROTATION
from services.manhattan.rules.scoring import score_round, standings
from services.manhattan.rules.state import OLD_NAMES
from shared.engine import RuleError

from .playout import check_invariants, dumps, make_state

OLD = {field: short for short, field in OLD_NAMES.items()}


def place(city: int, lot: int, floors: int) -> dict:
    return {"type": "place", "city": city, "lot": lot, "floors": floors}


def code_of(state, seat, move) -> str:
    before = dumps(state)
    with pytest.raises(RuleError) as info:
        m.apply_move(state, seat, move)
    assert dumps(state) == before
    return info.value.code


# ------------------------------------------------------------------ setup and options


def test_module_contract() -> None:
    assert (m.NAME, m.MIN_PLAYERS, m.MAX_PLAYERS) == ("manhattan", 2, 4)


@pytest.mark.parametrize("n", [0, 1, 5, "4", True, None])
def test_invalid_player_count(n) -> None:
    with pytest.raises(RuleError) as info:
        m.setup(n, {}, 1)
    assert info.value.code == "invalid-player-count"


@pytest.mark.parametrize(
    "options", [{"seed": 3}, {"six_rounds": 1}, {"promo_cards": "yes"}, {"players": 4}, []]
)
def test_invalid_options(options) -> None:
    with pytest.raises(RuleError) as info:
        m.setup(3, options, 1)
    assert info.value.code == "invalid-option"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n: int) -> None:
    state = m.setup(n, {}, 42)
    check_invariants(state)
    assert state["phase"] == "select" and state["round"] == 1
    assert m.to_act(state) == [state["start_player"]]
    assert [len(h) for h in state["hands"]] == [4] * n
    assert len(state["deck"]) == 45 - 4 * n
    v = m.view(state, 0)
    assert [p["side"] for p in v["players"]] == {
        2: ["S", "N"],
        3: ["S", "W", "N"],
        4: list("SWNE"),
    }[n]
    assert v["promo"]["current"] is None


def test_start_player_is_seeded_and_varies() -> None:
    starts = {m.setup(4, {}, seed)["start_player"] for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert m.setup(4, {}, 9) == m.setup(4, {}, 9)
    assert m.setup(4, {}, 9)["deck"] != m.setup(4, {}, 10)["deck"]


def test_selection() -> None:
    state = m.setup(2, {}, 1)
    seat = state["start_player"]
    assert m.legal_moves(state, 1 - seat) == []
    moves = m.legal_moves(state, seat)
    assert all(len(mv["pieces"]) == 6 and mv["pieces"] == sorted(mv["pieces"]) for mv in moves)
    assert {"type": "select", "pieces": [4, 4, 4, 3, 3, 3]}["pieces"] not in moves
    assert code_of(state, seat, {"type": "select", "pieces": [1, 1]}) == "invalid-selection"
    assert code_of(state, seat, {"type": "select", "pieces": [4] * 6}) == "invalid-selection"
    assert code_of(state, seat, {"type": "select", "pieces": [0, 1, 1, 1, 1, 1]}) == "bad-move"
    assert code_of(state, seat, place(1, 1, 1)) == "wrong-phase"
    assert code_of(state, 1 - seat, moves[0]) == "not-your-turn"
    state2, events = m.apply_move(state, seat, {"type": "select", "pieces": [4, 1, 2, 3, 1, 2]})
    assert events == [{"type": "pieces_selected", "seat": seat, "pieces": [1, 1, 2, 2, 3, 4]}]
    assert state2["stock"][seat] == [9, 4, 3, 2] and state2["selected"][seat] == [1, 1, 2, 2, 3, 4]
    assert m.to_act(state2) == [1 - seat] and state2["phase"] == "select"
    state3, _ = m.apply_move(state2, 1 - seat, {"type": "select", "pieces": [1, 1, 1, 1, 1, 1]})
    assert state3["phase"] == "build" and m.to_act(state3) == [seat]


def test_six_rounds_selects_four() -> None:
    state = m.setup(3, {"six_rounds": True}, 2)
    moves = m.legal_moves(state, state["start_player"])
    assert moves and all(len(mv["pieces"]) == 4 for mv in moves)
    assert m.view(state, None)["rounds"] == 6


# ------------------------------------------------------------------ rotation table

SPEC_TABLE = {
    "S": [1, 2, 3, 4, 5, 6, 7, 8, 9],
    "W": [3, 6, 9, 2, 5, 8, 1, 4, 7],
    "N": [9, 8, 7, 6, 5, 4, 3, 2, 1],
    "E": [7, 4, 1, 8, 5, 2, 9, 6, 3],
}


def rotate_clockwise(lot: int, times: int) -> int:
    r, c = divmod(lot - 1, 3)
    for _ in range(times):
        r, c = c, 2 - r
    return r * 3 + c + 1


def test_rotation_table_is_the_grid_turned_clockwise() -> None:
    for side, row in enumerate(ROTATION):
        assert list(row) == [rotate_clockwise(k, side) for k in range(1, 10)]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_seat_reads_its_cards_from_its_side(n: int) -> None:
    for seat in range(n):
        hands = [[1, 2, 3, 4] if s != seat else [] for s in range(n)]
        for cards in ([1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 1, 1]):
            hands[seat] = cards
            state = make_state(n, hands=hands, sel=[[1]] * n, cur=seat)
            v = m.view(state, seat)
            side = v["players"][seat]["side"]
            assert v["hand"] == [{"card": c, "lot": SPEC_TABLE[side][c - 1]} for c in sorted(cards)]
            lots = sorted({SPEC_TABLE[side][c - 1] for c in cards})
            assert sorted({mv["lot"] for mv in m.legal_moves(state, seat)}) == lots
            # the engine spends exactly the card that allows the lot
            lot = SPEC_TABLE[side][cards[0] - 1]
            after, events = m.apply_move(state, seat, place(3, lot, 1))
            assert events[0]["card"] == cards[0] and after["discard_pile"] == [cards[0]]
            blocked = next(k for k in range(1, 10) if k not in lots)
            assert code_of(state, seat, place(3, blocked, 1)) == "lot-not-on-card"


def test_same_lot_twice_is_one_move() -> None:
    state = make_state(2, hands=[[5, 5, 5, 5], [1, 2, 3, 4]], sel=[[2, 2], [1]])
    moves = m.legal_moves(state, 0)
    assert moves == [place(c, 5, 2) for c in range(1, 7)]


# ------------------------------------------------------------------ stacking (seed 000/001)


def test_stacking_example_white_needs_two_floors() -> None:
    # White (seat 0) 1 floor, Blue (seat 1) 3 floors on top: White needs at least 2 floors.
    state = make_state(
        2, {(2, 5): [(0, 1), (1, 3)]}, hands=[[5, 1, 1, 1], [1, 2, 3, 4]], sel=[[1, 2, 4], [1]]
    )
    assert code_of(state, 0, place(2, 5, 1)) == "insufficient-floors"
    lot5 = [mv for mv in m.legal_moves(state, 0) if mv["city"] == 2 and mv["lot"] == 5]
    assert lot5 == [place(2, 5, 2), place(2, 5, 4)]
    after, events = m.apply_move(state, 0, place(2, 5, 2))
    assert events[0]["owner"] == 0 and events[0]["previous_owner"] == 1
    assert events[0]["height"] == 6
    cell = m.view(after, None)["cities"][1]["lots"][4]
    assert cell["owner"] == 0 and cell["height"] == 6
    assert cell["pieces"] == [
        {"seat": 0, "floors": 1},
        {"seat": 1, "floors": 3},
        {"seat": 0, "floors": 2},
    ]


def test_stacking_example_nobody_can_take_it() -> None:
    # White 9 floors on top, Blue 4: Blue would need 5 floors, no piece has that.
    white, blue = 0, 1
    building = [(white, 4), (blue, 4), (white, 4), (white, 1)]
    state = make_state(
        2, {(1, 7): building}, hands=[[1, 2, 3, 4], [3, 3, 3, 3]], sel=[[1], [1, 2, 3, 4]], cur=blue
    )
    # North reads card 3 as board lot 7
    for f in (1, 2, 3, 4):
        assert code_of(state, blue, place(1, 7, f)) == "insufficient-floors"
    assert all(mv["city"] != 1 for mv in m.legal_moves(state, blue))
    # the owner may always build on top, even with the smallest piece
    state = make_state(2, {(1, 7): building}, hands=[[7, 1, 1, 1], [3, 3, 3, 3]], sel=[[1], [1]])
    assert place(1, 7, 1) in m.legal_moves(state, white)


def test_equal_floors_is_enough() -> None:
    # seed 001: "the same number of floors as another player is fine"
    state = make_state(2, {(4, 1): [(1, 2)]}, hands=[[1, 1, 1, 1], [5, 5, 5, 5]], sel=[[2], [1]])
    after, _ = m.apply_move(state, 0, place(4, 1, 2))
    assert after["board"][27] == [12, 2]


# ------------------------------------------------------------------ scoring


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


# ------------------------------------------------------------------ deck reshuffle


def test_reshuffle_of_played_cards() -> None:
    state = make_state(2, hands=[[1, 2, 3, 4], [5, 6, 7, 8]], sel=[[1, 1], [1, 1]])
    state["discard_pile"], state["deck"] = state["deck"], []
    discards = sorted(state["discard_pile"])
    after, events = m.apply_move(state, 0, place(1, 1, 1))
    assert [e["type"] for e in events] == ["piece_placed", "deck_reshuffled"]
    assert events[1] == {"type": "deck_reshuffled", "size": len(discards) + 1}
    assert after["discard_pile"] == [] and len(after["deck"]) == len(discards)
    assert sorted(after["deck"] + after["hands"][0]) == sorted(discards + [1, 2, 3, 4])
    assert sorted(after["hands"][1]) == [5, 6, 7, 8]  # cards in hands stay put
    check_invariants(after)
    # no reshuffle while the pile still has cards
    state["deck"], state["discard_pile"] = state["discard_pile"][:1], state["discard_pile"][1:]
    _, events = m.apply_move(state, 0, place(1, 1, 1))
    assert [e["type"] for e in events] == ["piece_placed"]


# ------------------------------------------------------------------ stuck players


def blocked_board(lot: int) -> dict:
    """``lot`` of every city holds Blue's (seat 1) 2-floor piece: a 1-floor piece can't go."""
    return {(c, lot): [(1, 2)] for c in range(1, 7)}


def test_stuck_player_discards_then_builds() -> None:
    # seat 0 holds only lot-1 cards; lot 1 in every city is Blue's with 8 floors.
    state = make_state(2, blocked_board(1), hands=[[1, 1, 1, 1], [2, 2, 2, 2]], sel=[[1], [1]])
    state["deck"].remove(5)
    state["deck"].append(5)  # the next card drawn is a 5
    assert m.legal_moves(state, 0) == [{"type": "discard", "lot": 1}]
    assert code_of(state, 0, place(1, 1, 1)) == "insufficient-floors"
    assert code_of(state, 0, {"type": "discard", "lot": 2}) == "card-not-in-hand"
    assert code_of(state, 0, {"type": "forfeit", "floors": 1}) == "forfeit-not-allowed"
    after, events = m.apply_move(state, 0, {"type": "discard", "lot": 1})
    assert events == [{"type": "card_discarded", "seat": 0, "card": 1, "lot": 1}]
    assert m.to_act(after) == [0] and after["hands"][0] == [1, 1, 1, 5]
    assert after["discard_pile"] == [1]
    check_invariants(after)
    moves = m.legal_moves(after, 0)
    assert moves == [place(c, 5, 1) for c in range(1, 7)]
    assert code_of(after, 0, {"type": "discard", "lot": 1}) == "discard-not-allowed"


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


def test_player_with_no_possible_lot_forfeits() -> None:
    state = make_state(4, full_board(), sel=[[1, 1], [], [], []])
    state["round"] = 4
    assert m.legal_moves(state, 0) == [{"type": "forfeit", "floors": 1}]
    assert code_of(state, 0, {"type": "discard", "lot": 1}) == "discard-not-allowed"
    assert code_of(state, 0, {"type": "forfeit", "floors": 2}) == "piece-not-selected"
    assert code_of(state, 0, place(1, 1, 1)) in ("insufficient-floors", "lot-not-on-card")
    after, events = m.apply_move(state, 0, {"type": "forfeit", "floors": 1})
    assert events == [{"type": "piece_forfeited", "seat": 0, "floors": 1}]
    assert after["selected"][0] == [1] and after["forfeited"][0] == [1]
    assert m.to_act(after) == [0]
    assert m.view(after, None)["players"][0]["forfeited"] == [1]
    check_invariants(after)
    final, events = m.apply_move(after, 0, {"type": "forfeit", "floors": 1})
    assert [e["type"] for e in events] == ["piece_forfeited", "round_scored", "game_over"]
    assert m.is_over(final) and m.to_act(final) == [] and final["forfeited"][0] == [1, 1]
    assert events[1]["categories"]["buildings"] == [0, 18, 18, 18]
    assert m.result(final)["winners"] == events[2]["result"]["winners"]
    assert code_of(final, 0, {"type": "forfeit", "floors": 1}) == "game-over"


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


def test_stuck_player_may_discard_at_most_four_times_per_turn() -> None:
    state = one_open_lot([[2, 2, 2, 2], [1, 1, 1, 1], [3, 3, 3, 3], [4, 4, 4, 4]], [5, 6, 7, 8])
    lots_after = [[2, 2, 2, 5], [2, 2, 5, 6], [2, 5, 6, 7], [5, 6, 7, 8]]
    for k in range(4):
        assert m.view(state, 0)["discards_this_turn"] == k
        assert m.legal_moves(state, 0) == [
            {"type": "discard", "lot": lot} for lot in sorted(set(state["hands"][0]))
        ]
        assert code_of(state, 0, {"type": "forfeit", "floors": 1}) == "forfeit-not-allowed"
        state, events = m.apply_move(state, 0, {"type": "discard", "lot": state["hands"][0][0]})
        assert [e["type"] for e in events] == ["card_discarded"]
        assert state["hands"][0] == lots_after[k] and m.to_act(state) == [0]
        check_invariants(state)
    # a full hand discarded and still nothing to build: only forfeit is left
    assert m.view(state, 0)["discards_this_turn"] == 4
    assert m.legal_moves(state, 0) == [{"type": "forfeit", "floors": 1}]
    assert code_of(state, 0, {"type": "discard", "lot": 5}) == "discard-not-allowed"
    after, events = m.apply_move(state, 0, {"type": "forfeit", "floors": 1})
    assert events == [{"type": "piece_forfeited", "seat": 0, "floors": 1}]
    # the count belongs to the turn: the next seat starts at 0
    assert m.to_act(after) == [1] and m.view(after, 1)["discards_this_turn"] == 0


def test_fourth_discard_that_draws_a_useful_card_lets_the_player_build() -> None:
    state = one_open_lot([[2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4], [5, 5, 5, 5]], [6, 7, 8, 1])
    for _ in range(4):
        state, _ = m.apply_move(state, 0, {"type": "discard", "lot": state["hands"][0][0]})
    assert m.legal_moves(state, 0) == [place(1, 1, 1)]
    after, _ = m.apply_move(state, 0, place(1, 1, 1))
    assert after["discards_this_turn"] == 0 and m.to_act(after) == [1]


def test_stuck_player_discards_even_when_every_useful_card_is_in_other_hands() -> None:
    """The legal moves depend on public information and the own hand only.

    Every lot-1 card sits in seat 1's hand, so no draw can help seat 0; the old rule
    (forfeit when no helpful card is left to draw) told seat 0 exactly that.
    """
    hands = [[2, 2, 2, 2], [1, 1, 1, 1], [1, 3, 3, 3], [4, 4, 4, 4]]
    state = make_state(4, full_board(empty=[(1, 1)]), hands=hands, sel=[[1], [1], [], []])
    assert 1 not in state["deck"] and 1 not in state["discard_pile"]
    assert m.legal_moves(state, 0) == [{"type": "discard", "lot": 2}]
    for pile in ("deck", "discard_pile"):
        hands2 = [[2, 2, 2, 2], [1, 1, 1, 1], [3, 3, 3, 3], [4, 4, 4, 4]]
        state2 = make_state(4, full_board(empty=[(1, 1)]), hands=hands2, sel=[[1], [1], [], []])
        state2["deck"].remove(1)
        state2[pile] = state2[pile] + [1]
        assert m.legal_moves(state2, 0) == m.legal_moves(state, 0)


def test_no_lot_accepts_any_selected_piece_means_forfeit_at_once() -> None:
    """Not one discard: the board alone shows that no card could ever help."""
    state = make_state(
        4,
        full_board(),
        hands=[[1, 2, 3, 4], [5, 5, 5, 5], [6] * 4, [7] * 4],
        sel=[[1], [1], [], []],
    )
    assert m.legal_moves(state, 0) == [{"type": "forfeit", "floors": 1}]
    assert code_of(state, 0, {"type": "discard", "lot": 1}) == "discard-not-allowed"
    # a 2-floor piece is accepted on the 1+1 towers, so that seat may discard instead
    state["selected"][0] = [1, 2]
    state["stock"][0][1] -= 1
    moves = m.legal_moves(state, 0)
    assert moves and {mv["type"] for mv in moves} <= {"place", "discard"}


def test_documents_stored_before_the_discard_cap_count_zero_discards() -> None:
    state = one_open_lot([[2, 2, 2, 2], [1, 1, 1, 1], [3, 3, 3, 3], [4, 4, 4, 4]], [5])
    old = {OLD.get(key, key): value for key, value in state.items()}  # short names
    del old["discards"]
    state = m.ENGINE.upgrade(old)
    assert m.view(state, 0)["discards_this_turn"] == 0
    assert m.legal_moves(state, 0) == [{"type": "discard", "lot": 2}]
    after, _ = m.apply_move(state, 0, {"type": "discard", "lot": 2})
    assert after["discards_this_turn"] == 1 and "discards" not in state


def test_a_state_stored_with_the_old_short_names_loads_unchanged() -> None:
    """Documents written before issue 13 (``n``, ``cur``, ``sel``...) are renamed on load:
    the game goes on exactly as if it had been stored today."""
    state = m.setup(3, {"promo_cards": True}, 7)
    for _ in range(5):
        state, _ = m.apply_move(
            state, m.to_act(state)[0], m.legal_moves(state, m.to_act(state)[0])[0]
        )
    old = {OLD.get(key, key): value for key, value in state.items()}
    assert "n" in old and "num_players" not in old
    assert m.ENGINE.upgrade(old) == state
    assert m.ENGINE.upgrade(state) is state


def test_an_unreadable_state_is_refused_with_a_stable_code() -> None:
    with pytest.raises(RuleError) as caught:
        m.ENGINE.upgrade({"players": 3, "turn": 1})
    assert caught.value.code == "unsupported-game-version"
