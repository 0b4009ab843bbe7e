"""Real pieces for the webhook proofs: services with webhooks on, a receiver on
127.0.0.1 that records every delivery, and worker processes (tests/worker/conftest.py).

- ``hooked_manhattan`` (session): base URL of Manhattan under gunicorn with
  ``WEBHOOK_SIGNING_KEY`` set and ``WEBHOOK_ALLOW_PRIVATE=1`` (the receiver is local).
- ``receiver``: a :class:`Receiver` (stopped and started again on the same port at will).
- ``workers``: as in tests/worker; start them with :data:`WORKER_ENV`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.conftest import free_port, serve
from tests.worker.conftest import workers  # noqa: F401  (the fixture)

KEY = "test-signing-key"
SERVICE_ENV = {
    "WEBHOOK_SIGNING_KEY": KEY,
    "WEBHOOK_ALLOW_PRIVATE": "1",
    "CLOCK_MIN_TURN_SECONDS": "1",
    # tests queue many webhook.test notifications (the default limit: test_limits.py)
    "RATE_LIMIT_WEBHOOK_TESTS": "1000/minute",
}
WORKER_ENV = {
    **SERVICE_ENV,
    "WEBHOOK_BACKOFF_BASE_SECONDS": "0.2",
    "WEBHOOK_BACKOFF_MAX_SECONDS": "1",
    "WEBHOOK_CLAIM_IDLE_SECONDS": "0.5",
    "WEBHOOK_TIMEOUT_SECONDS": "1",
}


@pytest.fixture(scope="session")
def hooked_manhattan(redis_url: str) -> Iterator[str]:
    yield from serve("manhattan", redis_url, env_extra=SERVICE_ENV)


class Receiver:
    """An HTTP server recording ``{path, headers, body, at}`` of every POST. ``hang``:
    seconds to hold the first request of each webhook-id before answering; ``delay``:
    seconds to hold every request (a slow receiver that does answer)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.requests: list[dict[str, Any]] = []
        self.hang = 0.0
        self.delay = 0.0
        self.arrived = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._lock = threading.Lock()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self) -> None:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
                with outer._lock:
                    first = all(
                        r["headers"].get("webhook-id") != self.headers.get("webhook-id")
                        for r in outer.requests
                    )
                    outer.requests.append(
                        {
                            "path": self.path,
                            "headers": {k.lower(): v for k, v in self.headers.items()},
                            "body": body,
                            "at": time.monotonic(),
                        }
                    )
                outer.arrived.set()
                if first and outer.hang:
                    time.sleep(outer.hang)
                time.sleep(outer.delay)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def bodies(self, path: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            return [
                {**json.loads(r["body"]), "_id": r["headers"]["webhook-id"]}
                for r in self.requests
                if path is None or r["path"] == path
            ]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    rec = Receiver()
    yield rec
    rec.stop()


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "appendfsync(mode): the own_redis fsync policy")
