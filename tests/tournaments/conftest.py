"""The toy game's app for the tournaments' tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient


@pytest.fixture
def toy_app(make_app: Callable[..., Flask]) -> Flask:
    return make_app("toy")


@pytest.fixture
def toy_client(toy_app: Flask) -> FlaskClient:
    return toy_app.test_client()
