"""Headers on every answer, and the answer to a plain ``OPTIONS``.

- ``X-Content-Type-Options: nosniff`` everywhere, so no browser second-guesses a
  problem+json or an event stream into something it would render or run.
- ``OPTIONS`` that is not a CORS preflight (see :mod:`shared.http.middleware.cors`) asks which methods a
  resource has: ``204`` with ``Allow`` and no body (Flask's own answer is a ``200``
  with an empty ``text/html`` body).
"""

from __future__ import annotations

from flask import Flask, Response, request

from shared.http.hookmarks import covered


def init_headers(app: Flask) -> None:
    """Add the headers to every response the app gives."""

    @app.after_request
    @covered
    def _headers(response: Response) -> Response:
        response.headers["X-Content-Type-Options"] = "nosniff"
        if request.method != "OPTIONS" or response.status_code != 200:
            return response
        rule = request.url_rule
        if rule is not None and getattr(rule, "provide_automatic_options", False):
            # Flask's automatic answer: it already carries Allow
            response.status_code = 204
            response.set_data(b"")
            del response.headers["Content-Type"]
        return response
