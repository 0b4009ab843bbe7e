"""Exceptions raised by the client: one class per HTTP status family of the API.

Every error response of the services is RFC 9457 ``application/problem+json``
``{"type", "title", "status", "detail", "code"}``; :func:`error_from_response` turns it
into the matching :class:`ApiError` subclass carrying ``code``, ``status`` and ``detail``.
"""

from __future__ import annotations

from typing import Any

import requests

from .i18n import _


class BoardgamesError(Exception):
    """Base class of everything the client raises."""


class TransportError(BoardgamesError):
    """The service could not be reached (connection refused, reset, timed out) after retries."""


class ApiError(BoardgamesError):
    """An error answer from a service (problem+json).

    Attributes: ``status`` (HTTP status), ``code`` (stable machine-readable code, e.g.
    ``not-your-turn``), ``title``, ``detail`` and the raw ``problem`` dict.
    """

    status: int = 0

    def __init__(
        self,
        status: int,
        code: str | None,
        detail: str | None = None,
        title: str | None = None,
        problem: dict[str, Any] | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.status = status
        self.code = code or "unknown"
        self.detail = detail or title or ""
        self.title = title or ""
        self.problem = problem or {}
        self.retry_after = retry_after
        super().__init__(f"{status} {self.code}: {self.detail}")


class BadRequest(ApiError):
    """400: the request is malformed."""


class Unauthorized(ApiError):
    """401: a bearer token is missing or unknown."""


class Forbidden(ApiError):
    """403: the token is valid but may not do this (e.g. not the host)."""


class NotFound(ApiError):
    """404: no such game (or path)."""


class MethodNotAllowed(ApiError):
    """405."""


class Conflict(ApiError):
    """409: the request conflicts with the game's state (e.g. ``not-your-turn``, game full)."""


class Gone(ApiError):
    """410."""


class PreconditionFailed(ApiError):
    """412: ``If-Match`` named a stale version; nothing was done."""


class PayloadTooLarge(ApiError):
    """413."""


class UnprocessableEntity(ApiError):
    """422: the body failed validation or the move breaks a rule."""


class RateLimited(ApiError):
    """429: too many requests; ``retry_after`` says how long to wait, when known."""


class ServerError(ApiError):
    """5xx other than 503."""


class ServiceUnavailable(ServerError):
    """503: the service (or Redis behind it) is temporarily unavailable."""


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    405: MethodNotAllowed,
    409: Conflict,
    410: Gone,
    412: PreconditionFailed,
    413: PayloadTooLarge,
    422: UnprocessableEntity,
    429: RateLimited,
    503: ServiceUnavailable,
}


def error_class(status: int) -> type[ApiError]:
    """The exception class for an HTTP error status."""
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    return ServerError if status >= 500 else ApiError


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds form only; dates are ignored)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def error_from_response(resp: requests.Response) -> ApiError:
    """Build the :class:`ApiError` subclass for an error response."""
    problem: dict[str, Any] = {}
    try:
        body = resp.json()
        if isinstance(body, dict):
            problem = body
    except ValueError:
        pass
    cls = error_class(resp.status_code)
    return cls(
        status=resp.status_code,
        code=problem.get("code") or f"http-{resp.status_code}",
        detail=problem.get("detail") or resp.reason or resp.text[:200],
        title=problem.get("title"),
        problem=problem,
        retry_after=parse_retry_after(resp.headers.get("Retry-After")),
    )


def _flatten(errors: Any, path: tuple[str, ...] = ()) -> list[str]:
    """``{"json": {"pieces": ["Not a list."]}}`` → ``["json.pieces: Not a list."]``."""
    if isinstance(errors, dict):
        return [line for k, v in errors.items() for line in _flatten(v, (*path, str(k)))]
    if isinstance(errors, list) and all(isinstance(e, str) for e in errors):
        return [f"{'.'.join(path) or 'body'}: {' '.join(errors)}"]
    if isinstance(errors, list):
        return [line for i, v in enumerate(errors) for line in _flatten(v, (*path, str(i)))]
    return [f"{'.'.join(path) or 'body'}: {errors}"]


def describe_problem(exc: ApiError) -> str:
    """One line for people: the detail, or for a validation problem every field error
    (its detail points at an ``errors`` member that only the JSON shows)."""
    fields = _flatten(exc.problem.get("errors")) if exc.problem.get("errors") else []
    if not fields:
        return exc.detail
    if "`errors`" in exc.detail:  # "see `errors`": a member only the JSON shows
        return _("the service refused the request: {fields}", fields="; ".join(fields))
    return "; ".join([exc.detail, *fields])


def describe_transport(service: str, exc: BaseException) -> str:
    """Why a service could not be reached, in words (not urllib3's exception text)."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ConnectionRefusedError):
            return _(
                "cannot reach {service}: connection refused (is the service running?)",
                service=service,
            )
        if isinstance(cause, TimeoutError | requests.Timeout):
            return _("cannot reach {service}: it did not answer in time", service=service)
        if "Name or service not known" in str(cause) or "nodename nor servname" in str(cause):
            return _("cannot reach {service}: unknown host name", service=service)
        cause = cause.__cause__ or cause.__context__ or _reason(cause)
    return _("cannot reach {service}: the connection failed", service=service)


def _reason(exc: BaseException) -> BaseException | None:
    """urllib3 keeps the underlying error in ``.reason`` or the first argument."""
    reason = getattr(exc, "reason", None)
    if isinstance(reason, BaseException):
        return reason
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, BaseException) else None
