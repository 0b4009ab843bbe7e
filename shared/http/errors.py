"""RFC 9457 problem+json for every error, each with a stable machine-readable ``code``.

``title`` and ``detail`` speak the request's language (``Accept-Language``, negotiated
by :mod:`shared.i18n`; English by default), stated in ``Content-Language``; ``code`` and
``type`` never change with it. A detail is a template (the catalogs' msgid) with named
parameters, translated first and filled after.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, g, has_request_context, request
from werkzeug.exceptions import HTTPException

from shared.engine import RuleError
from shared.games.errors import (
    Conflict,
    Forbidden,
    GameError,
    Invalid,
    NotFound,
    PreconditionFailed,
    RateLimited,
    Unauthorized,
)
from shared.http.middleware.request_log import request_id
from shared.i18n import DEFAULT, negotiate, render, translate
from shared.store import STORE_DOWN, NotReplicated, StoreFull
from shared.streaming.events import ServerBusy, WaitRefused

PROBLEM_MIME = "application/problem+json"
TYPE_PREFIX = "urn:boardgames:problem:"

log = logging.getLogger(__name__)

# status -> (the code of Flask/werkzeug's own errors of that status, the title);
# any other status: "http-<status>", "Error".
HTTP = {
    202: ("analysis-pending", "Accepted"),
    400: ("bad-request", "Bad Request"),
    401: ("missing-token", "Unauthorized"),
    403: ("forbidden", "Forbidden"),
    404: ("not-found", "Not Found"),
    405: ("method-not-allowed", "Method Not Allowed"),
    406: ("not-acceptable", "Not Acceptable"),
    409: ("conflict", "Conflict"),
    412: ("version-mismatch", "Precondition Failed"),
    413: ("payload-too-large", "Content Too Large"),
    414: ("request-line-too-long", "URI Too Long"),
    415: ("unsupported-media-type", "Unsupported Media Type"),
    422: ("validation-error", "Unprocessable Content"),
    429: ("too-many-requests", "Too Many Requests"),
    431: ("headers-too-large", "Request Header Fields Too Large"),
    500: ("internal-error", "Internal Server Error"),
    501: ("not-implemented", "Not Implemented"),
    503: ("storage-unavailable", "Service Unavailable"),
}


# The games layer's refusals (shared/games/errors.py) by kind: their status. The most
# specific kind in an error's class hierarchy wins; a bare GameError is a 400.
STATUS_OF: dict[type[GameError], int] = {
    GameError: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    PreconditionFailed: 412,
    Invalid: 422,
    RateLimited: 429,
}
CHALLENGE = 'Bearer realm="boardgames"'
"""The ``WWW-Authenticate`` of a 401 for a game's missing bearer token."""


def title(status: int) -> str:
    """The problem title of a status (in English: the catalogs' msgid)."""
    return HTTP[status][1] if status in HTTP else "Error"


class ApiError(Exception):
    """An error the API answers with a problem document.

    Raise it anywhere below a view; the handler turns it into the response. ``detail``
    is an English template the keyword arguments fill (as a domain error's); ``extra``
    holds the answer's own fields (``errors``).
    """

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        /,
        *,
        headers: dict[str, str] | None = None,
        extra: Mapping[str, Any] | None = None,
        **params: Any,
    ) -> None:
        text = detail.format_map(params) if params else detail
        super().__init__(text)
        self.status = status
        self.code = code
        self.detail = text
        self.template = detail
        self.params = params
        self.headers = headers or {}
        self.extra = dict(extra or {})


def invalid(location: str, name: str, detail: str, message: str, **params: Any) -> ApiError:
    """422 ``validation-error`` for one field of the request itself (a header, the
    query), shaped like the schemas' own (by location); the games layer's are
    :meth:`shared.games.errors.Invalid.field`."""
    errors = {location: {name: [message]}}
    return ApiError(422, "validation-error", detail, extra={"errors": errors}, **params)


def status_of(error: GameError) -> int:
    """The status that answers a refusal of the games layer (by its kind)."""
    for kind in type(error).__mro__:
        status = STATUS_OF.get(kind)
        if status is not None:
            return status
    raise AssertionError("unreachable: GameError is in STATUS_OF")  # pragma: no cover


def game_problem(error: GameError) -> Response:
    """The problem+json answer to a refusal of the games layer: its kind's status, its
    code, detail and extra fields, and the kind's headers (a 401's challenge, a 429's
    ``Retry-After``)."""
    headers: dict[str, str] = {}
    if isinstance(error, Unauthorized):
        headers["WWW-Authenticate"] = CHALLENGE
    if isinstance(error, RateLimited):
        headers["Retry-After"] = str(error.retry_after)
    return problem(
        status_of(error), error.code, error.template, headers, params=error.params, **error.extra
    )


def wait_problem(error: WaitRefused, language: str | None = None) -> Response:
    """A refused wait: 429 ``too-many-waits`` for the address, 503 ``server-busy`` for
    the process, with ``Retry-After``."""
    status = 503 if isinstance(error, ServerBusy) else 429
    headers = {"Retry-After": str(error.retry_after)}
    return problem(
        status, error.code, error.template, headers, params=error.params, language=language
    )


def problem_body(
    status: int,
    code: str,
    detail: str,
    *,
    params: Mapping[str, Any] | None = None,
    language: str = DEFAULT,
    **extra: Any,
) -> dict[str, Any]:
    """The RFC 9457 document (also written by gunicorn's own error answers): ``title``
    and ``detail`` (a template ``params`` fill) in ``language``, ``type`` and ``code``
    the same in every language."""
    return {
        "type": TYPE_PREFIX + code,
        "title": translate(title(status), language),
        "status": status,
        "detail": render(detail, params, language),
        "code": code,
        **extra,
    }


def request_language() -> str:
    """The language of the request being answered (English outside one)."""
    if not has_request_context():
        return DEFAULT
    return negotiate(request.headers.get("Accept-Language"))


def language_headers(headers: dict[str, str], language: str) -> dict[str, str]:
    """``headers`` with the problem's ``Content-Language`` and ``Vary: Accept-Language``
    (its words depend on that header)."""
    return {**headers, "Content-Language": language, "Vary": "Accept-Language"}


def problem(
    status: int,
    code: str,
    detail: str,
    headers: dict[str, str] | None = None,
    *,
    params: Mapping[str, Any] | None = None,
    language: str | None = None,
    **extra: Any,
) -> Response:
    """A ``application/problem+json`` response, carrying the request's ``request_id``,
    in ``language`` (by default the request's, see :func:`request_language`)."""
    language = language or request_language()
    body = problem_body(status, code, detail, params=params, language=language, **extra)
    if has_request_context():
        body["request_id"] = request_id()
        g.problem_code = code  # for the request log line and the metrics
    headers = language_headers(headers or {}, language)
    return Response(
        json.dumps(body, ensure_ascii=False), status=status, mimetype=PROBLEM_MIME, headers=headers
    )


def _from_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("errors") or data.get("messages")
    extra: dict[str, Any] = {}
    params: dict[str, Any] = {}
    code = HTTP[status][0] if status in HTTP else f"http-{status}"
    detail = error.description or title(status)
    if status == 400 and messages and "json" in messages:
        code, detail = "invalid-json", "The request body is not valid JSON."
        reasons = messages["json"]
        if isinstance(reasons, list) and reasons and isinstance(reasons[0], str):
            detail = "The request body is not valid JSON: {reason}."
            params["reason"] = reasons[0][:200]
    elif status == 422:
        detail = "The request failed validation; see `errors`."
        # webargs nests messages by location ("json", "query"): keep that, it says where.
        extra["errors"] = messages or {}
    elif status == 405:
        detail = "This method is not allowed on this resource."
    elif status == 404:
        detail = "No such resource."
    elif status == 413:
        params["limit"] = current_app.config.get("MAX_CONTENT_LENGTH")
        detail = "The request body is larger than {limit} bytes."
    headers = dict(data.get("headers") or {})
    allowed = getattr(error, "valid_methods", None)
    if status == 405 and allowed:
        headers["Allow"] = ", ".join(allowed)
    return problem(status, code, detail, headers, params=params, **extra)


def register_error_handlers(app: Flask) -> None:
    """Route every error through problem+json (after flask-smorest's own handler)."""

    @app.errorhandler(ApiError)
    def _api_error(error: ApiError) -> Response:
        return problem(
            error.status,
            error.code,
            error.template,
            error.headers,
            params=error.params,
            **error.extra,
        )

    app.register_error_handler(GameError, game_problem)
    app.register_error_handler(WaitRefused, wait_problem)

    @app.errorhandler(RuleError)
    def _rule_error(error: RuleError) -> Response:
        return problem(409, error.code, error.template or error.code, params=error.params)

    app.register_error_handler(HTTPException, _from_http_exception)

    def _unavailable(code: str, detail: str) -> Response:
        """A 503 the client should retry after ``RETRY_AFTER_SECONDS``."""
        retry_after = str(app.config.get("RETRY_AFTER_SECONDS", 2))
        return problem(503, code, detail, {"Retry-After": retry_after})

    def _storage_down(error: Exception) -> Response:
        log.warning("storage unavailable: %s", error)
        return _unavailable(
            "storage-unavailable", "The game store is unreachable; try again shortly."
        )

    for kind in STORE_DOWN:
        app.register_error_handler(kind, _storage_down)

    @app.errorhandler(NotReplicated)
    def _not_replicated(error: NotReplicated) -> Response:
        """REDIS_WAIT_REPLICAS: the primary wrote it, too few replicas confirmed it in
        time; a retry with the same Idempotency-Key gets the first answer once they do."""
        log.warning("write not replicated: %s", error)
        return _unavailable(
            "storage-not-replicated",
            "The write was not confirmed by the store's replicas in time, so it may not "
            "survive a failover; retry with the same Idempotency-Key.",
        )

    @app.errorhandler(StoreFull)
    def _storage_full(error: Exception) -> Response:
        """Redis at ``maxmemory`` (``noeviction``) refuses writes; reads still work."""
        log.warning("storage full: %s", error)
        return _unavailable(
            "storage-full", "The game store is full and refuses writes; try again later."
        )

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:  # the most specific handler wins
        log.exception("unhandled error")
        return problem(500, "internal-error", "An unexpected error occurred.")
