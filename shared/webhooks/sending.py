"""One signed POST to a receiver: connected to the address the SSRF check approved (an
HTTPS connection still checks the certificate against the URL's host name), the answer
read up to :data:`READ_CAP` bytes. Used by :mod:`shared.webhooks.delivery` and
:mod:`shared.push.sending` (its encrypted bytes).

May import ``shared.webhooks.ssrf`` and ``shared.games.errors``.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time

from shared.games.errors import Invalid
from shared.webhooks import ssrf

READ_CAP = 64 * 1024
"""Bytes of a receiver's answer read at most (the rest is never read)."""
USER_AGENT = "boardgames-webhooks/1"


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a checked address, with the URL's host name for SNI and the cert check."""

    def __init__(self, address: str, port: int, hostname: str, timeout: float) -> None:
        super().__init__(address, port, timeout=timeout, context=ssl.create_default_context())
        self._hostname = hostname

    def connect(self) -> None:
        sock = socket.create_connection((self.host, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self._hostname)  # type: ignore[attr-defined]


def post(
    url: str, body: str | bytes, headers: dict[str, str], timeout: float, allow_private: bool
) -> tuple[int | None, str | None]:
    """One attempt: ``(status, None)`` when the receiver answered, ``(None, error)``
    else. The host is resolved and checked now (DNS rebinding) and the connection goes
    to that address; no redirect is followed; at most ``READ_CAP`` bytes are read."""
    try:
        target = ssrf.parse(url)
        addresses = ssrf.resolve(target, allow_private)
    except Invalid as error:
        return None, error.detail
    host_header = (
        target.host
        if target.port == ssrf.SCHEMES[target.scheme]
        else (f"{target.host}:{target.port}")
    )
    started = time.monotonic()
    failure = "no address"
    for address in addresses[:3]:
        left = timeout - (time.monotonic() - started)
        if left <= 0:
            return None, "timeout"
        conn: http.client.HTTPConnection
        if target.scheme == "https":
            conn = _PinnedHTTPS(address, target.port, target.host, left)
        else:
            conn = http.client.HTTPConnection(address, target.port, timeout=left)
        try:
            conn.putrequest("POST", target.path, skip_host=True, skip_accept_encoding=True)
            for name, value in {
                "Host": host_header,
                "Content-Type": "application/json",
                "User-Agent": USER_AGENT,
                **headers,
            }.items():
                conn.putheader(name, value)
            data = body.encode() if isinstance(body, str) else body
            conn.putheader("Content-Length", str(len(data)))
            conn.endheaders(data)
            response = conn.getresponse()
            response.read(READ_CAP)
            return response.status, None
        except (OSError, http.client.HTTPException) as exc:
            failure = type(exc).__name__ if not str(exc) else f"{type(exc).__name__}: {exc}"
        finally:
            conn.close()
    return None, failure[:200]
