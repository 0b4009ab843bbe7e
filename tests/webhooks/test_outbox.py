"""The transactional outbox: no committed write lacks its notification and no refused
one has any, under racing clients and with Redis SIGKILLed mid-game."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
import requests

from shared.games import history
from shared.store import load_doc
from tests.reliability.conftest import RedisServer, Service, own_redis  # noqa: F401
from tests.reliability.player import bearer, next_move
from tests.webhooks.conftest import SERVICE_ENV
from tests.webhooks.test_delivery import _game


class _NoReceiver:
    def url(self, path: str) -> str:
        return f"http://127.0.0.1:9999{path}"  # never called: no worker runs here


def _check(client, game_id: str) -> int:
    """Every version with a move has the game registration's turn or over notification,
    none is of a version never committed, and no version has two turns; the moves seen."""
    doc = load_doc(client.get(f"mh:{{{game_id}}}:game"))
    base = f"mh:{{{game_id}}}"
    moves = history.all_moves(
        history.stored(client.get(f"{base}:tail"), client.get(f"{base}:hist"))
    )
    notes = [json.loads(f["n"]) for _, f in client.xrange(f"mh:{{{game_id}}}:outbox")]
    game_reg = doc["webhooks"][0]["id"]
    mine = [n for n in notes if n["reg"] == game_reg]
    turns = [n["data"]["version"] for n in mine if n["type"] in ("game.turn", "game.over")]
    assert len(turns) == len(set(turns)) or doc["status"] == "finished"
    assert all(n["data"]["version"] <= doc["version"] for n in notes)
    for move in moves:
        assert move["version"] in turns, (move, turns)
    assert set(turns) - {m["version"] for m in moves} <= {min(turns)}  # the start's turn
    return len(moves)


@pytest.mark.appendfsync("always")
def test_outbox_survives_races_and_a_redis_kill(own_redis: RedisServer) -> None:  # noqa: F811
    service = Service("manhattan", own_redis.url, workers=2, **SERVICE_ENV)
    try:
        base = service.base
        games = [_game(base, _NoReceiver(), seat_hooks=2) for _ in range(4)]  # type: ignore[arg-type]  # a stand-in: no worker calls it
        stop = threading.Event()
        rejected = [0]

        def racer(game: dict, seed: int) -> None:
            """Two racers per game post the same seat's moves: one of each pair loses."""
            session, rng = requests.Session(), random.Random(seed)
            holder = type("G", (), {"id": game["id"], "tokens": game["tokens"]})
            while not stop.is_set():
                try:
                    found = next_move(session, base, holder, rng)  # type: ignore[arg-type]  # duck-typed Game
                    if found is None:
                        return
                    r = session.post(
                        f"{base}/games/{game['id']}/moves",
                        json=found[1],
                        headers=bearer(game["tokens"][found[0]]),
                        timeout=10,
                    )
                except requests.RequestException:
                    return
                if r.status_code in (409, 422):
                    rejected[0] += 1
                elif r.status_code != 200:
                    return  # Redis is gone

        threads = [
            threading.Thread(target=racer, args=(g, i * 2 + k))
            for i, g in enumerate(games)
            for k in range(2)
        ]
        for thread in threads:
            thread.start()
        time.sleep(2.0)
        own_redis.kill()
        stop.set()
        for thread in threads:
            thread.join(30)
        own_redis.start()
        client = own_redis.client()
        played = sum(_check(client, g["id"]) for g in games)
        assert played >= 8 and rejected[0] >= 1, (played, rejected)
    finally:
        service.stop()
