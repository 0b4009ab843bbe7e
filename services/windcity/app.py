"""Wind City as a service: the engine and its schemas wired into the kit."""

from __future__ import annotations

from typing import Any

from flask import Flask

from services.windcity.game import GAME
from services.windcity.schemas import EVENTS, PAYLOADS, WindCityMoveSchema, WindCityOptionsSchema
from shared.http.app import create_game_app


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The Wind City app (``gunicorn -k gevent 'services.windcity.app:create_app()'``)."""
    return create_game_app(
        GAME.engine,
        WindCityOptionsSchema,
        WindCityMoveSchema,
        GAME.key_prefix,
        config,
        PAYLOADS,
        EVENTS,
    )
