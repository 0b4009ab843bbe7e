"""The games as reinforcement-learning environments: PettingZoo AEC environments over the
same pure engines the services run (``pip install .[rl]``; docs/rl.md).

Game-agnostic, like the rest of the kit. Modules: codec (what a game provides: its fixed
action enumeration and observation encoding), env (:class:`GameEnv`, the AEC environment
over a codec), example (a random agent against a bot through the environment:
``python -m shared.rl.example``). Each game's codec lives beside its game
(``services/<game>/rl.py``) and is found by its ``boardgames.rl`` entry point
(shared/registry.py): :func:`make` builds the environment of a game by name.

Imports only shared.engine, shared.registry and shared.bots (the example) of the kit,
with PettingZoo, Gymnasium and NumPy.

    env = make("manhattan", players=2)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
"""

from __future__ import annotations

from typing import Any

from shared import registry
from shared.rl.codec import Codec
from shared.rl.env import GameEnv


def games() -> list[str]:
    """The games that have an environment here, by name."""
    return sorted(registry.installed(registry.RL))


def make(game: str, **options: Any) -> GameEnv:
    """The environment of ``game``: ``players`` (the engine's range, default 2), ``options``
    (the engine's, e.g. Manhattan's ``{"six_rounds": True}``, Wind City's
    ``{"max_turns": 50}``), ``render_mode`` (``None`` or ``"ansi"``)."""
    codec = registry.find(registry.RL, game)
    if not isinstance(codec, Codec):
        raise TypeError(f"the {registry.RL!r} entry point {game!r} is not a Codec")
    return GameEnv(codec, **options)


__all__ = ["GameEnv", "games", "make"]
