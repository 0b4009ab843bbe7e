"""Wind City as a service: the engine and its schemas wired into the kit."""

from __future__ import annotations

from typing import Any

from flask import Flask

from services.windcity import rules
from services.windcity.schemas import EVENTS, PAYLOADS, WindCityMoveSchema, WindCityOptionsSchema
from shared.http.app import create_game_app

KEY_PREFIX = "wc"
"""The Redis key prefix of this game (the worker uses it too)."""


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The Wind City app (``gunicorn -k gevent 'services.windcity.app:create_app()'``)."""
    return create_game_app(
        rules.ENGINE,
        WindCityOptionsSchema,
        WindCityMoveSchema,
        KEY_PREFIX,
        config,
        PAYLOADS,
        EVENTS,
    )
