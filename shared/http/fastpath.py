"""The two requests of every move answered without Flask's per-request machinery.

A bot's move is ``GET /games/{id}?include=legal_moves`` then ``POST /games/{id}/moves``.
Through Flask each costs about 250 µs of CPU before and after the game's own work: a
request context, URL routing, the hooks, flask-smorest's and webargs' wrappers, a
``Response`` with its ``Headers`` (docs/performance.md). :class:`HotPath`, a WSGI
layer in front of Flask, answers these two when they take the usual way and hands
everything else to Flask untouched:

- It serves only the plainest form of each: ``GET`` with no query or exactly
  ``include=legal_moves`` and no ``If-None-Match``; ``POST`` with a ``Content-Length``
  body of at most :data:`LONGEST_BODY` bytes that the route's own parser loads (a body it
  refuses is Flask's to answer). A request with a token from an address the
  auth-failure limit blocks goes to Flask too.
- The answer is the views' own: the very status, headers and body that
  :func:`shared.http.resources.games.game_answer` and
  :func:`shared.http.resources.moves.move_answer` build for the views.
- The hooks' work is theirs too: each hook of the app is one of the kit's, listed in
  :data:`BEFORE` and :data:`AFTER` by name, and for each this layer calls the function the
  hook itself calls (``X-Content-Type-Options``, CORS, ``X-Request-Id``, the request
  metrics, the log line), in the order Flask runs the hooks, or nothing where the hook
  has nothing to do for these two requests (the tables say why). Any other hook (a new
  one of the kit's, another module's, a test's) turns this layer off, as does a
  receiver of Flask's request signals or routes that no longer lead to the two views:
  checked at the first request, after which Flask refuses new hooks as it does after
  any first request. ``tests/kit/test_hotpath.py`` compares the answers with Flask's,
  header for header, with their metrics and log lines.
- Any error hands the request to Flask with the exception waiting
  (:meth:`shared.http.app.KitFlask.preprocess_request` raises it in place of the before-request
  hooks, whose work is done): the problem+json answer, its metrics, its log line and
  the auth-failure count come from the very handlers and hooks as before.
"""

from __future__ import annotations

import io
import re
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
from werkzeug.exceptions import HTTPException
from werkzeug.http import HTTP_STATUS_CODES

from shared.games import Games
from shared.http import jsonbody
from shared.http.middleware.cors import CorsPolicy
from shared.http.middleware.headers import HeaderList, add_headers
from shared.http.middleware.metrics import count_request
from shared.http.middleware.request_log import begin_request, end_request
from shared.http.resources.blueprint import Answer, KitBlueprint
from shared.http.resources.games import game_answer
from shared.http.resources.moves import move_answer

READ_ENDPOINT = "games.get_game"
MOVE_ENDPOINT = "games.make_move"
BLUEPRINT = "games"
LONGEST_BODY = 512
"""A longer move body is Flask's to read (the longest legal move is a fraction of it)."""
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


class Exchange(NamedTuple):
    """A request this layer answered, as the after-request work sees it."""

    environ: dict[str, Any]
    endpoint: str
    route: str
    game_id: str
    status: int
    headers: HeaderList
    started: float
    request_id: str


Step = Callable[["HotPath", Exchange], None]


def _answer_headers(_: HotPath, x: Exchange) -> None:
    add_headers(x.headers)


def _count(_: HotPath, x: Exchange) -> None:
    count_request(x.route, x.environ["REQUEST_METHOD"], x.status, x.started, x.endpoint, None)


def _cors_headers(hot: HotPath, x: Exchange) -> None:
    assert hot.cors is not None  # the hook is there: so is its policy
    hot.cors.add_headers(x.headers, x.environ.get("HTTP_ORIGIN"))


def _log(_: HotPath, x: Exchange) -> None:
    method, path = x.environ["REQUEST_METHOD"], x.environ["PATH_INFO"]
    end_request(
        x.headers, method, x.route, path, x.status, x.started, x.game_id, x.request_id, None
    )


_KIT = "shared.http.middleware."
BEFORE: dict[str, str] = {
    _KIT + "request_log.start_request": "its request_log.begin_request begins every request",
    _KIT + "ratelimit.AddressLimits._refuse_blocked": "refuses a token only while its "
    "address is blocked, and then requests with a token are Flask's (_serves)",
    _KIT + "cors.CorsPolicy.preflight": "answers OPTIONS only",
    _KIT + "apikeys.init_api_keys.<locals>._require_key": "creating and listing games only",
}
"""The kit's before-request hooks, by qualified name, and why none is left to run here."""
AFTER: dict[str, Step | None] = {
    _KIT + "headers.finish_answer": _answer_headers,
    _KIT + "apikeys.init_api_keys.<locals>._settle": None,  # a create's reservation only
    _KIT + "metrics.count_answer": _count,
    _KIT + "cors.CorsPolicy.finish_answer": _cors_headers,
    _KIT + "ratelimit.AddressLimits._count_auth_failure": None,  # a 401 or 403 only
    _KIT + "request_log.finish_request": _log,
}
"""The kit's after-request hooks, by qualified name: the work each does on an answer
here (the same function the hook calls), or ``None`` when it has nothing to do for it."""


def hook_name(hook: Callable[..., Any]) -> str:
    """A hook's qualified name as the tables know it: where its code was defined (a bound
    method's function's), which no wrapper made with ``functools.wraps`` can borrow."""
    func = getattr(hook, "__func__", hook)
    code = getattr(func, "__code__", None)
    if code is None:
        return repr(hook)  # not a Python function: no hook the tables know
    return f"{func.__globals__['__name__']}.{code.co_qualname}"


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
        self.move_args = move_args
        self.parser = KitBlueprint.ARGUMENTS_PARSER
        self.views = {e: app.view_functions[e] for e in (READ_ENDPOINT, MOVE_ENDPOINT)}
        self.on: bool | None = None  # decided at the first request
        self.routes = {READ_ENDPOINT: "", MOVE_ENDPOINT: ""}
        self.after: list[Step] = []  # the after-request work, in the order Flask runs it
        self.cors: CorsPolicy | None = None
        self.answered = 0  # requests answered here (tests look)

    # -- deciding ------------------------------------------------------------------------

    def _decide(self) -> bool:
        """Whether this app is one the hot path can stand in for (see the module doc)."""
        app = self.app
        app._got_first_request = True  # Flask's own rule after a first request: no new hooks
        if not self._knows_the_hooks():
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
        return True

    def _knows_the_hooks(self) -> bool:
        """Whether every hook that runs for the two requests is one of the kit's (the app's
        own: none is the ``games`` blueprint's), and the after-request work in the order
        Flask runs those hooks (the last added first)."""
        app = self.app
        before, after = app.before_request_funcs, app.after_request_funcs
        if before.get(BLUEPRINT) or after.get(BLUEPRINT):
            return False
        if not all(hook_name(hook) in BEFORE for hook in before.get(None, [])):
            return False
        names = [hook_name(hook) for hook in reversed(after.get(None, []))]
        if not all(name in AFTER for name in names):
            return False
        self.after = [step for step in (AFTER[name] for name in names) if step is not None]
        return True

    def _serves(self, environ: dict[str, Any], endpoint: str) -> bool:
        if self.on is None:
            self.on = self._decide()
        if not self.on or self.app.view_functions.get(endpoint) is not self.views[endpoint]:
            return False
        if "werkzeug.debug.preserve_context" in environ:  # a test client keeping contexts
            return False
        authorization = environ.get("HTTP_AUTHORIZATION", "")
        if "HTTP_X_PLAYER" in environ or "bgp_" in authorization or "bge_" in authorization:
            return False  # a player or an embed session: Flask's (shared/http/identity.py)
        limits = self.app.extensions.get("address_limits")
        return not (limits is not None and limits.blocking and "HTTP_AUTHORIZATION" in environ)

    # -- answering -----------------------------------------------------------------------

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD")
        if method == "GET":
            found = _READ.fullmatch(environ.get("PATH_INFO", ""))
            unusual = "HTTP_IF_NONE_MATCH" in environ or "HTTP_TRANSFER_ENCODING" in environ
            if found is not None and not unusual:
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
        started, rid = begin_request(environ.get("HTTP_X_REQUEST_ID"))
        try:
            answer = game_answer(self.games, game_id, environ.get("HTTP_AUTHORIZATION"), include)
        except Exception as error:
            return self._fail(environ, start_response, error, started, rid)
        exchange = (READ_ENDPOINT, game_id, started, rid)
        return self._send(environ, start_response, answer, *exchange)

    def _parsed_move(self, environ: dict[str, Any]) -> Any | None:
        """The body's move as the route's parser loads it, or ``None`` for Flask's path.

        The body read here stays in the environ, where Flask's path reads it
        (:func:`shared.http.jsonbody.read_body`)."""
        length = environ.get("CONTENT_LENGTH")
        if not length or not length.isdigit() or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        size = int(length)
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if size > LONGEST_BODY or (limit is not None and size > limit):
            return None
        data = environ["wsgi.input"].read(size)
        if len(data) != size:  # the client went away: Flask's path reads what there is
            environ["wsgi.input"] = io.BytesIO(data)
            return None
        jsonbody.keep_body(environ, data)
        try:  # loaded as the route's parser would: a refusal is Flask's to answer
            return self.parser.load_body(self.move_args, data)
        except Exception:
            return None

    def _move(
        self, environ: dict[str, Any], start_response: StartResponse, game_id: str, move: Any
    ) -> Iterable[bytes]:
        started, rid = begin_request(environ.get("HTTP_X_REQUEST_ID"))
        try:
            answer = move_answer(
                self.games,
                game_id,
                environ.get("HTTP_AUTHORIZATION"),
                move,
                environ.get("HTTP_IF_MATCH"),
                environ.get("HTTP_IDEMPOTENCY_KEY"),
            )
        except Exception as error:
            return self._fail(environ, start_response, error, started, rid)
        exchange = (MOVE_ENDPOINT, game_id, started, rid)
        return self._send(environ, start_response, answer, *exchange)

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

    def _send(
        self,
        environ: dict[str, Any],
        start_response: StartResponse,
        answer: Answer,
        endpoint: str,
        game_id: str,
        started: float,
        rid: str,
    ) -> Iterable[bytes]:
        """The view's answer, finished by the after-request hooks' work."""
        headers = HeaderList(answer.headers)
        route, status = self.routes[endpoint], answer.status
        exchange = Exchange(environ, endpoint, route, game_id, status, headers, started, rid)
        for step in self.after:
            step(self, exchange)
        self.answered += 1
        start_response(f"{status} {HTTP_STATUS_CODES[status]}", headers.pairs)
        return [answer.body]
