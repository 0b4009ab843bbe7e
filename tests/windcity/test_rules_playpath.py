"""Wind City's in-place path (fork, legal_actions, play) beyond the contract suite: the
lazy plan and placement listings read like lists, and fresh legal moves never reach the
engine's shared ones."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from services.windcity.rules import ENGINE as E
from services.windcity.rules.listing import PlaceMoves, PlanMoves


def _text(value: Any) -> str:
    return json.dumps(value)


def _check_listing(state: dict[str, Any], seat: int) -> None:
    """legal_actions read by index, negative index, slice and iteration: legal_moves."""
    actions = E.legal_actions(state, seat)
    moves = E.legal_moves(state, seat)
    assert len(actions) == len(moves)
    assert [actions[i] for i in range(len(actions))] == moves
    assert list(actions) == moves
    if moves:
        assert actions[-1] == moves[-1] and actions[-len(moves)] == moves[0]
        assert list(actions[1:3]) == moves[1:3]
    for bad in (len(moves), -len(moves) - 1):
        with pytest.raises(IndexError):
            actions[bad]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_playouts_on_a_fork_follow_apply_move(players: int) -> None:
    """Random games (options varied) played in place stay equal, key order included, to
    apply_move's states; every listing, on the fork and on the plain state (where the
    lazy ones are), reads as legal_moves; apply_move's states stay."""
    for seed in range(4):
        rng = random.Random(seed)
        options: dict[str, Any] = {"max_turns": 10 + 7 * seed}
        if seed % 2:
            options["play_area"] = "full"
        state = E.setup(players, options, seed)
        mine = E.fork(state)
        seen = []
        lazy = set()
        while not E.is_over(state):
            seat = rng.choice(E.to_act(state))
            _check_listing(mine, seat)
            _check_listing(state, seat)
            lazy.add(type(E.legal_actions(state, seat)))
            actions = E.legal_actions(mine, seat)
            move = rng.choice(actions)
            seen.append((state, _text(state)))
            state, _ = E.apply_move(state, seat, move)
            E.play(mine, seat, move)
            assert _text(mine) == _text(state)
        for old, text in seen:
            assert _text(old) == text
        assert {PlanMoves, PlaceMoves} <= lazy


def test_fresh_legal_moves_do_not_touch_the_shared_ones() -> None:
    """Changing every move legal_moves returned (and its lists) changes no later listing."""
    rng = random.Random(7)
    state = E.setup(4, {}, 7)
    while not E.is_over(state):
        seat = rng.choice(E.to_act(state))
        before = _text(E.legal_moves(state, seat))
        for move in E.legal_moves(state, seat):
            for value in move.values():
                if isinstance(value, list):
                    value.append("Z99")
            move["type"] = "changed"
        assert _text(E.legal_moves(state, seat)) == before
        assert _text(list(E.legal_actions(state, seat))) == before
        state, _ = E.apply_move(state, seat, rng.choice(E.legal_moves(state, seat)))


def test_a_listing_survives_play_on_its_state() -> None:
    """A plan or placement listing read after its state moved on still lists the moves
    of the position it was made for."""
    rng = random.Random(3)
    mine = E.fork(E.setup(3, {}, 3))
    kept = []
    while not E.is_over(mine):
        seat = rng.choice(E.to_act(mine))
        actions = E.legal_actions(mine, seat)
        kept.append((actions, _text(list(actions))))
        E.play(mine, seat, rng.choice(actions))
    for actions, text in kept:
        assert _text(list(actions)) == text
