"""Request ids and one log line per request (plain by default, JSON with LOG_FORMAT=json).

Every request gets an id: the client's ``X-Request-Id`` when it is 1-200 visible ASCII
characters, else a fresh uuid4 hex. The id is echoed in the ``X-Request-Id`` response
header and in every problem body (``shared.errors``), so a client's bug report and the
service's log line meet. The log line names the route (the URL rule, never headers or the
query string), so no token can reach the logs through it.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from contextvars import ContextVar
from typing import Any

from flask import Flask, Response, g, has_request_context, request
from pythonjsonlogger.json import JsonFormatter

HEADER = "X-Request-Id"
_VALID_ID = re.compile(r"^[\x21-\x7e]{1,200}$")
_PLAIN = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_JSON = "%(levelname)s %(name)s %(message)s"

log = logging.getLogger("boardgames.request")

# The seat (or "host") the request's bearer token turned out to act for: set by
# shared.access where the token is resolved, read here for the log line. A ContextVar
# (not flask.g) because access.py stays free of Flask; per greenlet under gevent.
ACTOR: ContextVar[int | str | None] = ContextVar("boardgames_actor", default=None)


def request_id() -> str | None:
    """The current request's id (made on first use); ``None`` outside a request."""
    if not has_request_context():
        return None
    rid = g.get("request_id")
    if rid is None:
        given = request.headers.get(HEADER, "")
        rid = given if _VALID_ID.match(given) else uuid.uuid4().hex
        g.request_id = rid
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


def init_request_log(app: Flask) -> None:
    """Stamp each request with an id and log it once it is answered."""

    @app.before_request
    def _start() -> None:
        g.started = time.perf_counter()
        ACTOR.set(None)
        request_id()

    @app.after_request
    def _finish(response: Response) -> Response:
        rid = g.get("request_id") or request_id() or ""
        response.headers[HEADER] = rid
        if not log.isEnabledFor(logging.INFO):  # the line would be dropped: skip building it
            return response
        started = g.get("started")
        duration_ms = round((time.perf_counter() - started) * 1000, 2) if started else None
        fields: dict[str, Any] = {
            "method": request.method,
            "route": route_of(),
            "path": request.path,
            "status": response.status_code,
            "duration_ms": duration_ms,
            "game_id": (request.view_args or {}).get("game_id"),
            "seat": ACTOR.get(),
            "request_id": rid,
        }
        if g.get("problem_code"):
            fields["code"] = g.problem_code
        log.info(
            "%s %s %s %sms game=%s seat=%s rid=%s",
            fields["method"],
            fields["route"],
            fields["status"],
            duration_ms,
            fields["game_id"],
            fields["seat"],
            fields["request_id"],
            extra=fields,
        )
        return response
