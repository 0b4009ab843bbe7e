"""Short move notation ⇄ move bodies (each game's notation: clients/cli/games/).

Manhattan: ``3 7 2`` (place: city 3, board lot 7, 2 floors; also ``place 3 7 2``),
``select 1 1 2 2 3 4``, ``discard 5``, ``forfeit 2``.
Wind City: ``C7`` (a house, or the hurricane while it is being placed; also
``house C7`` / ``hurricane C1``), ``plan 1,3,4 kauf=C9 renew=C7,D8``, ``insure D8 E9``
(``insure`` alone: none). Any text starting with ``{`` is taken as a JSON move body.
"""

from __future__ import annotations

import json
from typing import Any

from .games import game_module
from .i18n import _
from .style import NotationError

Move = dict[str, Any]
__all__ = ["NotationError", "parse_move", "format_move"]


def parse_move(game: str, text: str, legal: list[Move] | None = None) -> Move:
    """A move body from JSON or short notation for ``game``."""
    text = text.strip()
    if text.startswith("{"):
        try:
            body = json.loads(text)
        except ValueError as exc:
            raise NotationError(_("bad JSON: {error}", error=exc)) from exc
        if not isinstance(body, dict) or "type" not in body:
            raise NotationError(_('a move is a JSON object with a "type"'))
        return body
    try:
        ui = game_module(game)
    except ValueError as exc:
        raise NotationError(str(exc)) from exc
    return ui.parse(text, legal)


def format_move(game: str, move: Move) -> str:
    """The short notation of a move body (the inverse of :func:`parse_move`)."""
    try:
        short = game_module(game).format_move(move)
    except ValueError:  # an unknown game: JSON
        short = None
    if short is not None:
        return str(short)
    return json.dumps(move, sort_keys=True)
