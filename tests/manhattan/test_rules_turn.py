"""A Manhattan turn on constructed states: selecting pieces, placing them (the stacking
examples of seeds 000/001), refusals (code, and the state left unchanged), stuck players
(discard, at most four times a turn, then forfeit), and apply_move never changing its input."""

from __future__ import annotations

import random

from services.manhattan import rules as m

from .playout import (
    check_invariants,
    code_of,
    dumps,
    full_board,
    make_state,
    one_open_lot,
    place,
)

# ------------------------------------------------------------------ selection


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


# ------------------------------------------------------------------ no mutation


def test_apply_move_does_not_mutate_input() -> None:
    rng = random.Random(11)
    state = m.setup(4, {"six_rounds": True, "promo_cards": True}, 5)
    history = []
    while not m.is_over(state):
        history.append((state, dumps(state)))
        seat = m.to_act(state)[0]
        state, _ = m.apply_move(state, seat, rng.choice(m.legal_moves(state, seat)))
    for old, text in history:
        assert dumps(old) == text
