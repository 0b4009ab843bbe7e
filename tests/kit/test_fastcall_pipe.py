"""The process's one pipe to Redis under gevent (shared/store/connection.py ``Pipe``): many
greenlets' commands share sends, every caller gets its own reply, an error reply only
its own caller, and a killed connection or a Redis that stops answering for a while
costs the commands waiting then (they take redis-py's path), never a wrong answer."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import CLUSTER


@pytest.mark.skipif(CLUSTER, reason="the pipe serves a plain Redis; Cluster takes redis-py's path")
@pytest.mark.parametrize("piped", [True, False], ids=["pipe", "REDIS_PIPELINE=0"])
def test_many_greenlets_share_the_pipe_and_each_gets_its_own_reply(
    redis_url: str, piped: bool
) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "tests.kit.pipe_under_gevent", redis_url]
        + ([] if piped else ["--unpiped"]),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["piped"] is piped
    assert seen["wrong"] == []
    assert seen["ok"] > 10_000
    # only the kill and the stall cost commands, as failures redis-py's path reports
    assert set(seen["errors"]) <= {"TimeoutError", "ConnectionError", "MaxConnectionsError"}
    assert all(seen["after"]) and len(seen["after"]) == 300
    # the commands of one turn leave together: far fewer reads by Redis than commands
    assert (seen["reads"] * 3 < seen["calls"]) is piped, seen
