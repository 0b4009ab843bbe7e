"""Metrics and logs under real gunicorn (2 gevent workers, the project's gunicorn.conf.py).

The counts must add up across both workers whichever one answers the scrape, survive a
worker's death, and every line the service writes must be JSON without a token.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import APP_FACTORIES, ROOT, free_port, stop, wait_until

METRICS_TOKEN = "scrape-secret-0123456789"


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition, keyed by name and sorted labels."""
    found = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            found[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return found


def value(text: str, name: str, **labels: str) -> float:
    """The sum of the samples of ``name`` whose labels include ``labels``."""
    return sum(
        v
        for (n, ls), v in samples(text).items()
        if n == name and all(dict(ls).get(k) == want for k, want in labels.items())
    )


class Served:
    """A game service under gunicorn with its output captured to a file."""

    def __init__(self, proc: subprocess.Popen, base: str, log: Path, metrics_dir: Path):
        self.proc, self.base, self.log, self.metrics_dir = proc, base, log, metrics_dir

    def scrape(self) -> str:
        headers = {"Authorization": f"Bearer {METRICS_TOKEN}"}
        # a new connection each time, so either worker may answer
        resp = requests.get(f"{self.base}/metrics", headers=headers, timeout=5)
        assert resp.status_code == 200, resp.text
        return resp.text

    def counting_pids(self) -> set[str]:
        """The workers that have written a counter (prometheus' files name their pid)."""
        return {p.name.rsplit("_", 1)[-1] for p in self.metrics_dir.glob("*/counter_*.db")}

    def worker_pids(self) -> list[int]:
        out = subprocess.run(
            ["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True, check=False
        )
        return [int(p) for p in out.stdout.split()]


@pytest.fixture
def served(redis_url: str, tmp_path: Path) -> Iterator[Served]:
    port = free_port()
    log = tmp_path / "service.log"
    metrics_dir = tmp_path / "metrics"
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "INFO",
        "METRICS_TOKEN": METRICS_TOKEN,
        "METRICS_DIR": str(metrics_dir),
        "WEB_CONCURRENCY": "2",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                str(ROOT / "gunicorn.conf.py"),
                "--name",
                "manhattan",
                "-b",
                f"127.0.0.1:{port}",
                "--graceful-timeout",
                "2",
                f"{APP_FACTORIES['manhattan']}()",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    served = Served(proc, base, log, metrics_dir)
    try:
        wait_until(
            lambda: (
                requests.get(f"{base}/readyz", timeout=1).status_code == 200
                and len(served.worker_pids()) == 2
            ),
            20,
            "gunicorn",
        )
        yield served
    finally:
        stop(proc)


def _play(base: str) -> dict[str, str]:
    """A 2-player game started, one legal move made; returns the tokens used."""
    created = requests.post(f"{base}/games", json={"players": 2}, timeout=5).json()
    gid, host = created["id"], created["host_token"]
    ann = requests.post(f"{base}/games/{gid}/players", json={"name": "ann"}, timeout=5).json()
    bob = requests.post(f"{base}/games/{gid}/players", json={"name": "bob"}, timeout=5).json()
    auth = {"Authorization": f"Bearer {host}"}
    assert requests.post(f"{base}/games/{gid}/start", headers=auth, timeout=5).status_code == 200
    tokens = {"host": host, "ann": ann["token"], "bob": bob["token"]}
    view = requests.get(f"{base}/games/{gid}", timeout=5).json()
    seat = view["to_act"][0]
    token = tokens["ann"] if seat == 0 else tokens["bob"]
    auth = {"Authorization": f"Bearer {token}"}
    legal = requests.get(f"{base}/games/{gid}/legal-moves", headers=auth, timeout=5).json()
    moved = requests.post(
        f"{base}/games/{gid}/moves", json=legal["moves"][0], headers=auth, timeout=5
    )
    assert moved.status_code == 200, moved.text
    wrong = requests.post(
        f"{base}/games/{gid}/moves",
        json=legal["moves"][0],
        headers={"Authorization": "Bearer made-up-token"},
        timeout=5,
    )
    assert wrong.status_code == 403
    return {**tokens, "game": gid}


def test_counts_add_up_across_two_workers(served: Served) -> None:
    assert requests.get(f"{served.base}/metrics", timeout=5).status_code == 401
    codes: list[int] = []
    deadline = time.monotonic() + 30
    # new connections, in batches until both workers have answered some (on a loaded
    # machine one worker may win every accept of a batch)
    while len(served.counting_pids()) < 2 and time.monotonic() < deadline:
        with ThreadPoolExecutor(8) as pool:
            codes += pool.map(
                lambda _: requests.get(f"{served.base}/healthz", timeout=5).status_code,
                range(40),
            )
    n = len(codes)
    assert codes == [200] * n
    assert len(served.counting_pids()) == 2, "both workers should have counted"
    games = [_play(served.base) for _ in range(3)]
    for _ in range(6):  # whichever worker answers, the totals are the same
        text = served.scrape()
        assert value(text, "boardgames_http_requests_total", route="/healthz", status="200") == n
        assert value(text, "boardgames_moves_applied_total", game="manhattan") == 3
        assert value(text, "boardgames_moves_rejected_total", code="invalid-token") == 3
        assert value(text, "boardgames_games_entered_total", status="running") == 3
        assert value(text, "boardgames_games", status="running") == 3
        count = value(
            text, "boardgames_http_request_duration_seconds_count", route="/games/<game_id>/moves"
        )
        assert count == 6

    # a worker killed: its counts stay, its replacement adds to them
    victim = served.worker_pids()[0]
    os.kill(victim, signal.SIGKILL)
    wait_until(
        lambda: victim not in served.worker_pids() and len(served.worker_pids()) == 2,
        20,
        "a replacement worker",
    )
    requests.get(f"{served.base}/healthz", timeout=5)
    text = served.scrape()
    assert value(text, "boardgames_http_requests_total", route="/healthz", status="200") == n + 1

    # every line the service wrote is JSON, and no token appears anywhere
    time.sleep(0.5)
    lines = [line for line in served.log.read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]
    requests_logged = [r for r in records if r.get("logger") == "boardgames.request"]
    assert len(requests_logged) >= n + 3 * 8
    moves = [r for r in requests_logged if r["route"] == "/games/<game_id>/moves"]
    assert {r["status"] for r in moves} == {200, 403}
    assert all(r["game_id"] and r["request_id"] for r in moves)
    assert all(r["seat"] in (0, 1) for r in moves if r["status"] == 200)
    assert all(r["code"] == "invalid-token" for r in moves if r["status"] == 403)
    assert all(isinstance(r["duration_ms"], float) for r in moves)
    starts = [r for r in requests_logged if r["route"] == "/games/<game_id>/start"]
    assert starts and all(r["seat"] == "host" for r in starts)
    text = served.log.read_text()
    for game in games:
        for who in ("host", "ann", "bob"):
            assert game[who] not in text
    assert METRICS_TOKEN not in text
    assert "Authorization" not in text


def test_request_id_round_trip_and_waiting_clients(served: Served) -> None:
    given = "client-chosen-id-42"
    resp = requests.get(f"{served.base}/games/nope1", headers={"X-Request-Id": given}, timeout=5)
    assert resp.status_code == 404
    assert resp.headers["X-Request-Id"] == given
    assert resp.json()["request_id"] == given
    bad = requests.get(f"{served.base}/games/nope1", headers={"X-Request-Id": "a b"}, timeout=5)
    assert bad.headers["X-Request-Id"] != "a b" and len(bad.headers["X-Request-Id"]) == 32
    assert bad.json()["request_id"] == bad.headers["X-Request-Id"]

    gid = requests.post(f"{served.base}/games", json={"players": 2}, timeout=5).json()["id"]
    url = f"{served.base}/games/{gid}/events?after=1&wait=4"
    with ThreadPoolExecutor(3) as pool:
        polls = [pool.submit(requests.get, url, timeout=10) for _ in range(3)]
        wait_until(
            lambda: value(served.scrape(), "boardgames_waiting_clients", kind="long-poll") == 3,
            5,
            "3 waiting clients counted",
        )
        assert all(p.result().status_code == 200 for p in polls)
    assert value(served.scrape(), "boardgames_waiting_clients", kind="long-poll") == 0
