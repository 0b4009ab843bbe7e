"""The table chat (issue 41): a game's messages, the canned phrases, a reader's mutes.

- ``GET /games/{id}/chat``: the messages the reader reads, in order, resumable with
  ``after`` (a message id or an event id: one cursor for both), waiting with ``wait``
  (shared/streaming/chat.py);
- ``POST /games/{id}/chat``: a message, ``{"text"}`` or ``{"phrase"}``, with a seat
  token or a player key (rate limited per sender and per address);
- ``GET /chat/phrases``: the canned phrases in the request's language;
- ``GET /games/{id}/chat/mutes``, ``PUT`` and ``DELETE /games/{id}/chat/mutes/{target}``:
  the reader's mutes (a seat ``2`` or a player ``player:<id>``).

The messages also come on the game's event stream (shared/http/resources/events.py).
Thin wiring around shared/games/chat.py.
"""

from __future__ import annotations

from typing import Any

from flask import current_app

from shared.games import players
from shared.games.audience import PLAYER, Audience
from shared.games.chat import PHRASES, ChatReader, player_of
from shared.games.document import GameDoc
from shared.http.errors import language_headers, request_language
from shared.http.middleware.ratelimit import client_address
from shared.http.resources.blueprint import (
    BEARER,
    KitBlueprint,
    games,
    json_answer,
    problems,
    public_reader,
    reader,
    send,
)
from shared.http.schemas import chat as s
from shared.http.schemas import requests as q
from shared.i18n import translate
from shared.store import normalize_after
from shared.streaming.chat import chat_poll


def chat_reader(doc: GameDoc, who: Audience) -> ChatReader:
    """How ``who`` sees the chat of ``doc``, its phrases in the request's language (the
    events stream builds it too); a player never hears the players it blocked (one
    read of its blocks, shared/store/moderation.py)."""
    language = request_language()
    kit = games()
    player = player_of(doc, who)  # (a seat token of a player's seat too)
    blocked = kit.store.moderation.blocks(player) if player is not None else ()
    return kit.chat.reader(doc, who, lambda text: translate(text, language), blocked)


def _sender(doc: GameDoc, who: Audience) -> str:
    """Whom ``RATE_LIMIT_CHAT`` counts: the player, or the game's seat."""
    if who.player is not None:
        return f"player:{who.player}"
    return f"{doc['id']}:seat:{who.seat}"


def _check_standing(doc: GameDoc, who: Audience) -> None:
    """A seat token of a player's seat talks as that player (:func:`player_of`): 403
    ``player-suspended`` while that player is suspended (one read of the registry; a
    player key was checked with the key, a seat of no player is nobody's to suspend)."""
    bound = player_of(doc, who) if who.player is None else None
    if bound is not None:
        players.check_standing((games().store.registry.get(bound) or {}).get("suspended"))


def _spectator_name(who: Audience) -> str:
    """A player's name without a seat (its registry's: one read)."""
    if who.kind != PLAYER or who.player is None:
        return ""
    fields = games().store.registry.get(who.player) or {}
    return fields.get("name", "")


def _answer(body: Any, status: int = 200) -> Any:
    """``body`` in the request's language (phrases), varying with it and with the
    reader (channels, mutes)."""
    headers = language_headers({}, request_language())
    headers["Vary"] = "Accept-Language, Authorization"
    return send(json_answer(body, status, headers))


def add_routes(blp: KitBlueprint) -> None:
    """The chat routes (see the module's docstring)."""

    @blp.route("/chat/phrases", methods=["GET"])
    @blp.response(200, s.ChatPhrasesSchema)
    @blp.doc(operationId="getChatPhrases")
    def get_phrases() -> Any:
        """The canned phrases: each one's code and text in the request's language.

        Send one with `POST /games/{id}/chat` `{"phrase": "<code>"}`: each reader sees it
        in its own language (`Accept-Language`: en, ja, de).
        """
        language = request_language()
        phrases = [{"code": p.code, "text": translate(p.text, language)} for p in PHRASES]
        return _answer({"phrases": phrases})

    @blp.route("/games/<game_id>/chat", methods=["GET"])
    @blp.arguments(s.ChatQuerySchema(), location="query")
    @blp.response(200, s.ChatPageSchema)
    @blp.doc(operationId="getChat", responses=problems(403, 404, 422, 429, 503))
    def get_chat(query: dict[str, Any], game_id: str) -> Any:
        """The chat messages you read, oldest first, after `after`.

        Seats read the players' channel; those watching without a seat also read the
        spectators' channel, which seats read only once the game is over. The messages
        of senders you muted (or blocked) are left out. 403 `chat-channel-hidden` for a
        `channel` you do not read now. With `wait` (seconds, up to 30), waits for the
        first message when there is none yet, also once the game is over (the event
        stream then has closed); capped like an events long-poll.
        """
        kit = games()
        gate, address = current_app.extensions["game_kit"].waits, client_address()
        if query["wait"] > 0:
            gate.check(address)  # over a cap: refused before any Redis work
        doc = kit.writes.load(game_id)
        view = chat_reader(doc, public_reader(doc))
        after, channel = normalize_after(query.get("after")), query.get("channel")
        found = chat_poll(
            kit, doc, view, channel, after, query["limit"], query["wait"], gate, address
        )
        messages = [view.present(m) for m in found]
        last_id = found[-1]["id"] if found else query.get("after") or "0"
        return _answer({"messages": messages, "last_id": last_id})

    @blp.route("/games/<game_id>/chat", methods=["POST"])
    @blp.arguments(q.WatchQuerySchema(), location="query", as_kwargs=True)
    @blp.arguments(s.ChatPostSchema())
    @blp.response(201, s.ChatSentSchema)
    @blp.doc(security=BEARER, operationId="postChat")
    @blp.doc(responses=problems(400, 401, 403, 404, 413, 422, 429, 503))
    def post_chat(body: dict[str, Any], game_id: str, **_: str) -> Any:
        """Send a message: `{"text": "..."}` or a canned phrase `{"phrase": "gg"}`.

        A seat (its token, or its player's key) talks in the players' channel; a
        player without a seat in the spectators' channel when the host allowed it
        (`spectator_chat`), else 403 `spectator-chat-closed`. The host's token alone: 403
        `seat-token-required`; no credential: 401. A suspended player is refused, with
        a seat token of its seat too (403 `player-suspended`). At most `RATE_LIMIT_CHAT`
        per sender and `RATE_LIMIT_CHAT_ADDRESS` per address: 429 `rate-limited` with
        `Retry-After`, and nothing is stored.
        """
        kit = games()
        doc = kit.writes.load(game_id)
        who = reader(doc)
        _check_standing(doc, who)
        name = _spectator_name(who) if who.kind == PLAYER else ""
        message = kit.chat.message(doc, who, body.get("text"), body.get("phrase"), name)
        current_app.extensions["address_limits"].count_chat(_sender(doc, who))
        stored = kit.chat.post(doc, message)
        return _answer({"message": chat_reader(doc, who).present(stored)}, 201)

    @blp.route("/games/<game_id>/chat/mutes", methods=["GET"])
    @blp.response(200, s.ChatMutesSchema)
    @blp.doc(security=BEARER, operationId="getChatMutes")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def get_mutes(game_id: str) -> Any:
        """The senders you muted in this game.

        Seats as their number (`2`), players without a seat as `player:<id>`.
        """
        kit = games()
        doc = kit.writes.load(game_id)
        return _answer({"mutes": kit.chat.mutes(doc, reader(doc))})

    @blp.route("/games/<game_id>/chat/mutes/<target>", methods=["PUT"])
    @blp.response(200, s.ChatMutesSchema)
    @blp.doc(security=BEARER, operationId="muteChat")
    @blp.doc(responses=problems(401, 403, 404, 409, 422, 503))
    def mute(game_id: str, target: str) -> Any:
        """Mute a sender in this game: a seat (`2`) or a player (`player:<id>`).

        Its messages are left out of what you read (the chat and the event stream),
        and only yours. Your mutes come back. 404 `mute-target-not-found`.
        """
        kit = games()
        doc = kit.writes.load(game_id)
        return _answer({"mutes": kit.chat.mute(doc, reader(doc), target, True)})

    @blp.route("/games/<game_id>/chat/mutes/<target>", methods=["DELETE"])
    @blp.response(200, s.ChatMutesSchema)
    @blp.doc(security=BEARER, operationId="unmuteChat")
    @blp.doc(responses=problems(401, 403, 404, 422, 503))
    def unmute(game_id: str, target: str) -> Any:
        """Hear a sender you muted again.

        Your mutes come back (unmuting one you did not mute changes nothing).
        """
        kit = games()
        doc = kit.writes.load(game_id)
        return _answer({"mutes": kit.chat.mute(doc, reader(doc), target, False)})
