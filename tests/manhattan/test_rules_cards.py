"""Manhattan's cards: the rotation table (the board lot a card allows from each side),
one move per lot however many cards allow it, the reshuffle of played cards into the
deck, and the kit's inlined shuffle (shared/rng.py, the deck's) giving what the plain
Fisher-Yates over ``rng.below`` gives."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shared.rng as rng
from services.manhattan import rules as m
from services.manhattan.rules.cards import ROTATION

from .playout import check_invariants, code_of, make_state, place

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


def plain_shuffle(s: int, items: list[int]) -> tuple[int, list[int]]:
    """Fisher-Yates with one ``rng.below`` per item: what the inlined code must equal."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        s, j = rng.below(s, i + 1)
        out[i], out[j] = out[j], out[i]
    return s, out


@settings(max_examples=300, deadline=None)
@given(s=st.integers(0, rng.MASK), items=st.lists(st.integers(), max_size=60))
def test_inlined_shuffle_equals_the_plain_code(s: int, items: list[int]) -> None:
    before = list(items)
    assert rng.shuffle(s, items) == plain_shuffle(s, items)
    assert items == before  # both return a copy


def test_inlined_shuffle_on_many_random_inputs() -> None:
    r = random.Random(17)
    for _ in range(2000):
        s = r.choice([0, 1, rng.MASK, r.getrandbits(64)])
        items = [r.randint(1, 9) for _ in range(r.randint(0, 50))]
        assert rng.shuffle(s, items) == plain_shuffle(s, items)
