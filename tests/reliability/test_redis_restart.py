"""Redis killed and restarted under live gunicorn-served games (their own Redis).

While Redis is down every request that needs it gets 503 problem+json with Retry-After
and /readyz says not ready (/healthz stays up); once it is back the same processes
carry on from exactly the last acknowledged move. With ``appendfsync always`` a
SIGKILL right after acknowledged moves loses none of them.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest
import requests

from services.manhattan import rules as manhattan_rules
from tests.reliability.conftest import RedisServer, Service, assert_consistent, stored, wait_until
from tests.reliability.player import PROBLEM, bearer, new_game, next_move, send_until_answered


@pytest.fixture
def service(own_redis: RedisServer) -> Iterator[Service]:
    svc = Service("manhattan", own_redis.url, workers=2)
    try:
        yield svc
    finally:
        svc.stop()


def _play(session: requests.Session, base: str, game, count: int, rng: random.Random) -> None:
    for _ in range(count):
        found = next_move(session, base, game, rng)
        assert found is not None
        seat, move = found
        r = send_until_answered(session, base, game, seat, move, time.monotonic() + 20)
        assert r.status_code == 200, r.text


def _assert_unavailable(response: requests.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["Content-Type"].startswith(PROBLEM)
    assert response.json()["code"] == "storage-unavailable"
    assert int(response.headers["Retry-After"]) >= 1


@pytest.mark.appendfsync("always")
def test_redis_restart_mid_game(own_redis: RedisServer, service: Service) -> None:
    base, rng = service.base, random.Random(7)
    session = requests.Session()
    game = new_game(session, base)
    _play(session, base, game, 10, rng)
    last = game.acked[-1]["version"]
    processes = (service.proc.pid, service.worker_pids())

    own_redis.kill()
    for _ in range(4):  # both workers answer
        _assert_unavailable(session.get(f"{base}/games/{game.id}", timeout=10))
        r = session.post(
            f"{base}/games/{game.id}/moves",
            json={"type": "discard", "lot": 1},
            headers={**bearer(game.tokens[0]), "Idempotency-Key": "while-down"},
            timeout=10,
        )
        _assert_unavailable(r)
        _assert_unavailable(session.get(f"{base}/readyz", timeout=10))
        assert session.get(f"{base}/healthz", timeout=10).status_code == 200

    own_redis.start()  # same port, same append-only file
    wait_until(
        lambda: all(session.get(f"{base}/readyz", timeout=5).status_code == 200 for _ in range(4)),
        15,
        "ready again",
    )
    view = session.get(f"{base}/games/{game.id}", timeout=10).json()
    assert view["version"] == last
    _, moves, _ = stored(own_redis.client(), "mh", game.id)
    assert [(m["version"], m["move"]) for m in moves] == [
        (a["version"], a["move"]) for a in game.acked
    ]
    _play(session, base, game, 10, rng)
    assert [a["version"] for a in game.acked] == list(range(last - 9, last + 11))
    assert (service.proc.pid, service.worker_pids()) == processes  # nothing restarted
    assert_consistent(own_redis.client(), "mh", manhattan_rules.ENGINE, game.id)


@pytest.mark.appendfsync("always")
def test_no_acknowledged_move_lost_on_sigkill(own_redis: RedisServer, service: Service) -> None:
    """Clients move as fast as they can in 6 games; Redis gets SIGKILL mid-stream.
    Every move that was answered 200 is in the restarted Redis, at its version."""
    base = service.base
    games = [new_game(requests.Session(), base) for _ in range(6)]
    stop = threading.Event()
    errors: list[BaseException] = []

    def client(game, seed: int) -> None:
        session, rng = requests.Session(), random.Random(seed)
        try:
            while not stop.is_set():
                try:
                    found = next_move(session, base, game, rng)
                    if found is None:
                        return
                    r = session.post(
                        f"{base}/games/{game.id}/moves",
                        json=found[1],
                        headers=bearer(game.tokens[found[0]]),
                        timeout=10,
                    )
                except (requests.ConnectionError, requests.HTTPError):
                    return  # Redis is gone (a 503 on the read)
                if r.status_code != 200:
                    _assert_unavailable(r)
                    return
                game.acked.append({"version": r.json()["game"]["version"], "move": found[1]})
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=client, args=(g, i)) for i, g in enumerate(games)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    own_redis.kill()
    stop.set()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    assert sum(len(g.acked) for g in games) >= 12  # the kill hit a busy store

    own_redis.start()
    store = own_redis.client()
    for game in games:
        doc, moves, _ = stored(store, "mh", game.id)
        by_version = {m["version"]: m["move"] for m in moves}
        for ack in game.acked:
            assert by_version.get(ack["version"]) == ack["move"], ack
        assert doc["version"] >= game.acked[-1]["version"]
        assert_consistent(store, "mh", manhattan_rules.ENGINE, game.id)
