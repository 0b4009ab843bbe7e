"""Hidden information: unseen cards change nothing a seat sees (legal moves, view and
events), hidden state never reaches a view or an event, and the view's shape.

For a seat, the unseen cards are the other seats' hands and the draw pile. Dealing them
differently (same multiset, same hand sizes) must leave everything the seat is told
unchanged, or the service would leak where cards are (issue 12: the old stuck rule
looked at the draw pile). States come from random playouts and from crowded boards
where the seat to act is stuck, then a few random moves (discards, forfeits, turns).
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from services.manhattan import rules as m
from services.manhattan.rules.board import needed
from services.manhattan.rules.cards import ROTATION, SIDES_BY_COUNT

from .playout import check_invariants, crowded, random_state

State = dict[str, Any]


def play(state: State, rng: random.Random, steps: int) -> State:
    for _ in range(steps):
        if m.is_over(state):
            break
        seat = m.to_act(state)[0]
        state, _ = m.apply_move(state, seat, rng.choice(m.legal_moves(state, seat)))
    return state


def useful_first(state: State, seat: int | None) -> list[int]:
    """Printed cards, those that allow a lot accepting one of ``seat``'s pieces first."""
    if seat is None or not state["selected"][seat]:
        return list(range(1, 10))
    rot = ROTATION[SIDES_BY_COUNT[state["num_players"]][seat]]
    big = max(state["selected"][seat])
    board = state["board"]
    fits = {i % 9 + 1 for i, b in enumerate(board) if needed(b, seat) <= big}
    return sorted(range(1, 10), key=lambda card: rot[card - 1] not in fits)


def redeal(state: State, seat: int | None, priority: list[int] | None, rng: random.Random):
    """The same state with the cards ``seat`` cannot see dealt anew.

    With ``priority`` the other hands get the cards of the first values in it, so that
    every copy of a value can move between the draw pile and the hands (e.g. every card
    that could help a stuck seat, when the priority is ``useful_first``).
    """
    others = [s for s in range(state["num_players"]) if s != seat]
    pool = list(state["deck"]) + [c for s in others for c in state["hands"][s]]
    rng.shuffle(pool)
    if priority is not None:
        pool.sort(key=priority.index)
    hands = list(state["hands"])
    for s in others:
        size = len(state["hands"][s])
        hands[s], pool = sorted(pool[:size]), pool[size:]
    rng.shuffle(pool)
    return {**state, "hands": hands, "deck": pool}


def seen_after(state: State, seat: int, move: dict) -> tuple[list, dict]:
    """What ``seat`` learns from its move: the events and the view but for its new hand."""
    after, events = m.apply_move(state, seat, move)
    v = m.view(after, seat)
    del v["hand"]
    return events, v


@st.composite
def states(draw: st.DrawFn) -> tuple[State, int | None]:
    n = draw(st.integers(2, 4))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        options = {"six_rounds": draw(st.booleans()), "promo_cards": draw(st.booleans())}
        state = m.setup(n, options, draw(st.integers(0, 2**64 - 1)))
        state = play(state, rng, draw(st.integers(0, 200)))
    else:
        n = draw(st.sampled_from([n, 4]))  # only 4 players can fill the board
        cur = draw(st.integers(0, n - 1))
        order = draw(st.permutations(range(1, 10)))
        state = crowded(n, cur, order, draw(st.integers(0, 3)), rng)
        state = play(state, rng, draw(st.integers(0, 6)))
    check_invariants(state, with_view=False)
    acting = m.to_act(state)
    anyone = st.one_of(st.none(), st.integers(0, n - 1))
    pick_acting = bool(acting) and draw(st.booleans())
    seat = draw(st.sampled_from(acting) if pick_acting else anyone)
    return state, seat


@settings(max_examples=500, deadline=None)
@given(
    drawn=states(),
    priority=st.one_of(st.none(), st.just("useful"), st.permutations(range(1, 10))),
    redeal_seed=st.integers(0, 2**32 - 1),
)
def test_unseen_cards_change_nothing_a_seat_sees(drawn, priority, redeal_seed) -> None:
    state, seat = drawn
    if priority == "useful":
        priority = useful_first(state, seat)
    other = redeal(state, seat, priority, random.Random(redeal_seed))
    check_invariants(other, with_view=False)
    assert m.view(other, seat) == m.view(state, seat)
    if seat is None:
        return
    moves = m.legal_moves(state, seat)
    assert m.legal_moves(other, seat) == moves
    for move in moves:
        assert seen_after(other, seat, move) == seen_after(state, seat, move)


def test_crowded_states_reach_both_stuck_moves() -> None:
    """The generator above really makes stuck seats (discard and forfeit) to test."""
    kinds = set()
    rng = random.Random(1)
    for i in range(200):
        n = 2 + i % 3
        order = rng.sample(range(1, 10), 9)
        state = play(crowded(n, i % n, order, rng.randint(0, 3), rng), rng, rng.randint(0, 6))
        kinds |= {mv["type"] for s in m.to_act(state) for mv in m.legal_moves(state, s)}
    assert {"discard", "forfeit"} <= kinds


# ------------------------------------------------------------------ views


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
