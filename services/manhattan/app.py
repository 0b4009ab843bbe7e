"""Manhattan as a service: the engine and its schemas wired into the kit."""

from __future__ import annotations

from typing import Any

from flask import Flask

from services.manhattan.game import GAME
from services.manhattan.schemas import EVENTS, PAYLOADS, ManhattanMoveSchema, ManhattanOptionsSchema
from shared.http.app import create_game_app


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The Manhattan app (``gunicorn -k gevent 'services.manhattan.app:create_app()'``)."""
    return create_game_app(
        GAME.engine,
        ManhattanOptionsSchema,
        ManhattanMoveSchema,
        GAME.key_prefix,
        config,
        PAYLOADS,
        EVENTS,
    )
