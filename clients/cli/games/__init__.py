"""One module per game: everything the CLI knows about it (rendering, event lines,
legend, notation). Each module provides the same names: ``NAME``, ``status``, ``board``,
``players``, ``private``, ``board_compact``, ``COMPACT_BESIDE``, ``score_rows``,
``EVENTS``, ``LEGEND``, ``parse``, ``format_move``. Bots live with the rules
(``services/<game>/rules/bots.py``); ``clients/cli/bots.py`` plays them over HTTP.
"""

from __future__ import annotations

from types import ModuleType

from . import manhattan, windcity

GAMES: dict[str, ModuleType] = {m.NAME: m for m in (manhattan, windcity)}


def game_module(game: str) -> ModuleType:
    """The module of ``game``; ValueError for an unknown game."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    return GAMES[game]
