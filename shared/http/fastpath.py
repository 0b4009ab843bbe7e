"""The two requests of every move answered without Flask's per-request machinery.

A bot's move is ``GET /games/{id}?include=legal_moves`` then ``POST /games/{id}/moves``.
Through Flask each costs about 250 µs of CPU before and after the game's own work: a
request context, URL routing, five hooks, flask-smorest's and webargs' wrappers, a
``Response`` with its ``Headers`` (docs/performance.md). :class:`HotPath`, a WSGI
layer in front of Flask, answers these two when they take the usual way and hands
everything else to Flask untouched:

- It serves only the plainest form of each: ``GET`` with no query or exactly
  ``include=legal_moves`` and no ``If-None-Match``; ``POST`` with a ``Content-Length``
  body of at most :data:`shared.http.argmemo.LONGEST` bytes that the route's own parser
  loads (through the move schema's memo, :mod:`shared.http.argmemo`); a body it refuses is
  Flask's to answer. A request with a token from an address the auth-failure limit
  blocks goes to Flask too.
- The game's work is the views' own (:func:`shared.http.routes.view_body`,
  :func:`shared.http.routes.move_body`); the success answer is what Flask would send, header
  for header (``tests/kit/test_hotpath.py`` compares them): the hooks' headers
  (``X-Content-Type-Options``, CORS, ``X-Request-Id``), their metrics and log line.
- Any error hands the request to Flask with the exception waiting
  (:meth:`shared.http.app.KitFlask.preprocess_request` raises it in place of the before-request
  hooks, whose work is done): the problem+json answer, its metrics, its log line and
  the auth-failure count come from the very handlers and hooks as before.
- It is on only while every hook of the app is one whose work it does
  (:mod:`shared.http.hookmarks`), nothing listens to Flask's request signals, and the two
  routes still lead to the two views it stands for; checked at its first request,
  after which Flask refuses new hooks as it does after any first request.
"""

from __future__ import annotations

import io
import logging
import re
import time
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from flask import Flask
from flask.signals import (
    appcontext_popped,
    appcontext_pushed,
    appcontext_tearing_down,
    request_finished,
    request_started,
    request_tearing_down,
)
from marshmallow import Schema
from webargs.core import _UNKNOWN_DEFAULT_PARAM
from werkzeug.exceptions import HTTPException

from shared.games import Games
from shared.games.access import seat_of
from shared.http import argmemo, jsonbody
from shared.http.hookmarks import is_covered
from shared.http.middleware.cors import EXPOSE_HEADERS, CorsPolicy
from shared.http.middleware.request_log import ACTOR, HEADER, log_request, new_request_id
from shared.http.middleware.request_log import log as request_log
from shared.http.routes import KitBlueprint, StrictParser, bearer_of, move_body, view_body
from shared.ops import metrics
from shared.store import jsoncodec

READ_ENDPOINT = "games.get_game"
MOVE_ENDPOINT = "games.make_move"
BLUEPRINT = "games"
_ID = r"[A-Za-z0-9_-]{1,64}"  # shared.games.base.GAME_ID: any other id is Flask's 404
_READ = re.compile(rf"/games/({_ID})")
_MOVE = re.compile(rf"/games/({_ID})/moves")
_QUERIES = {"": None, "include=legal_moves": "legal_moves"}
_PENDING = "boardgames.hot_path_error"
_SIGNALS = (
    request_started,
    request_finished,
    request_tearing_down,
    appcontext_pushed,
    appcontext_popped,
    appcontext_tearing_down,
)

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class Pending(NamedTuple):
    """An error the hot path met, for Flask to answer (see :func:`take_pending`)."""

    error: Exception
    started: float
    request_id: str


def take_pending(environ: dict[str, Any]) -> Pending | None:
    """The error the hot path left in ``environ`` for Flask to answer, if any (once)."""
    found: Pending | None = environ.pop(_PENDING, None)
    return found


class HotPath:
    """The WSGI layer (``app.wsgi_app``) answering a game's read and its moves."""

    def __init__(self, app: Flask, inner: WSGIApp, games: Games, move_args: Schema) -> None:
        self.app = app
        self.inner = inner
        self.games = games
        memo = argmemo.memo_of(move_args)
        assert memo is not None, "the move schema is memoized (shared/http/routes.py)"
        self.memo = memo
        self.move_args = move_args
        self.parser = KitBlueprint.ARGUMENTS_PARSER
        self.views = {e: app.view_functions[e] for e in (READ_ENDPOINT, MOVE_ENDPOINT)}
        self.on: bool | None = None  # decided at the first request
        self.routes = {READ_ENDPOINT: "", MOVE_ENDPOINT: ""}
        self.cors: CorsPolicy | None = None
        self.vary = "Authorization"
        self.answered = 0  # requests answered here (tests look)

    # -- deciding ------------------------------------------------------------------------

    def _decide(self) -> bool:
        """Whether this app is one the hot path can stand in for (see the module doc)."""
        app = self.app
        app._got_first_request = True  # Flask's own rule after a first request: no new hooks
        hooks: list[Any] = [app.before_request_funcs, app.after_request_funcs]
        for table in hooks:
            for key in (None, BLUEPRINT):
                if not all(is_covered(hook) for hook in table.get(key, ())):
                    return False
        others: list[Any] = [app.teardown_request_funcs, app.url_value_preprocessors]
        if any(table.get(key) for table in others for key in (None, BLUEPRINT)):
            return False
        if app.teardown_appcontext_funcs or any(s.receivers for s in _SIGNALS):
            return False
        if app.url_map.host_matching or app.subdomain_matching or app.config.get("SERVER_NAME"):
            return False  # routing that looks at the host: Flask's to do
        adapter = app.url_map.bind("localhost")
        for endpoint, path, method in (
            (READ_ENDPOINT, "/games/x", "GET"),
            (MOVE_ENDPOINT, "/games/x/moves", "POST"),
        ):
            try:
                rule, _ = adapter.match(path, method, return_rule=True)
            except HTTPException:
                return False
            if rule.endpoint != endpoint:
                return False
            self.routes[endpoint] = rule.rule
        self.cors = app.extensions.get("cors")
        self.vary = "Authorization" if self.cors is None else "Authorization, Origin"
        return True

    def _serves(self, environ: dict[str, Any], endpoint: str) -> bool:
        if self.on is None:
            self.on = self._decide()
        if not self.on or self.app.view_functions.get(endpoint) is not self.views[endpoint]:
            return False
        if "werkzeug.debug.preserve_context" in environ:  # a test client keeping contexts
            return False
        limits = self.app.extensions.get("address_limits")
        return not (limits is not None and limits.blocking and "HTTP_AUTHORIZATION" in environ)

    # -- answering -----------------------------------------------------------------------

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD")
        if method == "GET":
            found = _READ.fullmatch(environ.get("PATH_INFO", ""))
            if found is not None and "HTTP_IF_NONE_MATCH" not in environ:
                query = environ.get("QUERY_STRING", "")
                if query in _QUERIES and self._serves(environ, READ_ENDPOINT):
                    return self._read(environ, start_response, found[1], _QUERIES[query])
        elif method == "POST":
            found = _MOVE.fullmatch(environ.get("PATH_INFO", ""))
            if found is not None and self._serves(environ, MOVE_ENDPOINT):
                move = self._parsed_move(environ)
                if move is not None:
                    return self._move(environ, start_response, found[1], move)
        return self.inner(environ, start_response)

    def _read(
        self,
        environ: dict[str, Any],
        start_response: StartResponse,
        game_id: str,
        include: str | None,
    ) -> Iterable[bytes]:
        started, rid = self._begin(environ)
        kit = self.games
        try:
            doc = kit.load(game_id)
            seat = seat_of(doc, bearer_of(environ.get("HTTP_AUTHORIZATION")))
            data = jsoncodec.dumps(view_body(kit, doc, seat, include)) + b"\n"
        except Exception as error:
            return self._fail(environ, start_response, error, started, rid)
        route, version = self.routes[READ_ENDPOINT], doc["version"]
        return self._answer(environ, start_response, route, game_id, data, version, started, rid)

    def _parsed_move(self, environ: dict[str, Any]) -> Any | None:
        """The body's move as the route's parser loads it, or ``None`` for Flask's path.

        The body read here stays in the environ, where Flask's path reads it
        (:func:`shared.http.jsonbody.read_body`)."""
        length = environ.get("CONTENT_LENGTH")
        if not length or not length.isdigit() or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        size = int(length)
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if size > self.memo.longest or (limit is not None and size > limit):
            return None
        data = environ["wsgi.input"].read(size)
        if len(data) != size:  # the client went away: Flask's path reads what there is
            environ["wsgi.input"] = io.BytesIO(data)
            return None
        jsonbody.keep_body(environ, data)
        key = StrictParser.memo_key("json", _UNKNOWN_DEFAULT_PARAM, data)
        move = self.memo.get(key)
        if move is None:  # loaded as the route's parser would: a refusal is Flask's to answer
            try:
                move = self.parser.load_body(self.move_args, data)
            except Exception:
                return None
            self.memo.put(key, move)
        return move

    def _move(
        self, environ: dict[str, Any], start_response: StartResponse, game_id: str, move: Any
    ) -> Iterable[bytes]:
        started, rid = self._begin(environ)
        try:
            body = move_body(
                self.games,
                game_id,
                environ.get("HTTP_AUTHORIZATION"),
                move,
                environ.get("HTTP_IF_MATCH"),
                environ.get("HTTP_IDEMPOTENCY_KEY"),
            )
            data = jsoncodec.dumps(body) + b"\n"
        except Exception as error:
            return self._fail(environ, start_response, error, started, rid)
        route = self.routes[MOVE_ENDPOINT]
        version = body["game"]["version"]
        return self._answer(environ, start_response, route, game_id, data, version, started, rid)

    @staticmethod
    def _begin(environ: dict[str, Any]) -> tuple[float, str]:
        """What the request log's before-request hook does: the clock, the id, no actor."""
        started = time.perf_counter()
        ACTOR.set(None)
        return started, new_request_id(environ.get("HTTP_X_REQUEST_ID"))

    def _fail(
        self,
        environ: dict[str, Any],
        start_response: StartResponse,
        error: Exception,
        started: float,
        rid: str,
    ) -> Iterable[bytes]:
        """Flask answers the error, through its handlers and after-request hooks."""
        environ[_PENDING] = Pending(error, started, rid)
        return self.inner(environ, start_response)

    def _answer(
        self,
        environ: dict[str, Any],
        start_response: StartResponse,
        route: str,
        game_id: str,
        data: bytes,
        version: int,
        started: float,
        rid: str,
    ) -> Iterable[bytes]:
        """The 200 as Flask sends it (``as_built`` and the after-request hooks, in the
        order they set their headers), counted and logged as the hooks do."""
        headers = [
            ("ETag", f'"{version}"'),
            ("Vary", self.vary),
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(data))),
            ("X-Content-Type-Options", "nosniff"),
        ]
        if self.cors is not None:
            origin = environ.get("HTTP_ORIGIN")
            if origin is not None and self.cors.allowed(origin):
                headers.append(("Access-Control-Allow-Origin", origin))
                headers.append(("Access-Control-Expose-Headers", EXPOSE_HEADERS))
        headers.append((HEADER, rid))
        method = environ["REQUEST_METHOD"]
        metrics.observe_request(route, method, 200, time.perf_counter() - started)
        if request_log.isEnabledFor(logging.INFO):
            path = environ["PATH_INFO"]
            log_request(method, route, path, 200, started, game_id, rid)
        self.answered += 1
        start_response("200 OK", headers)
        return [data]
