"""What only a real gunicorn (gevent workers) shows, over raw sockets: its own refusals
before Flask runs are problem+json, chunked bodies are bounded and checked, and an
answer leaves in one send."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import pytest

from tests.kit.helpers import PROBLEM
from tests.rawhttp import chunked_post, head, parse_first, request


def _problem(response, status: int, code: str) -> dict:
    assert response.status == status, (response.status, response.body[:300])
    assert response.headers["content-type"].startswith(PROBLEM), response.headers
    assert response.headers["x-content-type-options"] == "nosniff"
    body = response.json()
    assert body["status"] == status and body["code"] == code, body
    assert {"type", "title", "detail"} <= set(body)
    assert b"<html" not in response.body.lower() and b"Traceback" not in response.body
    return body


def test_request_line_too_long_is_414_problem(live_manhattan: str) -> None:
    r = request(live_manhattan, head("GET", "/games?x=" + "a" * 9000))
    body = _problem(r, 414, "request-line-too-long")
    assert "aaaa" not in body["detail"]  # nothing of the request is echoed


@pytest.mark.parametrize(
    "headers",
    [{"X-Big": "a" * 9000}, {f"X-{i}": "a" for i in range(150)}],
    ids=["one-huge-header", "too-many-headers"],
)
def test_headers_too_large_are_431_problem(live_manhattan: str, headers: dict) -> None:
    _problem(request(live_manhattan, head("GET", "/games", headers)), 431, "headers-too-large")


@pytest.mark.parametrize(
    "raw",
    [
        b"GARBAGE\r\n\r\n",
        b"GET /games HTTP/9.9\r\nHost: x\r\n\r\n",
        b"GET /games HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n",
        b"GET /games HTTP/1.1\r\nHost: x\r\nX: a\r\n folded\r\n\r\n",
        b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}",
        b"G\x00T /games HTTP/1.1\r\nHost: x\r\n\r\n",
    ],
    ids=["garbage", "version", "header-name", "folding", "two-lengths", "nul"],
)
def test_malformed_requests_are_400_problem(live_manhattan: str, raw: bytes) -> None:
    _problem(request(live_manhattan, raw), 400, "malformed-request")


@pytest.mark.parametrize("size", [b"zz", b"-1", b"0x2", b"", b"2;\x00"])
def test_a_malformed_chunk_size_is_400_problem(live_manhattan: str, size: bytes) -> None:
    raw = head("POST", "/games", {"Transfer-Encoding": "chunked"}) + size + b"\r\n{}\r\n0\r\n\r\n"
    _problem(request(live_manhattan, raw), 400, "malformed-request")


def test_a_truncated_chunked_body_is_400_problem(live_manhattan: str) -> None:
    """The client stops sending (half-closes) in the middle of a chunk."""
    raw = head("POST", "/games", {"Transfer-Encoding": "chunked"}) + b"10\r\n{}"
    _problem(request(live_manhattan, raw, half_close=True), 400, "malformed-request")


def test_a_chunked_body_over_the_limit_is_413(live_manhattan: str) -> None:
    big = b"{" + b" " * 70_000 + b"}"  # MAX_CONTENT_LENGTH is 64 KiB
    chunks = [big[i : i + 8192] for i in range(0, len(big), 8192)]
    _problem(request(live_manhattan, chunked_post("/games", chunks)), 413, "payload-too-large")
    exact = b'{"players": 2' + b" " * (65536 - 14) + b"}"
    assert len(exact) == 65536
    chunks = [exact[i : i + 4096] for i in range(0, len(exact), 4096)]
    r = request(live_manhattan, chunked_post("/games", chunks))
    assert r.status == 201, r.body[:300]  # exactly the limit is fine


def test_chunked_bodies_still_work_and_are_strict(live_manhattan: str) -> None:
    r = request(live_manhattan, chunked_post("/games", [b'{"play', b'ers": 2}']))
    assert r.status == 201 and r.json()["game"]["options"]["players"] == 2
    r = request(live_manhattan, chunked_post("/games", [b"[" * 30_000]))
    _problem(r, 400, "invalid-json")
    r = request(live_manhattan, chunked_post("/games", [b'{"players": 2, "players": 3}']))
    _problem(r, 400, "invalid-json")


def test_plain_options_and_nosniff_through_gunicorn(live_manhattan: str) -> None:
    r = request(live_manhattan, head("OPTIONS", "/games"))
    assert r.status == 204 and r.body == b""
    assert {"GET", "POST"} <= {m.strip() for m in r.headers["allow"].split(",")}
    assert r.headers["x-content-type-options"] == "nosniff"
    r = request(live_manhattan, head("GET", "/games/" + "9" * 16 + "/events?after=" + str(2**64)))
    _problem(r, 422, "validation-error")


def _read_answer(sock: socket.socket) -> bytes:
    """One whole answer off a keep-alive connection: its head, then its body."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    length = int(parse_first(data).headers.get("content-length", "0") or 0)
    while len(data.split(b"\r\n\r\n", 1)[1]) < length:
        data += sock.recv(65536)
    return data


def test_keep_alive_answers_and_head_on_one_connection(live_manhattan: str) -> None:
    """The same keep-alive connection serves answers whole (head and body), a HEAD gets
    the head alone, and the next request is still served."""
    parts = urlsplit(live_manhattan)
    with socket.create_connection((parts.hostname, parts.port), timeout=5) as sock:
        for n in range(20):
            sock.sendall(head("GET", "/games?limit=1", close=False))
            answer = parse_first(_read_answer(sock))
            assert answer.status == 200 and answer.headers["connection"] == "keep-alive"
            assert len(answer.body) == int(answer.headers["content-length"]) > 0, n
        sock.sendall(head("HEAD", "/games?limit=1", close=False))
        raw = sock.recv(65536)
        assert raw.startswith(b"HTTP/1.1 200") and raw.endswith(b"\r\n\r\n")
        sock.sendall(head("GET", "/healthz"))
        assert parse_first(sock.recv(65536)).status == 200


@pytest.mark.parametrize(
    ("codings", "status", "code"),
    [
        ("gzip, chunked", 501, "not-implemented"),  # gunicorn takes it: the app refuses
        ("deflate, chunked", 501, "not-implemented"),
        ("deflate", 400, "malformed-request"),  # gunicorn refuses these itself
        ("chunked, chunked", 400, "malformed-request"),
    ],
)
def test_transfer_codings_other_than_chunked_are_refused(
    live_manhattan: str, codings: str, status: int, code: str
) -> None:
    """The body is never decompressed nor read: a coding other than plain chunked is
    refused, by the app (501) or by gunicorn (400), and nothing is created."""
    body = b'e\r\n{"players": 2}\r\n0\r\n\r\n'
    raw = head("POST", "/games", {"Transfer-Encoding": codings}) + body
    _problem(request(live_manhattan, raw), status, code)
    fine = request(live_manhattan, chunked_post("/games", [b'{"players": 2}']))
    assert fine.status == 201


@pytest.mark.parametrize("path", ["/play//etc/passwd", "/games//x", "/games//", "/games//x/moves"])
def test_doubled_slashes_are_a_404_problem_not_a_redirect(live_manhattan: str, path: str) -> None:
    r = request(live_manhattan, head("GET", path))
    _problem(r, 404, "not-found")
    assert "location" not in r.headers
