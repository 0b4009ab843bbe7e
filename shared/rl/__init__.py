"""The games as reinforcement-learning environments: PettingZoo AEC environments over the
same pure engines the services run (``pip install .[rl]``; docs/rl.md).

Modules: codec (a game's fixed action enumeration and observation encoding), manhattan
and windcity (each game's codec), env (:class:`GameEnv`, the AEC environment over a
codec), example (a random agent against a bot through the environment:
``python -m shared.rl.example``). The environments import only shared/engine.py, the
rules packages, PettingZoo, Gymnasium and NumPy; the example adds shared/bots.

    env = manhattan_env(players=2)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
"""

from __future__ import annotations

from typing import Any

from shared.rl.env import GameEnv


def manhattan_env(**options: Any) -> GameEnv:
    """Manhattan: ``players`` (2-4, default 2), ``options`` (the engine's, e.g.
    ``{"six_rounds": True}``), ``render_mode`` (``None`` or ``"ansi"``)."""
    from shared.rl.manhattan import CODEC

    return GameEnv(CODEC, **options)


def windcity_env(**options: Any) -> GameEnv:
    """Wind City: ``players`` (2-5, default 2), ``options`` (the engine's, e.g.
    ``{"max_turns": 50}``), ``render_mode`` (``None`` or ``"ansi"``)."""
    from shared.rl.windcity import CODEC

    return GameEnv(CODEC, **options)


ENVS = {"manhattan": manhattan_env, "windcity": windcity_env}
"""The environment constructors by game name."""

__all__ = ["ENVS", "GameEnv", "manhattan_env", "windcity_env"]
