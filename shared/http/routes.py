"""The one blueprint of a game service: thin HTTP wiring around :class:`Games`."""

from __future__ import annotations

import re
from typing import Any

from flask import Response, current_app, request
from flask_smorest import Blueprint
from marshmallow import Schema
from webargs import core
from webargs.flaskparser import FlaskParser, abort
from werkzeug.http import parse_etags

from shared.games import OVER, Games, IfMatch, seat_ops
from shared.games.access import invalid_token, missing_token, require_seat, seat_of
from shared.games.tokens import hash_token
from shared.http import argmemo, jsonbody, webhooks
from shared.http import schemas as s
from shared.http.errors import PROBLEM_MIME, invalid, title
from shared.http.middleware.apikeys import owner, owner_index
from shared.http.middleware.ratelimit import client_address
from shared.store import Doc, jsoncodec
from shared.streaming.events import long_poll, sse_stream

IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
Answer = dict[str, Any] | tuple[dict[str, Any], int, dict[str, str]] | Response
"""What a view returns: a body, a body with status and headers, or a ready response."""
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
IF_MATCH_DOC = {
    "in": "header",
    "name": "If-Match",
    "schema": {"type": "string"},
    "description": 'Apply only at this version, e.g. `"7"` (else 412 version-mismatch).',
}
IF_NONE_MATCH_DOC = {
    "in": "header",
    "name": "If-None-Match",
    "schema": {"type": "string"},
    "description": 'The ETag you hold, e.g. `"7"`: 304 with no body while it is current.',
}
WWW_AUTHENTICATE_DOC = {
    "schema": {"type": "string"},
    "description": 'The bearer challenge, e.g. `Bearer realm="boardgames"`.',
}


class StrictParser(FlaskParser):
    """Parses any non-empty body as JSON whatever its Content-Type (a body that is not
    JSON is a 400 ``invalid-json``, never silently ignored) and rejects unknown
    query parameters as well as unknown body fields. The JSON is strict
    (:mod:`shared.http.jsonbody`: bounded depth, unique keys, no 5xx from huge integers)."""

    DEFAULT_UNKNOWN_BY_LOCATION = {**FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION, "query": "raise"}

    @staticmethod
    def memo_key(location: str, unknown: Any, raw: bytes) -> bytes:
        """The key of a raw body or query string in a schema's memo (shared/http/argmemo.py);
        also how shared/http/fastpath.py finds a move body loaded before."""
        return f"{location}:{unknown}:".encode() + raw

    def parse(self, argmap: Any, req: Any = None, **kwargs: Any) -> Any:
        """webargs' parse, through the schema's memo when it has one (shared/http/argmemo.py):
        the same raw body or query string loads to what it loaded to before."""
        memo = argmemo.memo_of(argmap)
        if memo is None or kwargs.get("validate") is not None:
            return super().parse(argmap, req, **kwargs)
        req = req if req is not None else self.get_default_request()
        location = kwargs.get("location") or self.location
        if location == "json":
            raw = jsonbody.read_body(req)
        elif location in ("query", "querystring"):
            raw = req.query_string
        else:
            return super().parse(argmap, req, **kwargs)
        key = self.memo_key(location, kwargs.get("unknown"), raw)
        found = memo.get(key)
        if found is None:
            found = super().parse(argmap, req, **kwargs)
            memo.put(key, found)
        return found

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
    """The memoized move schema of ``POST /games/{id}/moves`` (for shared/http/fastpath.py)."""


class EmptySchema(Schema):
    """No fields: any field sent is rejected."""


def games() -> Games:
    found: Games = current_app.extensions["game_kit"].games
    return found


def bearer() -> str | None:
    """The hash of the request's bearer token (hashed here, once per request); ``None``
    without an Authorization header. Any other scheme or an empty token is a 401, like a
    missing token."""
    return bearer_of(request.headers.get("Authorization"))


def bearer_of(header: str | None) -> str | None:
    """:func:`bearer` of an ``Authorization`` header's value."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise missing_token()
    if len(token) > 256:
        raise invalid_token()
    return hash_token(token)


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


def view_body(kit: Games, doc: Doc, seat: int | None, include: str | None) -> dict[str, Any]:
    """The body of ``GET /games/{id}``: the seat's view, with its legal moves when
    ``include`` asks for them (shared with shared/http/fastpath.py)."""
    body = kit.view(doc, seat)
    if include == "legal_moves":
        body["legal_moves"] = [] if seat is None else kit.legal_moves(doc, seat)
    return body


def move_body(
    kit: Games,
    game_id: str,
    authorization: str | None,
    move: dict[str, Any],
    if_match_header: str | None,
    key: str | None,
) -> dict[str, Any]:
    """The work and body of ``POST /games/{id}/moves`` from the request's parsed move
    and raw headers (shared with shared/http/fastpath.py)."""
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        detail = "Idempotency-Key must be 1-200 visible ASCII characters."
        raise invalid("headers", "Idempotency-Key", detail, "Invalid.")
    return kit.move(game_id, bearer_of(authorization), move, if_match_of(if_match_header), key)


def etag_headers(version: int) -> dict[str, str]:
    """Every answer carrying a version varies with the bearer (seat views differ)."""
    return {"ETag": f'"{version}"', "Vary": "Authorization"}


def as_built(body: dict[str, Any], headers: dict[str, str], status: int = 200) -> Response:
    """``body`` encoded as it is, skipping the route's response schema.

    For answers built field by field as their schema documents them
    (:mod:`shared.games.answers`): there a marshmallow dump only copies the body (about
    6% of a move's worker CPU in the profile in docs/performance.md). Over whole games,
    ``tests/kit/test_answers_as_built.py`` checks that each such body is exactly what
    the schema's dump would send.
    """
    data = jsoncodec.dumps(body) + b"\n"  # what Flask's jsonify writes
    return Response(data, status=status, headers=headers, mimetype="application/json")


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


def make_blueprint(options_schema: type[Schema], move_schema: type[Schema]) -> KitBlueprint:
    """The game service's routes, documented with the game's option and move schemas.

    Argument schemas are given as instances: given a class, webargs builds one per request.
    """
    blp = KitBlueprint("games", __name__, description="Games, players, moves and events.")
    blp.move_args = argmemo.memoized(move_schema())  # its load depends on the body alone

    @blp.route("/games", methods=["POST"])
    @blp.arguments(options_schema(), required=False, description="The game's options.")
    @blp.response(
        201, s.CreatedSchema, headers={"Location": {"schema": {"type": "string"}}, **ETAG}
    )
    @blp.doc(security=[{}, *BEARER])  # an API key, when the operator turned keys on
    @blp.doc(responses=problems(400, 401, 403, 409, 413, 422, 429, 503))
    @blp.doc(operationId="createGame")
    def create_game(options: dict[str, Any]) -> Answer:
        """Create a game; the answer carries the host token, shown once.

        Options are the game's own plus `players` (seats) and `seed` (random when omitted, and
        then committed to by `seed_commitment`). Keep `host_token`: it starts and cancels
        the game and is never shown again. With API keys on, send a key as bearer token.
        """
        kit = games()
        webhook, secret = webhooks.for_game(kit, options)
        doc, host_token = kit.create(options, owner(), webhook)
        body = {"id": doc["id"], "host_token": host_token, "game": kit.view(doc, None)}
        if webhook is not None:
            body |= {"webhook_id": webhook["id"], "webhook_secret": secret}
        headers = {"Location": f"/games/{doc['id']}", **etag_headers(doc["version"])}
        return body, 201, headers

    @blp.route("/games", methods=["GET"])
    @blp.arguments(s.ListQuerySchema(), location="query")
    @blp.response(200, s.GameListSchema)
    @blp.doc(security=[{}, *BEARER])  # an API key, when the operator turned keys on
    @blp.doc(responses=problems(401, 403, 422, 503))
    @blp.doc(operationId="listGames")
    def list_games(query: dict[str, Any]) -> Answer:
        """List games, newest first; filter by ``status``; follow ``next_cursor``.

        Public facts only (never tokens or hidden state). Pass `next_cursor` back as
        `cursor` for the next page; it is `null` on the last one.
        """
        kit = games()
        try:
            docs, cursor = kit.store.list_games(
                query.get("status"), query["limit"], query.get("cursor"), owner_index(kit)
            )
        except ValueError as error:
            detail = "The cursor is not one this service issued."
            raise invalid("query", "cursor", detail, "Invalid cursor.") from error
        return {"games": [kit.summary(d) for d in docs], "next_cursor": cursor}

    @blp.route("/games/<game_id>/players", methods=["POST"])
    @blp.arguments(s.JoinSchema())
    @blp.response(201, s.JoinedSchema, headers=ETAG)
    @blp.doc(security=[{}, *BEARER])
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 412, 413, 422, 429, 503))
    @blp.doc(operationId="joinGame", parameters=[IF_MATCH_DOC])
    def join_game(body: dict[str, Any], game_id: str) -> Answer:
        """Take the next seat; the answer carries the seat's token, shown once. With
        ``bot`` and the host token, seat a bot instead (its token is ``null``).

        Seats are given in join order while the game is open. Keep `token`: it acts for
        this seat alone and is never shown again.
        """
        kit = games()
        if "bot" in body:
            doc, seat = seat_ops.add_bot(
                kit, game_id, bearer(), body["bot"], body.get("name"), if_match()
            )
            payload: dict[str, Any] = {"seat": seat, "token": None, "game": kit.view(doc, None)}
            return payload, 201, etag_headers(doc["version"])
        webhook, secret = webhooks.for_seat(kit, body)
        doc, seat, token = kit.join(game_id, body["name"], if_match(), webhook)
        payload = {"seat": seat, "token": token, "game": kit.view(doc, seat)}
        if webhook is not None:
            reg = next(r for r in doc["webhooks"] if r["seat"] == seat)
            payload |= {"webhook_id": reg["id"], "webhook_secret": secret}
        return payload, 201, etag_headers(doc["version"])

    @blp.route("/games/<game_id>/players/me", methods=["DELETE"])
    @blp.response(200, s.ViewSchema, headers=ETAG)
    @blp.doc(operationId="leaveGame", parameters=[IF_MATCH_DOC])
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(401, 403, 404, 409, 412, 503))
    def leave_game(game_id: str) -> Answer:
        """Leave an open game (seat token): later joiners move down one seat.

        Only while the game is open; once it runs, resign instead. The token stops working.
        """
        kit = games()
        doc = seat_ops.leave(kit, game_id, bearer(), if_match())
        return kit.view(doc, None), 200, etag_headers(doc["version"])

    @blp.route("/games/<game_id>/resign", methods=["POST"])
    @blp.arguments(EmptySchema(), required=False)
    @blp.response(200, s.ViewSchema, headers=ETAG)
    @blp.doc(operationId="resignGame", parameters=[IF_MATCH_DOC])
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 412, 413, 422, 503))
    def resign_game(_body: dict[str, Any], game_id: str) -> Answer:
        """Resign (seat token): a bot plays the seat to the end; it ranks last.

        The answer is the resigning seat's view; the seat's status becomes `resigned`.
        """
        kit = games()
        doc, seat = seat_ops.resign(kit, game_id, bearer(), if_match())
        return kit.view(doc, seat), 200, etag_headers(doc["version"])

    @blp.route("/games/<game_id>/start", methods=["POST"])
    @blp.arguments(EmptySchema(), required=False)
    @blp.response(200, s.ViewSchema, headers=ETAG)
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 412, 413, 422, 503))
    @blp.doc(operationId="startGame", parameters=[IF_MATCH_DOC])
    def start_game(_body: dict[str, Any], game_id: str) -> Answer:
        """The host starts the game with the players who joined.

        Needs the host token and at least the game's minimum of players; the seats left
        empty are dropped. The answer is the spectator's view of the started game.
        """
        kit = games()
        doc = kit.start(game_id, bearer(), if_match())
        return kit.view(doc, None), 200, etag_headers(doc["version"])

    @blp.route("/games/<game_id>", methods=["DELETE"])
    @blp.response(200, s.ViewSchema, headers=ETAG)
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(401, 403, 404, 409, 412, 503))
    @blp.doc(operationId="cancelGame", parameters=[IF_MATCH_DOC])
    def cancel_game(game_id: str) -> Answer:
        """The host cancels the game.

        Needs the host token; an open or running game becomes `cancelled` (409 once over).
        """
        kit = games()
        doc = kit.cancel(game_id, bearer(), if_match())
        return kit.view(doc, None), 200, etag_headers(doc["version"])

    @blp.route("/games/<game_id>", methods=["GET"])
    @blp.arguments(argmemo.memoized(s.ViewQuerySchema()), location="query")
    @blp.response(200, s.ViewSchema, headers=ETAG)
    @blp.alt_response(304, description="Not modified (If-None-Match).", headers=ETAG)
    @blp.doc(security=[{}, *BEARER])
    @blp.doc(responses=problems(401, 403, 404, 422, 503))
    @blp.doc(operationId="getGame", parameters=[IF_NONE_MATCH_DOC])
    def get_game(query: dict[str, Any], game_id: str) -> Answer:
        """The game as the bearer's seat may see it (a spectator's view without a token).

        A seat's token shows that seat's private information (its hand, its plan) too;
        without a token, or with the host token, it is the spectator's view. Send the
        last `ETag` in `If-None-Match` to get a bodiless 304 while nothing changed. With
        `include=legal_moves` the view also lists the seat's legal moves (none for a spectator).
        """
        kit = games()
        doc = kit.load(game_id)
        seat = seat_of(doc, bearer())
        headers = etag_headers(doc["version"])
        if request.if_none_match.contains_weak(str(doc["version"])):
            return Response(status=304, headers=headers)
        return as_built(view_body(kit, doc, seat, query.get("include")), headers)

    @blp.route("/games/<game_id>/legal-moves", methods=["GET"])
    @blp.response(200, s.LegalMovesSchema, headers=ETAG)
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(401, 403, 404, 503))
    @blp.doc(operationId="listLegalMoves")
    def legal_moves(game_id: str) -> Answer:
        """The bearer's legal moves now, each postable unchanged, and their subset choices.

        `moves`: every legal move, each postable to `/moves` unchanged. `choices`: the
        subset fields (e.g. Wind City's renewals and insurance) a listed move may fill
        instead, with each option's price and the budget; see docs/api.md. Both are empty
        unless the game runs and the bearer's seat is expected to act.
        """
        kit = games()
        doc = kit.load(game_id)
        seat = require_seat(doc, bearer())
        body = {"moves": kit.legal_moves(doc, seat), "choices": kit.choices(doc, seat)}
        return as_built(body, etag_headers(doc["version"]))

    @blp.route("/games/<game_id>/moves", methods=["POST"])
    @blp.arguments(blp.move_args)
    @blp.response(200, s.MoveResultSchema, headers=ETAG)
    @blp.doc(
        security=BEARER,
        parameters=[
            {
                "in": "header",
                "name": "If-Match",
                "schema": {"type": "string"},
                "description": 'Apply only at this version, e.g. `"7"` (else 412).',
            },
            {
                "in": "header",
                "name": "Idempotency-Key",
                "schema": {"type": "string", "pattern": IDEMPOTENCY_KEY.pattern},
                "description": "A retry with the same key gets the first answer.",
            },
        ],
    )
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 412, 413, 422, 429, 503))
    @blp.doc(operationId="makeMove")
    def make_move(move: dict[str, Any], game_id: str) -> Answer:
        """Make a move for the bearer's seat: the new view and the events it caused.

        The move is checked against the game's rules (409 with the rule's `code` when
        illegal, and nothing changes). Retry safely with the same `Idempotency-Key`.
        """
        headers = request.headers
        body = move_body(
            games(),
            game_id,
            headers.get("Authorization"),
            move,
            headers.get("If-Match"),
            headers.get("Idempotency-Key"),
        )
        return as_built(body, etag_headers(body["game"]["version"]))

    @blp.route("/games/<game_id>/score", methods=["GET"])
    @blp.response(200, s.ScoreboardSchema)
    @blp.doc(responses=problems(404, 503))
    @blp.doc(operationId="getScore")
    def get_score(game_id: str) -> Answer:
        """Scores so far (public) and the result once over.

        No token needed: the score breakdown is public.
        """
        kit = games()
        return kit.score(kit.load(game_id))

    @blp.route("/games/<game_id>/events", methods=["GET"])
    @blp.arguments(s.EventsQuerySchema(), location="query")
    @blp.response(200, s.EventPageSchema)
    @blp.doc(responses=problems(404, 422, 429, 503))
    @blp.doc(operationId="getEvents")
    def get_events(query: dict[str, Any], game_id: str) -> Answer:
        """Events after ``after``: long-poll up to ``wait`` seconds, or an SSE stream.

        With `Accept: text/event-stream` the answer is a Server-Sent Events stream, one
        message per event (`id:` the event id, `event:` its type, `data:` the event as
        JSON), resumable with `Last-Event-ID`; it ends once the game is over.
        """
        kit = games()
        gate, address = current_app.extensions["game_kit"].waits, client_address()
        sse = "text/event-stream" in request.accept_mimetypes  # type: ignore[comparison-overlap]
        if query["wait"] > 0 or sse:
            gate.check(address)  # over a cap: refused before any Redis work
        doc = kit.load(game_id)
        wants = request.accept_mimetypes.best_match(
            ["application/json", "text/event-stream"], default="application/json"
        )
        if wants != "text/event-stream":
            after, wait = query.get("after"), query["wait"]
            return long_poll(kit.store, doc, after, wait, query["limit"], gate, address)
        after = request.headers.get("Last-Event-ID") or query.get("after")
        if after is not None and not s.is_event_id(after):
            detail = "Last-Event-ID must be an event id."
            raise invalid("headers", "Last-Event-ID", detail, "Invalid event id.")
        config = current_app.config
        stream = sse_stream(
            kit.store,
            doc["id"],
            after,
            doc["status"] in OVER,
            config["SSE_HEARTBEAT_SECONDS"],
            config["SSE_MAX_SECONDS"],
        )
        slot = gate.enter(address)  # 429/503 now, before the stream's 200 goes out
        response = Response(
            stream,
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        response.call_on_close(slot.release)  # the server closes it, however it ended
        return response

    @blp.route("/games/<game_id>/log", methods=["GET"])
    @blp.response(200, s.LogSchema)
    @blp.doc(responses=problems(404, 503))
    @blp.doc(operationId="getLog")
    def get_log(game_id: str) -> Answer:
        """Every event; once the game is over also the seed and all moves, to replay it.

        Once over, `seed`, `salt` and `moves` let anyone replay the game and check
        `seed_commitment`.
        """
        kit = games()
        return kit.log(kit.load(game_id))

    webhooks.add_routes(blp, bearer, problems)
    return blp
