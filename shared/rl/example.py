"""A random agent against a bot, through the environment (docs/rl.md). Trains nothing.

    python -m shared.rl.example --game manhattan --games 3 --level strong

``player_0`` samples a uniformly random action from its mask; every other seat is the bot
``--level`` (``shared.bots.decide``: ``random``, ``greedy``, ``medium``, ``strong``),
which decides from the environment's game state through the seat's own view and
``engine.redeal`` (never the hidden parts), and whose move the environment takes as an
action (``env.action_of``). ``--iterations`` overrides a search level's budget (and
lifts its time cap, so a run is reproducible).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from shared.bots import LEVELS, decide
from shared.rl import games as installed
from shared.rl import make


def play(
    game: str,
    games: int,
    level: str,
    seed: int,
    players: int = 2,
    iterations: int | None = None,
) -> list[dict[str, Any]]:
    """``games`` games (seeds ``seed, seed+1...``); per game the agents' rewards and the
    final standings' seats in rank order."""
    env = make(game, players=players)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        env.reset(seed=seed + g)
        rewards = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            rewards[agent] += reward
            if terminated or truncated:
                action = None
            elif agent == "player_0":
                legal = np.flatnonzero(obs["action_mask"])
                action = int(rng.choice(legal))
            else:
                seat = env.seat[agent]
                bot_seed = int(rng.integers(1 << 62))
                cap = None if iterations is None else 0  # 0: no time cap
                move = decide(
                    env.engine, env.state, seat, level, bot_seed, iterations=iterations, ms=cap
                )
                action = env.action_of(move)
            env.step(action)
        result = env.engine.result(env.state)
        assert result is not None
        order = [s["seat"] for s in result["standings"]]
        out.append({"seed": seed + g, "rewards": rewards, "standings": order})
    env.close()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=installed(), default="manhattan")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--level", choices=list(LEVELS), default="strong")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=None)
    args = parser.parse_args(argv)
    games = play(args.game, args.games, args.level, args.seed, args.players, args.iterations)
    for g in games:
        print(
            f"game {g['seed']}: random agent's reward {g['rewards']['player_0']:+.2f}, "
            f"seats by rank {g['standings']}"
        )
    mean = sum(g["rewards"]["player_0"] for g in games) / len(games)
    print(f"random agent vs {args.level} at {args.game}: mean reward {mean:+.2f}")


if __name__ == "__main__":
    main()
