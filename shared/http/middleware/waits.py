"""Waits refused at the door: a request to wait (long-poll, SSE) from an address at its
cap is answered before Flask runs (the caps are :class:`shared.streaming.events.WaitGate`'s).

May import ``shared.http.errors``, ``shared.http.middleware.ratelimit`` and
``shared.streaming`` (and ``shared.i18n``, to answer in the request's language).
"""

from __future__ import annotations

import re
from typing import Any

from shared.http.errors import wait_problem
from shared.http.middleware.ratelimit import address_of
from shared.i18n import negotiate
from shared.streaming.events import WaitGate

_EVENTS_PATH = re.compile(r"^/games/[^/]+/events$")
_WAIT = re.compile(r"(?:^|&)wait=([^&]*)")


class WaitGateMiddleware:
    """Turns away a request to wait from an address at its cap before Flask runs.

    A flood of waits is answered at the rate the server can refuse them; refusing in
    Flask (routing, argument parsing, hooks) costs several times what this does, and
    5,000 clients retrying after ``Retry-After`` kept two workers busy. Requests from
    browsers (with ``Origin``) go on to Flask, which adds the CORS headers they need;
    the view refuses them with the same answer.
    """

    def __init__(self, app: Any, gate: WaitGate) -> None:
        self.app = app
        self.gate = gate

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.gate.total and self._asks_to_wait(environ):
            refusal = self.gate.refusal(address_of(environ.get("REMOTE_ADDR")))
            if refusal is not None:
                language = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
                response = wait_problem(refusal, language)
                response.headers["X-Content-Type-Options"] = "nosniff"
                return response(environ, start_response)
        return self.app(environ, start_response)

    @staticmethod
    def _asks_to_wait(environ: dict[str, Any]) -> bool:
        if environ.get("REQUEST_METHOD") != "GET" or "HTTP_ORIGIN" in environ:
            return False
        if not _EVENTS_PATH.match(environ.get("PATH_INFO", "")):
            return False
        if "text/event-stream" in environ.get("HTTP_ACCEPT", ""):
            return True
        wait = _WAIT.search(environ.get("QUERY_STRING", ""))
        try:
            return wait is not None and float(wait.group(1)) > 0
        except ValueError:
            return False  # Flask answers the 422
