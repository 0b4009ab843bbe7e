"""bench.loadgen, the client side: one keep-alive HTTP/1.1 connection over a raw socket
(:class:`Conn`), one game played by bots through it (:class:`Game`), latency summaries.

Imported by ``bench/loadgen.py`` after gevent's ``monkey.patch_all()`` (its sockets are
gevent's); ``bench.loadgen`` sets :data:`TIMEOUT` from ``--timeout``.
"""

from __future__ import annotations

import random
import socket
import time
import uuid
from typing import Any
from urllib.parse import urlsplit

import orjson

TIMEOUT = 40.0  # seconds a request may take (a long-poll waits up to 30 s)
KIT_OPTIONS = ("players", "clock")  # the kit's own options; the rest are the engine's


class HttpError(Exception):
    pass


class Conn:
    """One keep-alive HTTP/1.1 connection; reconnects (and resends once) if the server
    closed it. Moves carry an Idempotency-Key, so a resent POST is never applied twice."""

    def __init__(self, base: str, timeout: float | None = None) -> None:
        self.timeout = timeout
        parts = urlsplit(base)
        self.addr = (parts.hostname, parts.port)
        self.host = f"Host: {parts.hostname}:{parts.port}\r\n"
        self.sock: socket.socket | None = None
        self.buf = b""

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buf = None, b""

    def request(self, method: str, path: str, body: bytes = b"", headers: str = ""):
        head = f"{method} {path} HTTP/1.1\r\n{self.host}{headers}"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        data = head.encode() + b"\r\n" + body
        for attempt in (0, 1):
            try:
                if self.sock is None:
                    self.sock = socket.create_connection(self.addr, timeout=self.timeout or TIMEOUT)
                    self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self.sock.sendall(data)
                return self._read()
            except (OSError, EOFError):
                self.close()
                if attempt:
                    raise
        raise AssertionError

    def _read(self) -> tuple[int, bytes]:
        buf = self.buf
        while (end := buf.find(b"\r\n\r\n")) < 0:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            buf += chunk
        head = buf[:end].lower()
        status = int(head[9:12])
        length = 0
        at = head.find(b"\r\ncontent-length:")
        if at >= 0:
            stop = head.find(b"\r\n", at + 2)
            length = int(head[at + 17 : stop if stop >= 0 else len(head)])
        rest = buf[end + 4 :]
        while len(rest) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            rest += chunk
        body, self.buf = rest[:length], rest[length:]
        if b"\r\nconnection: close" in head:
            self.close()
        return status, body


def auth(token: str) -> str:
    return f"Authorization: Bearer {token}\r\n"


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[rank]


def summary_ms(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(pct(values, 50) * 1000, 2),
        "p95_ms": round(pct(values, 95) * 1000, 2),
        "p99_ms": round(pct(values, 99) * 1000, 2),
        "max_ms": round(max(values) * 1000, 2) if values else float("nan"),
    }


class Game:
    def __init__(self, base: str, players: int, seed: int) -> None:
        self.conn = Conn(base)
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.id = ""
        self.tokens: list[str] = []
        self.host = ""
        self.to_act: list[int] = []
        self.over = False
        self.version = 0
        self.options: dict[str, Any] = {}
        self.engine: Any = None
        self.state: Any = None

    def call(self, method: str, path: str, body=None, headers: str = "", ok=(200, 201)):
        raw = orjson.dumps(body) if body is not None else b""
        status, data = self.conn.request(method, path, raw, headers)
        if status not in ok:
            raise HttpError(f"{method} {path} -> {status}: {data[:300]!r}")
        return status, orjson.loads(data) if data else None

    def setup(self, start: bool = True) -> None:
        _, created = self.call("POST", "/games", {"players": self.players, "seed": self.seed})
        self.id, self.host = created["id"], created["host_token"]
        for i in range(self.players):
            _, joined = self.call("POST", f"/games/{self.id}/players", {"name": f"bot{i}"})
            self.tokens.append(joined["token"])
        if start:
            _, view = self.call("POST", f"/games/{self.id}/start", headers=auth(self.host))
            self.to_act, self.version = view["to_act"], view["version"]
            self.options = {k: v for k, v in view["options"].items() if k not in KIT_OPTIONS}

    def replicate(self, engine: Any, options: dict[str, Any]) -> None:
        """Keep a local copy of the game's state (``--posts-only``), on the engine's
        playout path (``fork``, ``legal_actions``, ``play``): the generator's own share of
        the machine is not the service's."""
        self.engine = engine
        self.state = engine.fork(engine.setup(self.players, options, self.seed))

    def post_only(self, posts: list[float]) -> None:
        """One turn as a POST alone, the move drawn from the local copy's legal moves."""
        seat = self.to_act[0]
        choice = self.rng.choice(self.engine.legal_actions(self.state, seat))
        sent = time.perf_counter()
        _, body = self.call(
            "POST",
            f"/games/{self.id}/moves",
            choice,
            auth(self.tokens[seat]) + f"Idempotency-Key: {uuid.uuid4().hex}\r\n",
        )
        posts.append(time.perf_counter() - sent)
        self.engine.play(self.state, seat, choice)
        game = body["game"]
        self.to_act, self.version = game["to_act"], game["version"]
        self.over = game["status"] != "running"

    def move(self, posts: list[float]) -> None:
        """One bot turn: legal-moves, pick, post. Appends the POST latency to ``posts``."""
        if not self.to_act:
            _, view = self.call("GET", f"/games/{self.id}")
            self.to_act = view["to_act"]
            if view["status"] != "running":
                self.over = True
                return
        seat = self.to_act[0]
        token = auth(self.tokens[seat])
        _, view = self.call("GET", f"/games/{self.id}?include=legal_moves", headers=token)
        choice = self.rng.choice(view["legal_moves"])
        sent = time.perf_counter()
        status, body = self.call(
            "POST",
            f"/games/{self.id}/moves",
            choice,
            token + f"Idempotency-Key: {uuid.uuid4().hex}\r\n",
            ok=(200, 409),
        )
        posts.append(time.perf_counter() - sent)
        if status == 409:  # someone else's turn after all: refresh
            self.to_act = []
            return
        game = body["game"]
        self.to_act, self.version = game["to_act"], game["version"]
        self.over = game["status"] != "running"
