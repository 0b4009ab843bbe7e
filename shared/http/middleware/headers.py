"""Headers on every answer, and the answer to a plain ``OPTIONS``.

- ``X-Content-Type-Options: nosniff`` everywhere, so no browser second-guesses a
  problem+json or an event stream into something it would render or run;
- ``X-Frame-Options: DENY`` and (unless the answer has a CSP of its own, which says
  ``frame-ancestors`` itself) ``Content-Security-Policy: frame-ancestors 'none'`` on
  every answer but the embed page's (shared/http/embed_page.py).
- ``OPTIONS`` that is not a CORS preflight (see :mod:`shared.http.middleware.cors`) asks
  which methods a resource has: ``204`` with ``Allow`` and no body (Flask's own answer is
  a ``200`` with an empty ``text/html`` body).

The middleware's work on an answer's headers is done through :class:`HeaderMap`: a
Flask response's ``Headers``, or the :class:`HeaderList` of an answer
shared/http/fastpath.py sends itself, so each header is added in one place for both.
"""

from __future__ import annotations

from typing import Protocol

from flask import Flask, Response, g, request
from werkzeug.http import parse_set_header


class HeaderMap(Protocol):
    """What the middleware uses of werkzeug's ``Headers``."""

    def __contains__(self, name: str, /) -> bool: ...

    def get(self, name: str, /) -> str | None: ...

    def __setitem__(self, name: str, value: str, /) -> None: ...


class HeaderList:
    """A WSGI header list (``pairs``, in order) with the :class:`HeaderMap` methods,
    which behave as werkzeug's ``Headers`` do (names without regard to case; setting
    replaces the first of a name in place and drops the others, or appends)."""

    __slots__ = ("pairs",)

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def get(self, name: str) -> str | None:
        lower = name.lower()
        for key, value in self.pairs:
            if key.lower() == lower:
                return value
        return None

    def __setitem__(self, name: str, value: str) -> None:
        lower, pairs = name.lower(), self.pairs
        for index, (key, _) in enumerate(pairs):
            if key.lower() == lower:
                pairs[index] = (name, value)
                pairs[index + 1 :] = [p for p in pairs[index + 1 :] if p[0].lower() != lower]
                return
        pairs.append((name, value))


def add_headers(headers: HeaderMap, framable: bool = False) -> None:
    """The headers every answer carries; and, but on the embed page (``framable``:
    shared/http/embed_page.py sets its own ``frame-ancestors``), the refusal to be
    framed by anyone (clickjacking)."""
    headers["X-Content-Type-Options"] = "nosniff"
    if not framable:
        headers["X-Frame-Options"] = "DENY"
        if "Content-Security-Policy" not in headers:
            headers["Content-Security-Policy"] = "frame-ancestors 'none'"


def add_vary(headers: HeaderMap, name: str) -> None:
    """Add ``name`` to the ``Vary`` header, as werkzeug's ``response.vary.add`` does."""
    vary = parse_set_header(headers.get("Vary"))
    if name not in vary:
        vary.add(name)
        headers["Vary"] = vary.to_header()


def finish_answer(response: Response) -> Response:
    """The after-request hook: :func:`add_headers`, and a plain ``OPTIONS`` made a 204."""
    add_headers(response.headers, g.get("framable", False))
    if request.method != "OPTIONS" or response.status_code != 200:
        return response
    rule = request.url_rule
    if rule is not None and getattr(rule, "provide_automatic_options", False):
        # Flask's automatic answer: it already carries Allow
        response.status_code = 204
        response.set_data(b"")
        del response.headers["Content-Type"]
    return response


def init_headers(app: Flask) -> None:
    """Add the headers to every response the app gives."""
    app.after_request(finish_answer)
