"""The Kubernetes tests' fixture: each overlay, rendered once per module."""

from __future__ import annotations

import pytest

from .kubectl import render
from .manifests import OVERLAYS, Resource


@pytest.fixture(scope="module", params=sorted(OVERLAYS))
def overlay(request: pytest.FixtureRequest) -> tuple[str, list[Resource]]:
    return request.param, render(OVERLAYS[request.param])
