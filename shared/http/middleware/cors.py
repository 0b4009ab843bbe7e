"""CORS for browser clients: off unless ``CORS_ORIGINS`` names the allowed origins.

``CORS_ORIGINS`` is a comma-separated allow-list of origins
(``https://play.example.com,http://localhost:3000``), or ``*`` for any origin (safe
here: credentials are bearer tokens the page sends itself, never cookies). An allowed
origin gets ``Access-Control-Allow-Origin`` (its own origin echoed) and may read
``ETag``, ``Location``, ``Retry-After`` and ``WWW-Authenticate``; a preflight
``OPTIONS`` from it is answered ``204`` with the methods and request headers the API
uses (``Authorization``, ``If-Match``, ``Idempotency-Key``...). Any other origin gets
no CORS headers, so its browser refuses to hand the page the answer. Once CORS is on,
every answer carries ``Vary: Origin``. Native and mobile clients ignore CORS altogether.
"""

from __future__ import annotations

from flask import Flask, Response, request

from shared.http.middleware.headers import HeaderMap, add_vary

ALLOW_METHODS = "GET, POST, DELETE, OPTIONS"
ALLOW_HEADERS = (
    "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID"
)
EXPOSE_HEADERS = "ETag, Location, Retry-After, WWW-Authenticate, X-Request-Id"
MAX_AGE = "600"


def parse_origins(setting: str | None) -> frozenset[str]:
    """The allowed origins of a ``CORS_ORIGINS`` value (trailing slashes dropped)."""
    return frozenset(o.strip().rstrip("/") for o in (setting or "").split(",") if o.strip())


class CorsPolicy:
    """The allowed origins and the app's CORS hooks (``app.extensions["cors"]``;
    shared/http/fastpath.py adds the same headers through :meth:`add_headers`)."""

    def __init__(self, origins: frozenset[str]) -> None:
        self.origins = origins
        self.any_origin = "*" in origins

    def allowed(self, origin: str | None) -> bool:
        return bool(origin) and (self.any_origin or origin in self.origins)

    def add_headers(self, headers: HeaderMap, origin: str | None) -> None:
        """An answer's CORS headers, for a request from ``origin`` (``None``: no Origin).

        Every answer varies with Origin (allowed or not, or absent): a cache must not hand
        one origin's answer, with or without CORS headers, to another."""
        add_vary(headers, "Origin")
        if origin is None or not self.allowed(origin):
            return
        if "Access-Control-Allow-Origin" not in headers:
            headers["Access-Control-Allow-Origin"] = origin
            headers["Access-Control-Expose-Headers"] = EXPOSE_HEADERS

    def preflight(self) -> Response | None:
        """The before-request hook: a preflight ``OPTIONS`` answered ``204``."""
        if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
            return None
        response = Response(status=204)
        origin = request.headers.get("Origin")
        response.headers["Vary"] = "Origin"
        if origin is not None and self.allowed(origin):
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Allow-Methods"] = ALLOW_METHODS
            response.headers["Access-Control-Allow-Headers"] = ALLOW_HEADERS
            response.headers["Access-Control-Max-Age"] = MAX_AGE
        return response

    def finish_answer(self, response: Response) -> Response:
        """The after-request hook: :meth:`add_headers`."""
        self.add_headers(response.headers, request.headers.get("Origin"))
        return response


def init_cors(app: Flask, setting: str | None) -> None:
    """Answer preflights and add CORS headers for the allowed origins (none: no-op)."""
    origins = parse_origins(setting)
    if not origins:
        return
    policy = app.extensions["cors"] = CorsPolicy(origins)
    app.before_request(policy.preflight)
    app.after_request(policy.finish_answer)
