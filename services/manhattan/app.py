"""Manhattan as a service: the engine and its schemas wired into the kit."""

from __future__ import annotations

from typing import Any

from flask import Flask

from services.manhattan import rules
from services.manhattan.schemas import EVENTS, PAYLOADS, ManhattanMoveSchema, ManhattanOptionsSchema
from shared.http.app import create_game_app

KEY_PREFIX = "mh"
"""The Redis key prefix of this game (the worker uses it too)."""


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The Manhattan app (``gunicorn -k gevent 'services.manhattan.app:create_app()'``)."""
    return create_game_app(
        rules.ENGINE,
        ManhattanOptionsSchema,
        ManhattanMoveSchema,
        KEY_PREFIX,
        config,
        PAYLOADS,
        EVENTS,
    )
