"""The engine contract (shared/engine.py), checked the same way over every engine.

Per-game playout helpers (tests/<game>/playout.py) keep only their game's own checks;
everything the Protocol promises is proven here, for both games and the toy game.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from flask import Flask

from shared.engine import Engine, Move, RuleError, State
from shared.store import jsoncodec
from tests.contract.engines import CASES, Case, allowed, canonical, fill, playout
from tests.kit.helpers import auth, post_move, started_game

CODE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
KIT_EVENTS = {"game_created", "player_joined", "game_started", "game_finished"}
SEEDS = (1, 2)
APPLY_SAMPLE = 12  # listed moves applied per position (all of them when fewer)


def games(case: Case) -> list[tuple[int, dict[str, Any], int]]:
    return [(n, options, seed) for n, options in case.setups for seed in SEEDS]


@pytest.fixture(params=CASES, ids=str)
def case(request: pytest.FixtureRequest) -> Case:
    return request.param


def test_the_same_seed_plays_the_same_game(case: Case) -> None:
    for n, options, seed in games(case):
        first = playout(case.engine, n, options, seed)
        again = playout(case.engine, n, options, seed)
        assert canonical([(m, a, e) for _, _, m, a, e in first]) == canonical(
            [(m, a, e) for _, _, m, a, e in again]
        )
        assert case.engine.is_over(first[-1][3]), "the random policy finishes every game"
    setups = {canonical(case.engine.setup(2, {}, seed)) for seed in range(8)}
    assert len(setups) > 1, "the seed changes the game"


def _mutations(move: Move, rng: random.Random) -> list[Any]:
    """Moves near ``move``: most of them illegal, some maybe legal (the contract says which)."""
    out: list[Any] = [{**move, "extra": 1}, {**move, "type": "no-such-move"}, [move], None]
    for key, value in move.items():
        if key == "type":
            continue
        out.append({k: v for k, v in move.items() if k != key})
        if isinstance(value, bool) or value is None:
            out.append({**move, key: 1})
        elif isinstance(value, int):
            out += [{**move, key: value + rng.choice((-2, -1, 1, 2, 9))}, {**move, key: str(value)}]
        elif isinstance(value, str):
            out += [{**move, key: "Z99"}, {**move, key: None}]
        elif isinstance(value, list):
            out += [{**move, key: value[:-1]}, {**move, key: [*value, *value[:1]]}]
            out += [{**move, key: ["Z99"]}, {**move, key: [0]}]
    return out


def _refused(engine: Engine, state: State, seat: int, move: Any) -> None:
    """``move`` raises a RuleError with a stable code and leaves ``state`` as it was."""
    before = canonical(state)
    with pytest.raises(RuleError) as info:
        engine.apply_move(state, seat, move)
    assert CODE.match(info.value.code), info.value.code
    assert canonical(state) == before, "a refused move changed the state"


def test_to_act_legal_moves_and_apply_agree(case: Case) -> None:
    engine = case.engine
    rng = random.Random(7)
    for n, options, seed in games(case):
        for state, _, _, _, _ in playout(engine, n, options, seed):
            acting = engine.to_act(state)
            assert acting and len(set(acting)) == len(acting)
            for seat in range(n):
                listed = engine.legal_moves(state, seat)
                choices = engine.choices(state, seat)
                if seat not in acting:
                    assert listed == [] and choices == []
                    other = engine.legal_moves(state, acting[0])
                    _refused(engine, state, seat, rng.choice(other))
                    continue
                texts = [canonical(m) for m in listed]
                assert listed and len(set(texts)) == len(texts), "each move listed once"
                before = canonical(state)
                for move in rng.sample(listed, min(APPLY_SAMPLE, len(listed))):
                    engine.apply_move(state, seat, move)  # every listed move applies
                for choice in choices:
                    assert len({c["type"] for c in choices}) == len(choices)
                    kind = [m for m in listed if m["type"] == choice["type"]]
                    empty = [m for m in kind if m[choice["field"]] == []]
                    assert empty, "each move is listed with its subset empty"
                    base = rng.choice(empty)
                    engine.apply_move(state, seat, fill(base, choice, rng))
                    dear = fill(base, choice, rng, over_budget=True)
                    if dear:
                        _refused(engine, state, seat, dear)
                assert canonical(state) == before, "apply_move mutated its state"
                for move in _mutations(rng.choice(listed), rng):
                    if isinstance(move, dict) and allowed(move, listed, choices, case.defaults):
                        engine.apply_move(state, seat, move)
                    else:
                        _refused(engine, state, seat, move)


def test_hidden_parts_never_show(case: Case) -> None:
    engine = case.engine
    changed = 0
    for n, options, seed in games(case):
        for i, (state, _, _, _, _) in enumerate(playout(engine, n, options, seed)):
            if i % 3:
                continue
            for seat in [None, *range(n)]:
                other = engine.redeal(state, seat, salt=i * 31 + (seat or 0))
                changed += canonical(other) != canonical(state)
                assert canonical(engine.view(other, seat)) == canonical(engine.view(state, seat))
                assert engine.to_act(other) == engine.to_act(state)
                # a search's cut-off judges by it: public, like the view of a spectator
                assert engine.estimate(other) == engine.estimate(state)
                if seat is not None:
                    assert engine.legal_moves(other, seat) == engine.legal_moves(state, seat)
                    assert engine.choices(other, seat) == engine.choices(state, seat)
    assert changed, "redeal redistributed nothing: the check above could not fail"


def test_state_survives_json(case: Case) -> None:
    engine = case.engine
    for n, options, seed in games(case)[:2]:
        for state, seat, move, after, events in playout(engine, n, options, seed):
            copy = json.loads(json.dumps(state))
            assert copy == state
            plain = engine.stored(state)  # what the kit stores: plain JSON data
            assert jsoncodec.loads(jsoncodec.dumps(plain)) == copy
            assert orjson.dumps(plain) == json.dumps(state, separators=(",", ":")).encode()
            assert engine.upgrade(json.loads(json.dumps(plain))) == state
            again, again_events = engine.apply_move(copy, seat, move)
            assert canonical((again, again_events)) == canonical((after, events))
            json.dumps([engine.view(state, s) for s in [None, *range(n)]])
            json.dumps(engine.score(state))
        json.dumps(engine.result(after))


def _play_over_http(client: Any, case: Case, n: int, options: dict[str, Any], seed: int) -> str:
    rng = random.Random(seed)
    game_id, _, tokens = started_game(client, n, seed=seed, **options)
    while True:
        game = client.get(f"/games/{game_id}").get_json()
        if game["status"] != "running":
            return str(game_id)
        seat = rng.choice(game["to_act"])
        legal = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
        body = legal.get_json()
        move = rng.choice(body["moves"])
        for choice in body["choices"]:
            if choice["type"] == move["type"]:
                move = fill(move, choice, rng)
        r = post_move(client, game_id, tokens[seat], move)
        assert r.status_code == 200, r.get_json()


def test_replay_from_the_log_equals_the_live_game(
    case: Case, make_app: Callable[..., Flask]
) -> None:
    engine = case.engine
    client = make_app(case.app).test_client()
    n, options = case.setups[0]
    game_id = _play_over_http(client, case, n, options, seed=11)
    log = client.get(f"/games/{game_id}/log").get_json()
    live = client.get(f"/games/{game_id}").get_json()
    state = engine.setup(n, dict(options), log["seed"])
    replayed = []
    for entry in log["moves"]:
        state, events = engine.apply_move(state, entry["seat"], entry["move"])
        replayed += events
    assert live["state"] == json.loads(json.dumps(engine.view(state, None)))
    assert live["result"] == json.loads(json.dumps(engine.result(state)))
    logged = [
        {k: v for k, v in e.items() if k not in ("id", "version")}
        for e in log["events"]
        if e["type"] not in KIT_EVENTS
    ]
    assert logged == json.loads(json.dumps(replayed))


PLAYOUT_SEEDS = range(5)


def test_play_on_a_fork_follows_apply_move(case: Case) -> None:
    """A whole game played in place on one fork (legal_actions + play, as a search
    would) stays equal to the same game through apply_move, move by move; the listed
    moves and every apply_move state stay as they were, and a fork of the fork is its own."""
    engine = case.engine
    for n, options in case.setups:
        for seed in PLAYOUT_SEEDS:
            rng = random.Random(seed)
            state = engine.setup(n, dict(options), seed)
            mine = engine.fork(state)
            seen: list[tuple[State, str]] = []
            while not engine.is_over(state):
                seat = rng.choice(engine.to_act(state))
                actions = engine.legal_actions(mine, seat)
                assert list(actions) == engine.legal_moves(state, seat)
                listed = canonical(list(actions))
                move = rng.choice(actions)
                if rng.random() < 0.2:
                    branch, before = engine.fork(mine), canonical(mine)
                    engine.play(branch, seat, move)
                    assert canonical(mine) == before, "playing a fork changed its origin"
                seen.append((state, canonical(state)))
                state, _ = engine.apply_move(state, seat, move)
                engine.play(mine, seat, move)
                assert canonical(mine) == canonical(state)
                assert canonical(list(actions)) == listed, "play changed a listed move"
            assert engine.is_over(mine)
            for old, text in seen:
                assert canonical(old) == text, "play changed a state apply_move made"
