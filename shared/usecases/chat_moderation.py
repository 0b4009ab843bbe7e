"""Moderation of the table chat (shared/games/chat.py): a report of one message with the
messages around it, and an operator's deletion of a message, which replaces it by a
placeholder everywhere (the stored message keeps its id, channel, sender and time, and
loses its text or phrase: ``deleted: true``; the chat, the events and SSE, history
included, serve it so). A report filed before keeps its own copy of the text for the
operators (its context).

May import the games layer (shared/games), the store and the use cases' moderation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shared.games.chat import ChatReader
from shared.games.document import GameDoc
from shared.games.errors import NotFound
from shared.store.chat import Message
from shared.usecases import moderation

if TYPE_CHECKING:
    from shared.games import Games

AROUND = 5
"""Messages kept on each side of a reported one (about ten in all)."""
MESSAGE_ID_MAX = 48


def _no_message() -> NotFound:
    return NotFound("message-not-found", "No chat message has this id in this game.")


def _stored(games: Games, doc: GameDoc, message_id: str) -> tuple[Message, list[Message]]:
    if len(message_id) > MESSAGE_ID_MAX or not _stream_id(message_id):
        raise _no_message()
    found, around = games.store.chat_around(doc["id"], message_id, AROUND)
    if found is None:
        raise _no_message()
    return found, around


def _stream_id(text: str) -> bool:
    head, _, tail = text.partition("-")
    return head.isdigit() and tail.isdigit()


def report_message(
    games: Games,
    doc: GameDoc,
    view: ChatReader,
    message_id: str,
    reporter: tuple[str | None, str],
    reason: str,
    note: str | None,
    seat: str | None = None,
) -> dict[str, Any]:
    """File a report of a message the reporter reads (``view``: how it reads the chat;
    404 ``message-not-found`` for one it does not), with the messages around it that
    it reads, the game and its players; the report. ``seat``: the reporting seat when
    no player reports (counted as such: :func:`moderation.file_report`)."""
    moderation.check_reason(reason, note)
    found, around = _stored(games, doc, message_id)
    if not view.visible([found]):
        raise _no_message()
    shown = [view.present(m) for m in view.visible(around)]
    target = view.present(found)
    context = {
        **moderation.game_context(games, doc["id"]),
        "message": message_id,
        "messages": shown,
    }
    subject = (target.get("player"), target.get("name"))
    return moderation.file_report(
        games.store.moderation, reporter, subject, reason, note, context, seat
    )


def delete_message(games: Games, game_id: str, message_id: str, reason: str, who: str) -> None:
    """An operator deletes a message (audited): its text or phrase leaves the store."""
    doc = games.writes.load(game_id)
    found, _ = _stored(games, doc, message_id)
    keep = ("channel", "seat", "player", "name", "at")
    replacement = {k: found.get(k) for k in keep} | {"deleted": True}
    games.store.rewrite_chat(doc["id"], "", {message_id: replacement})  # (no mutes dropped)
    target = f"message:{games.engine.NAME}/{game_id}/{message_id}"
    moderation.audit(games.store.moderation, who, "message.delete", target, reason)
