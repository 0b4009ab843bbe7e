"""A test that the marker heuristic (tests/conftest.py) takes for ``unit`` but that
reaches Redis fails, saying so, instead of passing or erring by chance."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

PROBE = "tests/markers/unit_reaching_redis.py"


def test_a_unit_test_that_reaches_redis_fails_loudly() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", PROBE, "-p", "no:cacheprovider", "-q", "-rfE"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = run.stdout
    assert run.returncode == 1, out
    assert "3 failed, 1 passed" in out, out
    for name in ("asks_for_a_client_by_name", "opens_its_own_client", "opens_the_stores_lane"):
        assert f"FAILED {PROBE}::test_{name}" in out, out
        assert f"test_{name} is marked unit but opened a Redis connection" in out, out
