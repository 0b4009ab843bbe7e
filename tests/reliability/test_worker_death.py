"""A gunicorn worker SIGKILLed while moves are in flight: no half-applied move, no lost
acknowledged move, every game consistent. Clients retry with the same Idempotency-Key."""

from __future__ import annotations

import os
import random
import signal
import threading
import time

import requests

from services.manhattan import rules as manhattan_rules
from tests.conftest import connect
from tests.reliability.conftest import Service, assert_consistent, stored, wait_until
from tests.reliability.player import (
    TRANSPORT_ERRORS,
    new_game,
    next_move,
    send_until_answered,
)


def test_worker_sigkill_during_moves(redis_url: str) -> None:
    service = Service("manhattan", redis_url, workers=2)
    try:
        base = service.base
        games = [new_game(requests.Session(), base) for _ in range(8)]
        stop = threading.Event()
        errors: list[BaseException] = []
        retried = [0]

        def client(game, seed: int) -> None:
            session, rng = requests.Session(), random.Random(seed)
            try:
                while not stop.is_set():
                    try:
                        found = next_move(session, base, game, rng)
                    except TRANSPORT_ERRORS:
                        retried[0] += 1
                        continue
                    if found is None:
                        return
                    r = send_until_answered(
                        session, base, game, found[0], found[1], time.monotonic() + 30
                    )
                    assert r.status_code == 200, r.text
            except BaseException as error:  # reported below
                errors.append(error)

        threads = [threading.Thread(target=client, args=(g, i)) for i, g in enumerate(games)]
        for thread in threads:
            thread.start()
        killed = []
        for _ in range(3):
            time.sleep(1.0)
            victim = sorted(service.worker_pids())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

            def replaced(gone: int = victim) -> bool:
                return len(service.worker_pids() - {gone}) == 2

            wait_until(replaced, 20, "a replacement worker")
        time.sleep(1.0)
        stop.set()
        for thread in threads:
            thread.join(60)
        assert not errors, errors
        assert not set(killed) & service.worker_pids()
        assert service.proc.poll() is None

        store = connect(redis_url)
        total = 0
        for game in games:
            doc = assert_consistent(store, "mh", manhattan_rules.ENGINE, game.id)
            _, moves, _ = stored(store, "mh", game.id)
            # every acknowledged move is there, once: acks (one per key) = the moves list
            assert [(a["version"], a["move"]) for a in game.acked] == [
                (m["version"], m["move"]) for m in moves
            ]
            assert doc["version"] == (moves[-1]["version"] if moves else doc["version"])
            total += len(moves)
        assert total >= 40, total  # moves really were in flight around the kills
    finally:
        service.stop()
