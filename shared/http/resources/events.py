"""A game's events: a long-poll page, or a Server-Sent Events stream (the reading and
waiting are shared/streaming/events.py's; this is the route's wiring)."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request

from shared.games import OVER
from shared.http.errors import invalid
from shared.http.middleware.ratelimit import client_address
from shared.http.resources.blueprint import (
    KitBlueprint,
    games,
    json_answer,
    problems,
    public_reader,
    send,
)
from shared.http.resources.chat import chat_reader
from shared.http.schemas import answers as a
from shared.http.schemas import requests as q
from shared.streaming.events import long_poll, sse_stream


def add_routes(blp: KitBlueprint) -> None:
    """``GET /games/{id}/events``."""

    @blp.route("/games/<game_id>/events", methods=["GET"])
    @blp.arguments(q.EventsQuerySchema(), location="query")
    @blp.response(200, a.EventPageSchema)
    @blp.doc(responses=problems(403, 404, 422, 429, 503))
    @blp.doc(operationId="getEvents")
    def get_events(query: dict[str, Any], game_id: str) -> Any:
        """Events after an event id: a long-poll of up to 30 seconds, or an SSE stream.

        With `Accept: text/event-stream` the answer is a Server-Sent Events stream, one
        message per event (`id:` the event id, `event:` its type, `data:` the event as
        JSON), resumable with `Last-Event-ID`; it ends once the game is over.

        The table chat's messages you read come among the events (`type: chat`, ids
        `<version>-<2^32 + j>`: after the events of their version), so one cursor
        resumes both.
        """
        kit = games()
        gate, address = current_app.extensions["game_kit"].waits, client_address()
        sse = "text/event-stream" in request.accept_mimetypes  # type: ignore[comparison-overlap]
        if query["wait"] > 0 or sse:
            gate.check(address)  # over a cap: refused before any Redis work
        doc = kit.writes.load(game_id)
        who = public_reader(doc)
        chat = chat_reader(doc, who)
        wants = request.accept_mimetypes.best_match(
            ["application/json", "text/event-stream"], default="application/json"
        )
        if wants != "text/event-stream":
            after, wait = query.get("after"), query["wait"]
            page = long_poll(kit, who, doc, after, wait, query["limit"], gate, address, chat)
            return send(json_answer(page))
        after = request.headers.get("Last-Event-ID") or query.get("after")
        if after is not None and not q.is_event_id(after):
            detail = "Last-Event-ID must be an event id."
            raise invalid("headers", "Last-Event-ID", detail, "Invalid event id.")
        config = current_app.config
        stream = sse_stream(
            kit,
            who,
            doc["id"],
            after,
            doc["status"] in OVER,
            config["SSE_HEARTBEAT_SECONDS"],
            config["SSE_MAX_SECONDS"],
            doc=doc,
            chat=chat,
        )
        slot = gate.enter(address)  # 429/503 now, before the stream's 200 goes out
        response = Response(
            stream,
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        response.call_on_close(slot.release)  # the server closes it, however it ended
        return response
