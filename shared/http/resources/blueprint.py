"""What every resource module shares: the blueprint and its strict argument parser, the
request's bearer and ``If-Match``, the answer as built, and the OpenAPI snippets the
routes repeat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from flask import Response, current_app, g, request
from flask_smorest import Blueprint
from marshmallow import Schema
from webargs import core
from webargs.flaskparser import FlaskParser, abort
from werkzeug.http import parse_etags

from shared.games import Games, IfMatch
from shared.games.access import audience_of
from shared.games.audience import Audience
from shared.games.document import GameDoc
from shared.games.errors import GameError
from shared.http import jsonbody
from shared.http.errors import PROBLEM_MIME, ApiError, title
from shared.http.identity import credential_of
from shared.store import jsoncodec

BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
RETRY_AFTER_DOC = {
    "schema": {"type": "string"},
    "description": "Seconds to wait before trying again.",
}
ETAG_DOC = {
    "schema": {"type": "string"},
    "description": 'The game\'s version as an entity tag, e.g. `"7"` (send it in If-Match).',
}
ETAG = {"ETag": ETAG_DOC}
IF_NONE_MATCH_DOC = {
    "in": "header",
    "name": "If-None-Match",
    "schema": {"type": "string"},
    "description": 'The ETag you hold, e.g. `"7"`: 304 with no body while it is current.',
}
IF_MATCH_DOC = {
    "in": "header",
    "name": "If-Match",
    "schema": {"type": "string"},
    "description": 'Apply only at this version, e.g. `"7"` (else 412 version-mismatch).',
}
WWW_AUTHENTICATE_DOC = {
    "schema": {"type": "string"},
    "description": 'The bearer challenge, e.g. `Bearer realm="boardgames"`.',
}
JSON = "application/json"


class StrictParser(FlaskParser):
    """Parses any non-empty body as JSON whatever its Content-Type (a body that is not
    JSON is a 400 ``invalid-json``, never silently ignored) and rejects unknown
    query parameters as well as unknown body fields. The JSON is strict
    (:mod:`shared.http.jsonbody`: bounded depth, unique keys, no 5xx from huge integers)."""

    DEFAULT_UNKNOWN_BY_LOCATION = {**FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION, "query": "raise"}

    def load_body(self, schema: Schema, data: bytes) -> Any:
        """What :meth:`parse` loads from a JSON body ``data`` for ``schema`` (the route's
        defaults: location ``json``, webargs' default ``unknown``, no validators), without
        a request (shared/http/fastpath.py). Any refusal raises; Flask's path then answers it."""
        location_data = self._body_json(data)
        unknown = core._UNKNOWN_DEFAULT_PARAM
        no_request: Any = None  # only pre_load sees it, and webargs' own ignores it
        return self._process_location_data(location_data, schema, no_request, "json", unknown, [])

    def _raw_load_json(self, req: Any) -> Any:
        return self._body_json(jsonbody.read_body(req))

    @staticmethod
    def _body_json(data: bytes) -> Any:
        if not data:
            return core.missing
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise jsonbody.InvalidJSON("not UTF-8", repr(data[:20]), error.start) from error
        return jsonbody.loads(text)

    def _handle_invalid_json_error(self, error: Any, req: Any, *args: Any, **kwargs: Any) -> Any:
        """400 ``invalid-json``, saying why when it is one of our own refusals."""
        reason = error.msg if isinstance(error, jsonbody.InvalidJSON) else str(error)
        abort(400, exc=error, messages={"json": [reason]})


class KitBlueprint(Blueprint):
    ARGUMENTS_PARSER = StrictParser()
    move_args: Schema
    """The move schema of ``POST /games/{id}/moves`` (shared/http/fastpath.py loads with it too)."""


# -- the request ------------------------------------------------------------------------


def games() -> Games:
    found: Games = current_app.extensions["game_kit"].games
    return found


def bearer() -> str | None:
    """Who the request acts for: the hash of its bearer token (hashed here, once per
    request) or its player (shared/http/identity.py); ``None`` without an
    Authorization header. Any other scheme or an empty token is a 401, like a missing
    token."""
    if "credential" not in g:
        g.credential = bearer_of(request.headers.get("Authorization"))
    found: str | None = g.credential
    return found


def watch_code() -> str | None:
    """The code a spectator reads with: the ``watch`` query parameter, else ``invite``
    (shared/games/audience.py ``admit``)."""
    args = request.args
    return args.get("watch") or args.get("invite")


def reader(doc: GameDoc) -> Audience:
    """Who reads ``doc``: the request's credential (:func:`bearer`) and watch code
    resolved against the game by :func:`shared.games.access.audience_of`, as the fast
    path resolves it."""
    return audience_of(doc, bearer(), watch_code())


def public_reader(doc: GameDoc) -> Audience:
    """:func:`reader` for the answers every admitted spectator may read (score, log,
    events): a credential that is none of this game's reads as anyone would, so the
    game's ``spectators`` option decides (403 when it admits no such spectator)."""
    if "Authorization" not in request.headers:
        return audience_of(doc, None, watch_code())
    try:
        return reader(doc)
    except (GameError, ApiError) as error:
        if getattr(error, "code", None) in WATCH_REFUSALS:
            raise
        return audience_of(doc, None, watch_code())


WATCH_REFUSALS = ("spectators-not-allowed", "watch-link-required", "invalid-watch-code")
"""The refusals of :func:`shared.games.audience.admit` (no fallback to anyone helps)."""


bearer_of = credential_of
""":func:`bearer` of an ``Authorization`` header's value."""


def if_match() -> IfMatch:
    """A predicate on versions from ``If-Match`` (``None`` when the header is absent)."""
    return if_match_of(request.headers.get("If-Match"))


def if_match_of(header: str | None) -> IfMatch:
    """:func:`if_match` of an ``If-Match`` header's value (as ``request.if_match``
    parses it)."""
    if header is None:
        return None
    etags = parse_etags(header)
    return lambda version: etags.contains(str(version))


# -- the answer -------------------------------------------------------------------------


class Answer(NamedTuple):
    """An answer as built: its status, its headers in order (``Content-Type`` and
    ``Content-Length`` included) and its body. A view sends it with :func:`send`;
    shared/http/fastpath.py sends the very same one for the requests it answers."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes


def json_answer(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Answer:
    """``body`` as JSON, as built: the route's response schema documents it and never
    touches it (shared/http/schemas/answers.py), so no field is dropped or reordered."""
    data = jsoncodec.dumps(body) + b"\n"  # what Flask's jsonify writes
    pairs = [*(headers or {}).items(), ("Content-Type", JSON), ("Content-Length", str(len(data)))]
    return Answer(status, pairs, data)


def etag_headers(version: int) -> dict[str, str]:
    """Every answer carrying a version varies with the bearer (seat views differ)."""
    return {"ETag": f'"{version}"', "Vary": "Authorization"}


def not_modified(if_none_match: str | None, version: int) -> Answer | None:
    """The bodiless 304 (with its ETag) while ``If-None-Match`` holds ``version``."""
    if if_none_match is None or not parse_etags(if_none_match).contains_weak(str(version)):
        return None
    return Answer(304, list(etag_headers(version).items()), b"")


def send(answer: Answer) -> Response:
    """The view's response: ``answer`` as it is (its headers in their order)."""
    return Response(answer.body or None, answer.status, answer.headers)


# -- the document -----------------------------------------------------------------------


def problems(*statuses: int) -> dict[str, Any]:
    """The OpenAPI ``responses`` of an endpoint's problems (``@blp.doc(responses=...)``;
    plain dicts, as a decorator per status makes flask-smorest deep-copy schemas)."""
    content = {PROBLEM_MIME: {"schema": {"$ref": "#/components/schemas/Problem"}}}
    if 401 in statuses and 429 not in statuses:  # RATE_LIMIT_AUTH_FAILURES
        statuses = tuple(sorted((*statuses, 429)))
    responses: dict[str, Any] = {
        str(status): {"description": title(status), "content": content} for status in statuses
    }
    for status in {429, 503} & set(statuses):
        responses[str(status)]["headers"] = {"Retry-After": RETRY_AFTER_DOC}
    if 401 in statuses:
        responses["401"]["headers"] = {"WWW-Authenticate": WWW_AUTHENTICATE_DOC}
    return responses
