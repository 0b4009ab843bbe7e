"""Raw HTTP/1.1 over a socket, for what no client library will send: oversized request
lines and headers, malformed framing, hand-written chunked bodies."""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


@dataclass
class RawResponse:
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    def json(self) -> Any:
        return json.loads(self.body)


def send(base: str, data: bytes, timeout: float = 5.0, half_close: bool = False) -> bytes:
    """Send ``data`` on a fresh connection and read until the server closes it (or goes
    quiet for ``timeout``); ``half_close``: then shut the sending side, as a client that
    stopped in the middle of its request.

    The reading starts at once, alongside the sending: a server that refuses a request
    before reading all of it answers and closes, and the unread rest makes its kernel
    reset the connection; an answer already read is kept, one still queued may not be.
    """
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as sock:

        def write() -> None:
            try:
                sock.sendall(data)
                if half_close:
                    sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass  # the server answered and closed before reading all of it

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        out = b""
        try:
            while chunk := sock.recv(65536):
                out += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        writer.join(timeout)
    return out


def parse_first(raw: bytes) -> RawResponse:
    """The first response in ``raw`` (its body by Content-Length)."""
    head, sep, rest = raw.partition(b"\r\n\r\n")
    assert sep, f"no complete response head in {raw[:200]!r}"
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", len(rest)))
    return RawResponse(status, headers, rest[:length])


def request(base: str, data: bytes, timeout: float = 5.0, half_close: bool = False) -> RawResponse:
    return parse_first(send(base, data, timeout, half_close))


def chunked_post(path: str, chunks: list[bytes], close: bool = True) -> bytes:
    """A POST of ``chunks`` with ``Transfer-Encoding: chunked`` (each framed correctly)."""
    body = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"
    return head("POST", path, {"Transfer-Encoding": "chunked"}, close) + body


def head(
    method: str, path: str, headers: dict[str, str] | None = None, close: bool = True
) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: test", "Content-Type: application/json"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
