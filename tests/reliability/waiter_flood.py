"""A flood of long-poll clients from one address, run by test_wait_flood.py as its own
process (gevent greenlets over raw sockets, so the test's own timing is not disturbed).

``python -m tests.reliability.waiter_flood URL SOURCE CLIENTS SECONDS``: ``CLIENTS``
greenlets, each on its own connection from the local address ``SOURCE``, long-poll
``URL`` over and over: again at once after an answer, after ``Retry-After`` (plus up to
as much again, as clients are asked to) after a 429/503. Every half second it prints a
JSON line: how many clients started, how many requests are waiting for an answer, the
answers by status, and connection errors. It stops by itself after ``SECONDS``.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import json  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import gevent  # noqa: E402


def main(url: str, source: str, clients: int, seconds: float) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, clients + 1000)), hard))
    parts = urlsplit(url)
    target = (parts.hostname, parts.port)
    request = (
        f"GET {parts.path}?{parts.query} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    deadline = time.monotonic() + seconds
    stats: Counter[str] = Counter()

    def poll() -> tuple[int, int]:
        with socket.create_connection(target, timeout=60, source_address=(source, 0)) as sock:
            sock.sendall(request)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        retry = next((int(h.split(":")[1]) for h in head if h.lower().startswith("retry-after")), 1)
        return status, retry

    def client(n: int) -> None:
        gevent.sleep(n / clients)  # a one-second ramp, not one SYN burst
        stats["started"] += 1
        while time.monotonic() < deadline:
            stats["pending"] += 1
            try:
                status, retry = poll()
            except (OSError, ValueError, IndexError):
                stats["errors"] += 1
                gevent.sleep(1)
                continue
            finally:
                stats["pending"] -= 1
            stats[str(status)] += 1
            if status in (429, 503):
                gevent.sleep(retry * (1 + random.random()))
            elif status != 200:
                gevent.sleep(1)

    greenlets = [gevent.spawn(client, n) for n in range(clients)]
    while time.monotonic() < deadline:
        print(json.dumps(stats), flush=True)
        gevent.sleep(0.5)
    gevent.killall(greenlets, block=True, timeout=2)
    print(json.dumps(stats), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
