"""Request ids and one log line per request (plain by default, JSON with LOG_FORMAT=json).

Every request gets an id: the client's ``X-Request-Id`` when it is 1-200 visible ASCII
characters, else a fresh uuid4 hex. The id is echoed in the ``X-Request-Id`` response
header and in every problem body (``shared.http.errors``), so a client's bug report and the
service's log line meet. The log line names the route (the URL rule, never headers or the
query string), so no token can reach the logs through it.
"""

from __future__ import annotations

import logging
import os
import re
import time
from typing import Any

from flask import Flask, Response, g, has_request_context, request
from pythonjsonlogger.json import JsonFormatter

from shared.games.access import ACTOR as ACTOR  # re-exported (shared/http/fastpath.py)
from shared.http.middleware.headers import HeaderMap

HEADER = "X-Request-Id"
_VALID_ID = re.compile(r"^[\x21-\x7e]{1,200}$")
_PLAIN = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_JSON = "%(levelname)s %(name)s %(message)s"

log = logging.getLogger("boardgames.request")

# ACTOR: the seat (or "host") the request's bearer token turned out to act for. The games
# layer owns it (shared.games.access sets it where the token is resolved); this module
# clears it as a request begins and reads it for the log line.


def request_id() -> str | None:
    """The current request's id (made on first use); ``None`` outside a request."""
    if not has_request_context():
        return None
    rid = g.get("request_id")
    if rid is None:
        rid = g.request_id = new_request_id(request.headers.get(HEADER))
    return str(rid)


def configure_logging(level: str, log_format: str) -> None:
    """The root logger at ``level``, formatted as ``log_format`` ("plain" or "json").

    JSON also reformats gunicorn's own error log, so a JSON deployment emits JSON only.
    """
    level_no = logging.getLevelName(level.upper())
    if not isinstance(level_no, int):
        level_no = logging.INFO
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler())
    root.setLevel(level_no)
    for name in ("shared", "boardgames"):
        logging.getLogger(name).setLevel(level_no)
    if log_format.strip().lower() == "json":
        formatter: logging.Formatter = JsonFormatter(
            _JSON, rename_fields={"levelname": "level", "name": "logger"}, timestamp="time"
        )
    else:
        formatter = logging.Formatter(_PLAIN)
    for logger in (root, logging.getLogger("gunicorn.error")):
        for handler in logger.handlers:
            handler.setFormatter(formatter)


def route_of() -> str:
    """The matched URL rule (bounded: one per endpoint), or ``unmatched``."""
    rule = request.url_rule
    return rule.rule if rule is not None else "unmatched"


def new_request_id(given: str | None) -> str:
    """The client's ``X-Request-Id`` when valid, else a fresh uuid4 hex."""
    return given if given is not None and _VALID_ID.match(given) else fresh_id()


def fresh_id() -> str:
    """``uuid.uuid4().hex`` (122 random bits, the version and variant bits set), without
    building a ``UUID`` (a third of its cost; two per move)."""
    raw = bytearray(os.urandom(16))
    raw[6] = raw[6] & 0x0F | 0x40
    raw[8] = raw[8] & 0x3F | 0x80
    return raw.hex()


def log_request(
    method: str,
    route: str,
    path: str,
    status: int,
    started: float | None,
    game_id: str | None,
    rid: str,
    code: str | None = None,
) -> None:
    """The request's one log line (at INFO; callers skip it when INFO is off)."""
    duration_ms = round((time.perf_counter() - started) * 1000, 2) if started else None
    fields: dict[str, Any] = {
        "method": method,
        "route": route,
        "path": path,
        "status": status,
        "duration_ms": duration_ms,
        "game_id": game_id,
        "seat": ACTOR.get(),
        "request_id": rid,
    }
    if code:
        fields["code"] = code
    log.info(
        "%s %s %s %sms game=%s seat=%s rid=%s",
        method,
        route,
        status,
        duration_ms,
        game_id,
        fields["seat"],
        rid,
        extra=fields,
    )


def begin_request(given_id: str | None) -> tuple[float, str]:
    """How every request begins: its clock, its id (``given_id``, the client's
    ``X-Request-Id``, when valid), and no actor yet."""
    ACTOR.set(None)
    return time.perf_counter(), new_request_id(given_id)


def end_request(
    headers: HeaderMap,
    method: str,
    route: str,
    path: str,
    status: int,
    started: float | None,
    game_id: str | None,
    rid: str,
    code: str | None,
) -> None:
    """How every answer ends: its ``X-Request-Id``, and the request's log line."""
    headers[HEADER] = rid
    if log.isEnabledFor(logging.INFO):  # else the line would be dropped: skip building it
        log_request(method, route, path, status, started, game_id, rid, code)


def start_request() -> None:
    """The before-request hook: :func:`begin_request`."""
    g.started, g.request_id = begin_request(request.headers.get(HEADER))


def finish_request(response: Response) -> Response:
    """The after-request hook: :func:`end_request`."""
    end_request(
        response.headers,
        request.method,
        route_of(),
        request.path,
        response.status_code,
        g.get("started"),
        (request.view_args or {}).get("game_id"),
        g.get("request_id") or request_id() or "",
        g.get("problem_code"),
    )
    return response


def init_request_log(app: Flask) -> None:
    """Stamp each request with an id and log it once it is answered."""
    app.before_request(start_request)
    app.after_request(finish_request)
