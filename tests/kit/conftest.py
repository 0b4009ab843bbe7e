"""Fixtures of the toy game (tests/kit/toy_engine.py) served by the kit."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient


@pytest.fixture
def toy_app(make_app: Callable[..., Flask]) -> Flask:
    """The toy game's app on the flushed test Redis."""
    return make_app("toy")


@pytest.fixture
def toy_client(toy_app: Flask) -> FlaskClient:
    return toy_app.test_client()
