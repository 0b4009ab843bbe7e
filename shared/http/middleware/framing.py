"""Request framing the service does not take, refused before anything reads the body.

A ``Transfer-Encoding`` other than plain ``chunked`` (``gzip, chunked``, ``deflate``...)
is ``501 not-implemented``: gunicorn strips the chunking and hands the body on still
compressed, which a JSON reader would take for garbage or, worse, for something else.

May import ``shared.http.errors``.
"""

from __future__ import annotations

from typing import Any

from shared.http.errors import problem
from shared.i18n import negotiate


class TransferCodings:
    """The outermost WSGI layer: answers a request framed with any coding but
    ``chunked`` with 501 problem+json (``docs/api.md``, status codes)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        codings = environ.get("HTTP_TRANSFER_ENCODING")
        if codings is not None and codings.strip().lower() != "chunked":
            detail = "This transfer coding is not supported; send the body plain or chunked."
            language = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
            response = problem(501, "not-implemented", detail, language=language)
            response.headers["X-Content-Type-Options"] = "nosniff"
            return response(environ, start_response)
        return self.app(environ, start_response)
