"""A response's head and its first body bytes in one send, where gunicorn makes two.

gunicorn's ``Response.write`` sends the status line and headers, then the body, in two
``sendall`` calls: two system calls and two TCP segments for every small JSON answer,
each of which may wake the client. This ``write`` joins them when the head is still
unsent and the body is plain bytes (not chunked, not a body-less answer); everything
else, including the bookkeeping of ``response_length``, is gunicorn's own ``write``.
Installed in every worker by ``post_worker_init`` (``gunicorn.conf.py``).
"""

from __future__ import annotations

from typing import Any

from gunicorn import util
from gunicorn.http import wsgi

_gunicorn_write = wsgi.Response.write


def write(self: Any, arg: bytes) -> None:
    """``Response.write``, the head sent with the body when both are ready."""
    if (
        self.headers_sent
        or self.chunked
        or self._omits_body
        or not isinstance(arg, bytes)
        or (self.response_length is not None and len(arg) > self.response_length)
    ):
        _gunicorn_write(self, arg)
        return
    head = self.default_headers()
    head.extend(["%s: %s\r\n" % (k, v) for k, v in self.headers])  # noqa: UP031 (gunicorn's)
    util.write(self.sock, util.to_bytestring("%s\r\n" % "".join(head), "latin-1") + arg)  # noqa: UP031
    self.headers_sent = True
    self.sent += len(arg)


def install() -> None:
    wsgi.Response.write = write
