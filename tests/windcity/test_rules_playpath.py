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


def test_fork_caches_follow_apply_move_in_every_shape() -> None:
    """The fork's caches (free squares, the quota look-ahead's counts, each seat's houses,
    the plan listing's insured houses) over varied games: every listing equals
    legal_moves, read whole and at sampled indices; a fresh fork of the plain state and a
    fork of the fork each play the move without a listing of their own and equal
    apply_move; the plan listings count their Kauf parts in each of their three shapes
    (no renewal affordable, some, the one affordable renewal a target's)."""
    shapes = set()
    for seed in range(40):
        rng = random.Random(seed)
        players = (2, 3, 4, 5)[seed % 4]
        options: dict[str, Any] = {"max_turns": 12 + seed}
        if seed % 3 == 1:
            options["play_area"] = "full"
        state = E.setup(players, options, seed)
        mine = E.fork(state)
        while not E.is_over(state):
            seat = rng.choice(E.to_act(state))
            actions = E.legal_actions(mine, seat)
            moves = E.legal_moves(state, seat)
            assert list(actions) == moves
            for i in rng.sample(range(len(moves)), min(len(moves), 8)):
                assert actions[i] == moves[i]
            if state["phase"] == "plan":
                shapes.add((actions._step, actions._single is not None))  # type: ignore[attr-defined]
            move = rng.choice(actions)
            others = [E.fork(state), E.fork(mine)] if rng.random() < 0.25 else []
            state, _ = E.apply_move(state, seat, move)
            for other in [*others, mine]:
                E.play(other, seat, move)
                assert _text(other) == _text(state)
    assert shapes == {(1, False), (2, False), (2, True)}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fork_placements_follow_a_filling_beach(players: int) -> None:
    """House placement on a fork, the other seats rushing for the beach while the first
    placer keeps off it, so that its squares run out and the quota look-ahead (from the
    fork's counts) decides: every listing equals legal_moves and every state
    apply_move's."""
    for seed in range(30):
        rng = random.Random(seed)
        state = E.setup(players, {}, seed)
        mine = E.fork(state)
        while state["phase"] in ("hurricane", "houses"):
            seat = E.to_act(state)[0]
            actions = E.legal_actions(mine, seat)
            assert list(actions) == E.legal_moves(state, seat)
            beach = [m for m in actions if m.get("square", "")[1:] == "5"]
            land = [m for m in actions if m not in beach]
            if seat == state["first"]:
                move = rng.choice(land or actions)
            else:
                move = rng.choice(beach if beach and rng.random() < 0.9 else actions)
            state, _ = E.apply_move(state, seat, move)
            E.play(mine, seat, move)
            assert _text(mine) == _text(state)
