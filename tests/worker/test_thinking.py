"""Search bots think in the worker's pool of processes (shared/worker/thinking.py), so a
decision never runs on the worker's own thread, and the worker's ticks never wait for it."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from shared.games import seats
from shared.usecases.autoplay import Thinking
from shared.worker import thinking
from shared.worker.loop import Worker
from tests.kit.helpers import auth, create, started_game, view


def test_a_search_bot_moves_from_the_pool_and_the_loop_goes_on(make_app, monkeypatch):
    app = make_app("manhattan")
    client = app.test_client()
    kit = app.extensions["game_kit"].games
    game_id, host = create(client, players=2, seed=5)
    client.post(f"/games/{game_id}/players", json={"bot": "medium"}, headers=auth(host))
    client.post(f"/games/{game_id}/players", json={"bot": "greedy"}, headers=auth(host))
    assert client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    here = os.getpid()
    worker = Worker([kit], {**app.config, "WORKER_BOT_PROCESSES": 1})
    try:
        version = client.get(f"/games/{game_id}").get_json()["version"]
        deadline = time.monotonic() + 60
        while client.get(f"/games/{game_id}").get_json()["version"] < version + 6:
            assert time.monotonic() < deadline, "the bots did not move"
            worker.tick()
        assert worker.moves >= 6
        # the pool's processes start with its first decision: the medium bot's
        assert worker.thinker.pool is not None
        pids = {p.pid for p in worker.thinker.pool._processes.values()}  # noqa: SLF001
        assert pids and here not in pids
    finally:
        worker.thinker.close()


def test_the_tick_never_waits_for_the_pool_and_a_thinking_game_stays_claimed(make_app, monkeypatch):
    """While a search bot's decision is slow, the worker's next ticks play another
    game's timeout, and the thinking game's claim is renewed past its lease (another
    worker copy would otherwise claim it and ask for the same decision again); once
    the decision is made, the move lands, decided once; the game, due again at once by
    that move, is claimed again while its next bot thinks."""
    app = make_app("manhattan", CLOCK_MIN_TURN_SECONDS=1)
    client = app.test_client()
    kit = app.extensions["game_kit"].games
    gates, asked = [threading.Event(), threading.Event()], []
    made = thinking._decide  # noqa: SLF001

    def slow(game: str, state: Any, seat: int, level: str, seed: int) -> Any:
        asked.append(level)
        assert gates[min(len(asked), 2) - 1].wait(30)
        return made(game, state, seat, "greedy", seed)

    monkeypatch.setattr(thinking, "_decide", slow)
    bots_game, host = create(client, players=2, seed=5)
    for level in ("strong", "strong"):
        client.post(f"/games/{bots_game}/players", json={"bot": level}, headers=auth(host))
    assert client.post(f"/games/{bots_game}/start", headers=auth(host)).status_code == 200
    clocked = started_game(client, 2, clock={"turn_seconds": 1}, takeover="greedy")[0]
    worker = Worker([kit], {**app.config, "WORKER_BOT_PROCESSES": 1, "WORKER_LEASE_SECONDS": 1})
    pool: Any = ThreadPoolExecutor(1)  # (a thread sees the patched _decide)
    worker.thinker.pool = pool
    try:
        version = view(client, bots_game)["version"]
        worker.tick()
        assert (0, bots_game) in worker.thinking and asked == ["strong"]
        clocked_version = view(client, clocked)["version"]
        deadline = time.monotonic() + 20
        while view(client, clocked)["version"] == clocked_version:  # its seat times out
            assert time.monotonic() < deadline, "the timeout waited for the thinking bot"
            worker.tick()
            time.sleep(0.05)
        time.sleep(1.2)  # past the first lease
        worker.tick()  # renews the claim
        other = kit.store.claim_all_due(seats.now_ms(), 1000, 100, 100)
        assert bots_game not in {c.game_id for c in other}, "claimed while its bot thinks"
        assert view(client, bots_game)["version"] == version and asked == ["strong"]
        gates[0].set()
        while view(client, bots_game)["version"] == version:
            assert time.monotonic() < deadline + 20, "the decision never landed"
            worker.tick()
            time.sleep(0.02)
        while len(asked) < 2:  # the next seat's decision, asked by the same worker
            assert time.monotonic() < deadline + 30
            worker.tick()
        other = kit.store.claim_all_due(seats.now_ms(), 1000, 100, 100)
        assert bots_game not in {c.game_id for c in other}, "claimed while its bot thinks"
    finally:
        for gate in gates:
            gate.set()
        worker.thinker.pool.shutdown(wait=True)


def test_decisions_go_to_the_pool_each_client_in_turn(monkeypatch):
    """A client that asked for ten decisions first waits: another client's decision is
    made right after the one in the pool, not after the ten."""
    order: list[str] = []
    gate = threading.Event()

    def recorded(game: str, state: Any, seat: int, level: str, seed: int) -> Any:
        order.append(state)
        assert gate.wait(10)
        return {"type": "noop"}

    monkeypatch.setattr(thinking, "_decide", recorded)
    thinker: Any = thinking.Thinker(1)
    thinker.pool.shutdown()
    thinker.pool = ThreadPoolExecutor(1)
    engine: Any = type("E", (), {"NAME": "toy"})
    try:
        thinker.client = "flood"
        for n in range(10):
            with pytest.raises(Thinking):
                thinker(engine, f"flood {n}", 0, "strong", 1, (f"f{n}", 1, 0))
        thinker.client = "other"
        with pytest.raises(Thinking):
            thinker(engine, "other", 0, "strong", 1, ("o", 1, 0))
        assert not thinker.ready(("o", 1, 0))
        gate.set()
        deadline = time.monotonic() + 10
        while not all(thinker.ready((f"f{n}", 1, 0)) for n in range(10)):
            assert time.monotonic() < deadline
            thinker.wait(0.1)
        assert order[:3] == ["flood 0", "other", "flood 1"]
        assert thinker(engine, "other", 0, "strong", 1, ("o", 1, 0)) == {"type": "noop"}
    finally:
        gate.set()
        thinker.pool.shutdown(wait=True)
