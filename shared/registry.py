"""The games installed here, found by entry points (pyproject.toml), never by a module path.

- ``boardgames.games``: per game a :class:`Game` (``services/<game>/game.py``): its engine
  and its Redis key prefix, which the worker needs to play a game's due seats;
- ``boardgames.rl``: per game its environment codec (``services/<game>/rl.py``), which
  :func:`shared.rl.make` needs (``pip install .[rl]``).

An entry point is installed metadata: after changing them, install the project again
(``pip install -e .``; ``make`` does it when pyproject.toml changed).

Imports only the engine contract and the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from shared.engine import Engine

GAMES = "boardgames.games"
RL = "boardgames.rl"


@dataclass(frozen=True)
class Game:
    """What a process besides the game's own app needs of it: the engine and the prefix
    of its Redis keys (the app uses the same prefix)."""

    engine: Engine
    key_prefix: str


@cache
def installed(group: str) -> dict[str, Any]:
    """The objects the entry points of ``group`` name, by name (loaded once per process)."""
    return {point.name: point.load() for point in entry_points(group=group)}


def find(group: str, name: str) -> Any:
    """The object ``group`` names ``name``; :class:`LookupError` naming the installed ones
    when there is none."""
    found = installed(group)
    if name not in found:
        raise LookupError(
            f"no {group!r} entry point named {name!r} (installed: {sorted(found)}); "
            "a game is installed by its entry point in pyproject.toml (pip install -e .)"
        )
    return found[name]


def game(name: str) -> Game:
    """The installed game ``name`` (``manhattan``, ``windcity``)."""
    found = find(GAMES, name)
    if not isinstance(found, Game) or name != found.engine.NAME:
        raise TypeError(f"the {GAMES!r} entry point {name!r} is not that game's Game")
    return found
