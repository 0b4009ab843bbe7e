"""The toy game as a service: the whole of what a third game would add besides rules."""

from __future__ import annotations

from typing import Any

from flask import Flask

from shared.http.app import create_game_app
from tests.kit import toy_engine
from tests.kit.toy_schemas import ToyMoveSchema, ToyOptionsSchema


def create_app(config: dict[str, Any] | None = None) -> Flask:
    return create_game_app(toy_engine.ENGINE, ToyOptionsSchema, ToyMoveSchema, "toy", config)
