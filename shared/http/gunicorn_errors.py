"""problem+json for the answers gunicorn gives itself, before Flask ever runs.

gunicorn refuses a request it cannot parse (a request line over ``limit_request_line``:
``414``; headers over ``limit_request_field_size``/``limit_request_fields``: ``431``;
a malformed request line, header or framing: ``400``; ...) with a small HTML page
written by ``gunicorn.util.write_error``. Every worker class (sync, gthread, gevent)
reaches it through ``Worker.handle_error``, which keeps its logging and access log; only
the page is replaced, by :func:`write_problem` (``install`` from a gunicorn hook, see
``gunicorn.conf.py``). The detail is fixed per status: nothing of the request is echoed.
The request's headers are not read, so these answers are English (``Content-Language``).
"""

from __future__ import annotations

import json
import socket

from gunicorn import util

from shared.http.errors import HTTP, PROBLEM_MIME, problem_body

# status -> the detail of gunicorn's own refusals (the code comes from errors.HTTP)
DETAILS = {
    400: "The request is not well-formed HTTP.",
    403: "This request is not allowed.",
    414: "The request line (method, path and query) is too long.",
    417: "The Expect header cannot be met.",
    431: "The request headers are too large or too many.",
    500: "An unexpected error occurred.",
    501: "This transfer coding is not supported.",
}
CODES = {400: "malformed-request", 417: "expectation-failed"}


def problem_page(status: int, reason: str) -> bytes:
    """The whole HTTP/1.1 answer: problem+json, ``nosniff``, and the connection closed
    (gunicorn closes it after an error)."""
    code = CODES.get(status) or (HTTP[status][0] if status in HTTP else f"http-{status}")
    body = problem_body(status, code, DETAILS.get(status, reason))
    if status not in HTTP:
        body["title"] = reason
    payload = json.dumps(body, ensure_ascii=False).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        f"Content-Type: {PROBLEM_MIME}\r\n"
        f"Content-Length: {len(payload)}\r\n"
        "Content-Language: en\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        "\r\n"
    )
    return head.encode("latin-1") + payload


def write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """Drop-in for ``gunicorn.util.write_error`` (``mesg``, gunicorn's detail, is only
    logged by gunicorn: it may quote the request)."""
    util.write_nonblock(sock, problem_page(int(status_int), reason))


def install() -> None:
    """Make this process's gunicorn worker answer its own errors with problem+json."""
    util.write_error = write_problem
