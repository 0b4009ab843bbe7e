"""``clock_low`` (shared/push/clock.py): the move schedules the game at the moment a
player's seat has a share of its turn left; the worker's own tick finds it then, writes
the reminder once, and the push goes through quiet hours when the deadline falls
before they end."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from flask import Flask

from bench.pushservice import PushService
from shared.ops.config import load_settings
from shared.worker.loop import Worker
from tests.push.conftest import PUBLIC, PUSH, auth, deliver, game, player, subscribe
from tests.worker.helpers import wait_for

CLOCK = {**PUSH, "CLOCK_MIN_TURN_SECONDS": 1, "PUSH_CLOCK_LOW_SHARE": 0.5}


def _worker(app: Flask) -> Worker:
    settings = load_settings({**CLOCK, "REDIS_URL": app.config["REDIS_URL"]})
    settings["WORKER_BOT_PROCESSES"] = 0
    return Worker([app.extensions["game_kit"].games], settings)


def _tick_until(worker: Worker, check, timeout: float, what: str) -> None:
    def ticked() -> bool:
        worker.tick()
        return bool(check())

    wait_for(ticked, timeout, what)


def test_a_low_clock_reminds_once_even_in_quiet_hours(make_app, redis_client) -> None:
    app = make_app("toy", **CLOCK)
    client = app.test_client()

    service = PushService(PUBLIC)
    service.start()
    try:
        keys = [player(client, name)[1] for name in ("Ann", "Bob")]
        here = datetime.now(UTC)
        quiet = {
            "start": (here - timedelta(hours=1)).strftime("%H:%M"),
            "end": (here + timedelta(hours=1)).strftime("%H:%M"),
        }
        for n, key in enumerate(keys):
            subscribe(client, key, service.subscribe(f"p{n}"))
            body = {"quiet_hours": quiet, "language": "ja"}
            assert client.patch("/players/me/push", json=body, headers=auth(key)).status_code == 200
        started = time.monotonic()
        game_id, (seat,) = game(client, *keys, clock={"turn_seconds": 4})
        worker = _worker(app)
        worker.tick()
        deliver(app, **CLOCK)
        assert not service.received, "the turn itself is held back by the quiet hours"
        outbox = f"toy:{{{game_id}}}:outbox"
        _tick_until(
            worker,
            lambda: any(b"clock_low" in str(f).encode() for _, f in redis_client.xrange(outbox)),
            6,
            "the clock_low written",
        )
        assert time.monotonic() - started >= 1.9, "not before half the turn is gone"
        deliver(app, **CLOCK)
        shown = service.shown(f"p{seat}")
        assert [p["type"] for p in shown] == ["clock_low"], service.refused
        assert shown[0]["title"] == "持ち時間が残りわずかです" and shown[0]["seat"] == seat
        assert shown[0]["deadline"] and shown[0]["url"] == f"/play?game={game_id}"
        assert not service.shown(f"p{1 - seat}")
        for _ in range(5):
            worker.tick()
        lows = [f for _, f in redis_client.xrange(outbox) if "clock_low" in str(f)]
        assert len(lows) == 1
        worker.deliverer.close()
    finally:
        service.stop()
