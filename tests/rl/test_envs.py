"""The games as PettingZoo environments (shared/rl; each game's codec in
services/<game>/rl.py, found by its entry point): PettingZoo's own api_test and seed_test
on each game and player count, the action enumeration against whole games, observations
that never show what a seat cannot see, and the docs' example."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from shared import rl
from shared.engine import Engine
from shared.rl import GameEnv
from shared.rl.example import main, play
from tests.conftest import ROOT
from tests.contract.engines import canonical

# PettingZoo warns about every Dict observation space of an env it does not know by name:
# the Dict ({"observation", "action_mask"}) is what its own docs ask for masked actions.
# Any other warning fails (the last filter listed is applied first).
pytestmark = [
    pytest.mark.filterwarnings("error"),
    # (a socket another test left to the garbage collector is not this module's warning)
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

SETUPS = [
    ("manhattan", 2, {}),
    ("manhattan", 3, {"promo_cards": True}),
    ("manhattan", 4, {"six_rounds": True}),
    ("windcity", 2, {"max_turns": 12}),
    ("windcity", 3, {"play_area": "full", "max_turns": 10}),
    ("windcity", 5, {}),
]


def make(game: str, players: int, options: dict[str, Any]) -> Callable[[], GameEnv]:
    return lambda: rl.make(game, players=players, options=options)


def random_game(env: GameEnv, seed: int) -> list[tuple[str, Any]]:
    """One game with seeded random masked actions: (agent, action) per step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        action = (
            None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        steps.append((agent, action))
        env.step(action)
    return steps


@pytest.mark.parametrize(("game", "players", "options"), SETUPS)
def test_api(game: str, players: int, options: dict[str, Any]) -> None:
    api_test(make(game, players, options)(), num_cycles=1000)  # plays a whole game


@pytest.mark.parametrize(("game", "players", "options"), SETUPS)
def test_seed(game: str, players: int, options: dict[str, Any]) -> None:
    seed_test(make(game, players, options), num_cycles=200)


@pytest.mark.parametrize(("game", "players", "options"), SETUPS)
def test_a_game_lists_exactly_the_engines_moves(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """Every step: the mask marks one action per listed move and nothing else, each
    action plays its move, the observation keeps its shape; the end pays the ranking."""
    env = make(game, players, options)()
    engine: Engine = env.engine
    rng = np.random.default_rng(7)
    env.reset(seed=7)
    size = env.codec.size
    acted = []
    for agent in env.agent_iter():
        obs, reward, terminated, _, _ = env.last()
        assert obs["observation"].shape == (size,)
        if terminated:
            env.step(None)
            continue
        seat = env.seat[agent]
        to_act = engine.to_act(env.state)
        assert seat == min(to_act)  # simultaneous answers: one after the other, by seat
        legal = engine.legal_moves(env.state, seat)
        marked = np.flatnonzero(obs["action_mask"])
        assert sorted(env.action_of(m) for m in legal) == marked.tolist()
        for other in env.agents:  # only the selected agent has a mask
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        action = int(rng.choice(marked))
        move = env.legal(seat)[action]
        expected, _ = engine.apply_move(env.state, seat, move)
        env.step(action)
        acted.append(seat)
        assert canonical(engine.stored(env.state)) == canonical(engine.stored(expected))
    assert engine.is_over(env.state) and set(acted) == set(range(players))
    result = engine.result(env.state)
    rewards = env.final_rewards()
    assert sum(rewards.values()) == pytest.approx(0)
    for standing in result["standings"]:
        if standing["rank"] == 1 and len(result["winners"]) == 1:
            assert rewards[f"player_{standing['seat']}"] == 1.0


def test_every_game_with_a_codec_is_installed_by_its_entry_point() -> None:
    """A game's ``services/<game>/rl.py`` is found by name (its ``boardgames.rl`` entry
    point in pyproject.toml); a name with no entry point is refused by name."""
    beside = sorted(p.parent.name for p in (ROOT / "services").glob("*/rl.py"))
    assert beside == rl.games() == ["manhattan", "windcity"]
    for game in beside:
        assert game == rl.make(game).engine.NAME
    with pytest.raises(LookupError, match="chess"):
        rl.make("chess")


def test_an_illegal_action_is_refused() -> None:
    env = rl.make("manhattan")
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    action = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not a legal move"):
        env.step(action)


def test_the_same_seed_the_same_game_and_different_seeds_differ() -> None:
    for game in ("manhattan", "windcity"):
        one, two = rl.make(game), rl.make(game)
        assert random_game(one, 5) == random_game(two, 5)
        assert canonical(one.state) == canonical(two.state)
        random_game(two, 6)
        assert canonical(one.state) != canonical(two.state)
        one.reset(seed=11)
        first = canonical(one.state)
        one.reset()  # no seed: the next one the last seed's generator draws
        two.reset(seed=11)
        two.reset()
        assert canonical(one.state) == canonical(two.state) != first


@pytest.mark.parametrize(("game", "players", "options"), SETUPS)
def test_an_observation_shows_only_what_its_seat_may_see(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """For every seat at every step, a redeal of everything that seat cannot see (others'
    hands and plans, the deck, the RNG) leaves its observation and mask as they were."""
    env = make(game, players, options)()
    engine: Engine = env.engine
    pick = random.Random(1)
    env.reset(seed=1)
    changed = 0
    for step, _ in enumerate(env.agent_iter()):
        state = env.state
        for other in env.agents:
            seat = env.seat[other]
            mine = env.observe(other)
            redealt = engine.redeal(state, seat, salt=step * 7 + seat)
            changed += canonical(engine.stored(redealt)) != canonical(engine.stored(state))
            env.state = redealt
            theirs = env.observe(other)
            env.state = state
            assert np.array_equal(mine["observation"], theirs["observation"]), (step, seat)
            assert np.array_equal(mine["action_mask"], theirs["action_mask"]), (step, seat)
        obs, _, terminated, _, _ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if terminated else int(pick.choice(legal.tolist())))
    assert changed, "no redeal changed the state: the check above could not fail"


def test_the_docs_example_plays_a_random_agent_against_the_strong_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    games = play("manhattan", games=1, level="strong", seed=1, iterations=8)
    assert games == play("manhattan", games=1, level="strong", seed=1, iterations=8)
    (g,) = games
    assert sorted(g["standings"]) == [0, 1]
    assert g["rewards"]["player_0"] == -g["rewards"]["player_1"]
    main(["--game", "windcity", "--games", "1", "--players", "3", "--iterations", "4"])
    out = capsys.readouterr().out
    assert "random agent vs strong at windcity: mean reward" in out
