"""Analysis after the game with real processes (issue 42): gunicorn, worker processes
(``python -m shared.worker``) and a webhook receiver. A worker SIGKILLed in the middle
of an analysis leaves its claim to expire; two other workers then finish it, once: one
stored analysis, one ``analysis_ready`` event, one ``analysis.ready`` webhook."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import requests

from tests.conftest import connect, wait_until
from tests.webhooks.conftest import WORKER_ENV, Receiver

OFF = {**WORKER_ENV, "WORKER_ANALYSIS": "false"}
ON = {**WORKER_ENV, "WORKER_ANALYSIS": "true", "ANALYSIS_LEASE_SECONDS": "2"}


def children(pid: int) -> set[int]:
    """The worker's child processes (its analysis and bot pools), from /proc."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text() if (task / "children").exists() else ""
        found |= {int(p) for p in text.split()}
    return found


def bots_game(base: str, hook: str) -> str:
    r = requests.post(
        f"{base}/games",
        json={"players": 2, "webhook": {"url": hook, "events": ["analysis.ready"]}},
        timeout=10,
    )
    game_id, host = r.json()["id"], r.json()["host_token"]
    for _ in range(2):
        seated = requests.post(
            f"{base}/games/{game_id}/players",
            json={"bot": "greedy"},
            headers={"Authorization": f"Bearer {host}"},
            timeout=10,
        )
        assert seated.status_code == 201, seated.text
    r = requests.post(
        f"{base}/games/{game_id}/start", headers={"Authorization": f"Bearer {host}"}, timeout=10
    )
    assert r.status_code == 200, r.text
    return game_id


def test_a_killed_workers_analysis_is_finished_once_by_another(
    hooked_manhattan: str, receiver: Receiver, workers, redis_url: str
) -> None:
    base = hooked_manhattan
    receiver.start()
    store = connect(redis_url)
    games = [bots_game(base, receiver.url(f"/g{i}")) for i in range(2)]
    player = workers.start(**OFF)  # plays the bots' games, analyses nothing

    def over() -> bool:
        return all(
            requests.get(f"{base}/games/{g}", timeout=10).json()["status"] == "finished"
            for g in games
        )

    wait_until(over, 60, "both games finished")
    player.stop()
    first = games[0]
    assert requests.get(f"{base}/games/{first}/analysis", timeout=10).status_code == 202
    claim = f"mh:{{{first}}}:analysis:claim"
    victim = workers.start(**ON)
    wait_until(lambda: store.get(claim) is not None, 30, "a claim on the first game")
    token = store.get(claim)
    pool = children(victim.proc.pid)
    victim.kill()  # mid-analysis: its claim stays until its lease ends
    for pid in pool:  # (an orphaned pool process would only waste CPU)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert store.get(f"mh:{{{first}}}:analysis") is None
    assert store.get(claim) == token
    workers.start(**ON)
    workers.start(**ON)

    def analysed() -> bool:
        return all(
            requests.get(f"{base}/games/{g}/analysis", timeout=10).status_code == 200 for g in games
        )

    wait_until(analysed, 120, "both analyses")
    time.sleep(2.0)  # time for any second webhook to arrive
    for i, game_id in enumerate(games):
        log = requests.get(f"{base}/games/{game_id}/log", timeout=10).json()
        assert [e["type"] for e in log["events"]].count("analysis_ready") == 1
        assert [b["type"] for b in receiver.bodies(f"/g{i}")] == ["analysis.ready"]
        body = requests.get(f"{base}/games/{game_id}/analysis", timeout=10).json()
        assert len(body["chances"]) == body["moves"] + 1
    assert not store.zrange("mh:analysis:todo", 0, -1)
