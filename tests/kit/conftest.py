"""Fixtures of the toy game (tests/kit/toy_engine.py) served by the kit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from clients.cli import admin


@pytest.fixture
def toy_app(make_app: Callable[..., Flask]) -> Flask:
    """The toy game's app on the flushed test Redis."""
    return make_app("toy")


@pytest.fixture
def toy_client(toy_app: Flask) -> FlaskClient:
    return toy_app.test_client()


# -- moderation (tests/kit/test_moderation*.py): an operator's key and a platform's --------


@pytest.fixture
def mod_keys(tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "keys.json"
    ops, _ = admin.add(path, "ops", 0, 0, ("admin",))
    plain, _ = admin.add(path, "platform", 0, 0)
    return {"file": str(path), "admin": ops, "plain": plain}


@pytest.fixture
def mod_app(make_app: Callable[..., Flask], mod_keys: dict[str, str]) -> Flask:
    return make_app(
        "toy", API_KEYS_FILE=mod_keys["file"], SSE_HEARTBEAT_SECONDS=0.1, SSE_MAX_SECONDS=0.3
    )


@pytest.fixture
def mod_client(mod_app: Flask) -> FlaskClient:
    return mod_app.test_client()
