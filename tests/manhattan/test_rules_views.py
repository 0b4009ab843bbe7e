"""Hidden information as a property, the view shape, and determinism."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from services.manhattan import rules as m

from .playout import dumps


def random_state(n: int, options: dict, seed: int, steps: int) -> dict:
    rng = random.Random(seed)
    state = m.setup(n, options, seed)
    for _ in range(steps):
        if m.is_over(state):
            break
        seat = m.to_act(state)[0]
        state, _ = m.apply_move(state, seat, rng.choice(m.legal_moves(state, seat)))
    return state


def reshuffle_hidden(state: dict, seat: int, rng: random.Random) -> dict:
    """Another state that differs only in the other seats' hands and the deck order."""
    others = [s for s in range(state["num_players"]) if s != seat]
    pool = list(state["deck"]) + [c for s in others for c in state["hands"][s]]
    rng.shuffle(pool)
    hands = list(state["hands"])
    for s in others:
        hands[s] = sorted(pool[:4])
        del pool[:4]
    return {**state, "hands": hands, "deck": pool}


@settings(max_examples=120, deadline=None)
@given(
    n=st.integers(2, 4),
    six=st.booleans(),
    promo=st.booleans(),
    seed=st.integers(0, 2**64 - 1),
    steps=st.integers(0, 150),
    shuffle_seed=st.integers(0, 10**9),
    data=st.data(),
)
def test_view_hides_other_hands_and_deck_order(n, six, promo, seed, steps, shuffle_seed, data):
    state = random_state(n, {"six_rounds": six, "promo_cards": promo}, seed, steps)
    seat = data.draw(st.one_of(st.none(), st.integers(0, n - 1)))
    other = reshuffle_hidden(state, seat, random.Random(shuffle_seed))
    assert m.view(other, seat) == m.view(state, seat)
    # and the viewer's own hand is what its view shows
    if seat is not None:
        assert [h["card"] for h in m.view(other, seat)["hand"]] == state["hands"][seat]


def test_hidden_state_never_in_view_or_events() -> None:
    rng = random.Random(3)
    state = m.setup(4, {"promo_cards": True}, 123456789)
    while not m.is_over(state):
        seat = m.to_act(state)[0]
        for s in (None, 0, 1, 2, 3):
            v = m.view(state, s)
            text = json.dumps(v)
            assert "rng" not in v and "deck" not in v and "pdeck" not in v
            assert str(state["rng"]) not in text
            assert v["deck_size"] == len(state["deck"])
            if s is None:
                assert v["hand"] is None
            hidden = state["promo_deck"]
            assert all(r["card"] not in hidden or r["card"] is None for r in v["promo"]["revealed"])
        state, events = m.apply_move(state, seat, rng.choice(m.legal_moves(state, seat)))
        for e in events:
            assert set(e) <= {
                "type", "seat", "pieces", "city", "lot", "floors", "card", "owner",
                "previous_owner", "height", "size", "round", "promo", "promo_scored",
                "categories", "totals", "start_player", "result",
            }  # fmt: skip


def test_view_shape() -> None:
    state = random_state(3, {"promo_cards": True}, 8, 40)
    v = m.view(state, 1)
    assert set(v) == {
        "phase", "round", "rounds", "pieces_per_round", "start_player", "current_player",
        "options", "cities", "players", "discard_pile", "deck_size", "discards_this_turn",
        "promo", "you", "hand",
    }  # fmt: skip
    assert len(v["cities"]) == 6 and all(len(c["lots"]) == 9 for c in v["cities"])
    assert set(v["players"][0]) == {
        "seat", "side", "stock", "selected", "hand_size", "forfeited", "score",
    }  # fmt: skip
    floors_on_board = sum(lot["height"] for c in v["cities"] for lot in c["lots"])
    assert floors_on_board == sum(p % 10 for b in state["board"] for p in b) > 0
    assert v["you"] == 1 and v["current_player"] == m.to_act(state)[0]
    json.dumps(v)


def test_same_seed_same_moves_same_state() -> None:
    for n in (2, 3, 4):
        a = random_state(n, {"promo_cards": True}, 77, 500)
        b = random_state(n, {"promo_cards": True}, 77, 500)
        assert m.is_over(a) and dumps(a) == dumps(b)
        c = random_state(n, {"promo_cards": True}, 78, 500)
        assert dumps(c) != dumps(a)


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
