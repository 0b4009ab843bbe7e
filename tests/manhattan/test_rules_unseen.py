"""Unseen cards change nothing a seat sees: legal moves, view and events.

For a seat, the unseen cards are the other seats' hands and the draw pile. Dealing them
differently (same multiset, same hand sizes) must leave everything the seat is told
unchanged, or the service would leak where cards are (issue 12: the old stuck rule
looked at the draw pile). States come from random playouts and from crowded boards
where the seat to act is stuck, then a few random moves (discards, forfeits, turns).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from services.manhattan import rules as m
from services.manhattan.rules.board import needed
from services.manhattan.rules.cards import DECK, ROTATION, SIDES_BY_COUNT

from .playout import check_invariants, make_state

State = dict[str, Any]


def play(state: State, rng: random.Random, steps: int) -> State:
    for _ in range(steps):
        if m.is_over(state):
            break
        seat = m.to_act(state)[0]
        state, _ = m.apply_move(state, seat, rng.choice(m.legal_moves(state, seat)))
    return state


def crowded(n: int, cur: int, column_order: list[int], open_lots: int, rng: random.Random) -> State:
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
