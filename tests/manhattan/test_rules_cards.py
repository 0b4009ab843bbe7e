"""The engine's inlined shuffle and its memo tables give what the plain code gives."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import shared.rng as rng
from services.manhattan import rules as m
from services.manhattan.rules import moves
from services.manhattan.rules.cards import shuffle


@settings(max_examples=300, deadline=None)
@given(s=st.integers(0, rng.MASK), items=st.lists(st.integers(), max_size=60))
def test_inlined_shuffle_equals_shared_rng_shuffle(s: int, items: list[int]) -> None:
    before = list(items)
    assert shuffle(s, items) == rng.shuffle(s, items)
    assert items == before  # both return a copy


def test_inlined_shuffle_on_many_random_inputs() -> None:
    r = random.Random(17)
    for _ in range(2000):
        s = r.choice([0, 1, rng.MASK, r.getrandbits(64)])
        items = [r.randint(1, 9) for _ in range(r.randint(0, 50))]
        assert shuffle(s, items) == rng.shuffle(s, items)


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
                for table in (*moves._NEEDS, *moves._LOTS, moves._SIZES):
                    table.clear()
                assert m.legal_moves(state, seat) == legal
                legal[0]["city"] = 99
                assert m.legal_moves(state, seat)[0]["city"] != 99
            state, _ = m.apply_move(state, seat, r.choice(m.legal_moves(state, seat)))
