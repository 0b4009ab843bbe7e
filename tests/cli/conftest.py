"""Helpers for the CLI's live tests: a TCP proxy that can drop connections, and the
worker that plays the server bots of ``new --bots``."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from clients.cli import i18n
from clients.cli.client import GameClient
from tests.conftest import ROOT, wait_until


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The CLI speaks its user's language (LC_ALL, LC_MESSAGES, LANG): its tests run in
    English whatever the machine's locale (tests/cli/test_languages.py sets its own)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    yield
    i18n.set_language("en")  # each test leaves the process speaking English
    GameClient.language = "en"


class DroppingProxy:
    """A tiny TCP proxy in front of a service.

    ``drop_next(n)`` makes it cut the next ``n`` connections: it reads the request and
    closes without forwarding anything (a connection dropped before any answer).
    ``cut_after(seconds)`` makes it close every open relayed connection after that many
    seconds (a long-poll dropped mid-wait). ``connections`` counts accepted connections.
    """

    def __init__(self, target_url: str) -> None:
        u = urlparse(target_url)
        self.target = (u.hostname, u.port)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self._drop = 0
        self._lock = threading.Lock()
        self.connections = 0
        self.dropped = 0
        self.forward_drops = 0
        self._open: list[socket.socket] = []
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def drop_next(self, n: int = 1) -> None:
        with self._lock:
            self._drop += n

    def drop_after_forwarding(self, n: int = 1) -> None:
        """Forward the next ``n`` requests but cut the connection before the answer."""
        with self._lock:
            self.forward_drops += n

    def cut_all(self) -> None:
        """Close every connection being relayed now."""
        with self._lock:
            socks, self._open = self._open, []
        for s in socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def close(self) -> None:
        self._closed = True
        self.sock.close()
        self.cut_all()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
                drop = self._drop > 0
                if drop:
                    self._drop -= 1
                    self.dropped += 1
                fwd_drop = not drop and self.forward_drops > 0
                if fwd_drop:
                    self.forward_drops -= 1
                    self.dropped += 1
            if drop:
                threading.Thread(target=self._swallow, args=(client,), daemon=True).start()
                continue
            upstream = socket.create_connection(self.target)
            with self._lock:
                self._open += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, False), daemon=True).start()
            threading.Thread(
                target=self._pipe, args=(upstream, client, fwd_drop), daemon=True
            ).start()

    @staticmethod
    def _swallow(client: socket.socket) -> None:
        try:
            client.settimeout(2)
            client.recv(65536)
        except OSError:
            pass
        client.close()

    def _pipe(self, src: socket.socket, dst: socket.socket, cut_on_answer: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if cut_on_answer:
                    break  # the request reached the service; drop its answer
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()


@pytest.fixture
def proxy_to() -> Iterator:
    proxies: list[DroppingProxy] = []

    def make(url: str) -> DroppingProxy:
        p = DroppingProxy(url)
        proxies.append(p)
        return p

    yield make
    for p in proxies:
        p.close()


@pytest.fixture
def workers(redis_url: str) -> Iterator[subprocess.Popen]:
    """One ``python -m shared.worker`` on the session's Redis, quick to poll: it plays the
    server bots (``new --bots``) of the games a test creates. Stopped after the test."""
    with tempfile.TemporaryDirectory() as workdir:
        beat = Path(workdir) / "heartbeat"
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "LOG_LEVEL": "WARNING",
            "WORKER_POLL_SECONDS": "0.05",
            "WORKER_HEARTBEAT_FILE": str(beat),
            "WORKER_ANALYSIS": "false",  # (tests/webhooks/test_analysis_live.py has its own)
            "PYTHONPATH": str(ROOT),
        }
        proc = subprocess.Popen([sys.executable, "-m", "shared.worker"], cwd=ROOT, env=env)
        try:
            wait_until(beat.exists, 30, "the worker's first tick")
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def cli(tmp_path, live_manhattan: str, live_windcity: str):
    """``python -m clients.cli ARGS`` with a private BOARDGAMES_HOME (``home=`` another;
    ``stdin=`` the text typed in)."""
    env = {
        **os.environ,
        "MANHATTAN_URL": live_manhattan,
        "WINDCITY_URL": live_windcity,
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "160",
    }
    env.pop("BOARDGAMES_API_KEY", None)

    def run(
        *args: str,
        home: str = "ann",
        check: bool = True,
        stdin: str | None = None,
        timeout: float = 60,
    ) -> subprocess.CompletedProcess:
        proc = subprocess.run(
            [sys.executable, "-m", "clients.cli", *args],
            capture_output=True,
            text=True,
            input=stdin,
            env={**env, "BOARDGAMES_HOME": str(tmp_path / home)},
            timeout=timeout,
            cwd=ROOT,
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"{args} failed ({proc.returncode}): {proc.stderr}")
        return proc

    return run
