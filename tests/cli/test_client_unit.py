"""Client behaviour against a scripted local HTTP server: error mapping and safe retries."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from clients.cli import errors
from clients.cli.client import GameClient


class Script:
    """Answers to send, in order, and the requests received."""

    def __init__(self) -> None:
        self.answers: list[tuple[int, dict, dict]] = []
        self.requests: list[dict] = []


@pytest.fixture
def stub() -> Iterator[tuple[str, Script]]:
    script = Script()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a) -> None:
            pass

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            script.requests.append(
                {
                    "method": self.command,
                    "path": self.path,
                    "headers": dict(self.headers),
                    "body": json.loads(body) if body else None,
                }
            )
            status, headers, payload = script.answers.pop(0)
            data = json.dumps(payload).encode()
            self.send_response(status)
            ctype = "application/problem+json" if status >= 400 else "application/json"
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_DELETE = _answer

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", script
    server.shutdown()


def problem(status: int, code: str) -> tuple[int, dict, dict]:
    return (
        status,
        {},
        {
            "type": "about:blank",
            "title": "t",
            "status": status,
            "detail": f"because {code}",
            "code": code,
        },
    )


@pytest.mark.parametrize(
    "status,cls",
    [
        (400, errors.BadRequest),
        (401, errors.Unauthorized),
        (403, errors.Forbidden),
        (404, errors.NotFound),
        (409, errors.Conflict),
        (412, errors.PreconditionFailed),
        (422, errors.UnprocessableEntity),
        (429, errors.RateLimited),
        (500, errors.ServerError),
    ],
)
def test_problem_becomes_typed_exception(stub, status: int, cls: type) -> None:
    url, script = stub
    script.answers.append(problem(status, f"code-{status}"))
    with pytest.raises(cls) as info:
        GameClient(url, token="t").view("g1")
    assert isinstance(info.value, errors.ApiError)
    assert info.value.status == status
    assert info.value.code == f"code-{status}"
    assert info.value.detail == f"because code-{status}"


def test_move_retries_503_with_the_same_idempotency_key(stub) -> None:
    url, script = stub
    script.answers += [
        (503, {"Retry-After": "0"}, {"status": 503, "code": "redis-unavailable"}),
        (503, {"Retry-After": "0"}, {"status": 503, "code": "redis-unavailable"}),
        (200, {}, {"game": {"version": 3}, "events": []}),
    ]
    client = GameClient(url, token="tok", backoff=0.01)
    answer = client.move("g1", {"type": "x"}, if_match=2)
    assert answer["game"]["version"] == 3
    keys = [r["headers"]["Idempotency-Key"] for r in script.requests]
    assert len(keys) == 3 and len(set(keys)) == 1
    assert all(r["headers"]["If-Match"] == '"2"' for r in script.requests)
    assert all(r["headers"]["Authorization"] == "Bearer tok" for r in script.requests)


def test_retries_are_bounded(stub) -> None:
    url, script = stub
    script.answers += [(503, {"Retry-After": "0"}, {"code": "busy"})] * 3
    client = GameClient(url, token="tok", max_retries=2, backoff=0.01)
    with pytest.raises(errors.ServiceUnavailable):
        client.move("g1", {"type": "x"})
    assert len(script.requests) == 3


def test_non_retryable_errors_are_not_retried(stub) -> None:
    url, script = stub
    script.answers.append(problem(409, "not-your-turn"))
    with pytest.raises(errors.Conflict):
        GameClient(url, token="tok").move("g1", {"type": "x"})
    assert len(script.requests) == 1


def test_new_moves_get_new_keys(stub) -> None:
    url, script = stub
    script.answers += [(200, {}, {"game": {}, "events": []})] * 2
    client = GameClient(url, token="tok")
    client.move("g1", {"type": "x"})
    client.move("g1", {"type": "x"})
    k1, k2 = (r["headers"]["Idempotency-Key"] for r in script.requests)
    assert k1 != k2


def test_unreachable_service_is_a_transport_error() -> None:
    client = GameClient("http://127.0.0.1:9", max_retries=1, backoff=0.01)
    with pytest.raises(errors.TransportError):
        client.view("g1")
