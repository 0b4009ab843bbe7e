"""A game's table chat as stored: one stream of messages and one hash of its readers'
mutes, in the game's ``{id}`` slot (``<p>:{<id>}:chat``, ``<p>:{<id>}:mutes``), written
by one script (``chat.lua``) and living as long as the game (the game's own writes
keep their expiry in step: ``store.lua``).

A message's id is ``<v>-<2**32 + j>`` (``entries.CHAT_SEQ``): the j-th message sent while
the game was at version v. Game events are ``<v>-<n>``, so a message sorts after the
events of its version and before those of the next, and one cursor (an event id or a
message id) resumes both streams: an events read also reads the chat after the same
cursor (:meth:`ChatStore.events_with_chat`), and a wait blocks on both streams at once
(one ``XREAD``, the two keys share a slot).

The store keeps what it is given: a message is a JSON object the games layer made
(shared/games/chat.py); mutes are a reader's targets, space-separated.

May import the store's own modules (layout, entries, events, jsoncodec) and redis.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib import resources
from typing import Any

import redis.exceptions

from shared.store import jsoncodec
from shared.store.entries import contiguous, parse_entries, position
from shared.store.events import EventReads, Events

SCRIPT = resources.files("shared.store").joinpath("chat.lua").read_text(encoding="utf-8")

Message = dict[str, Any]
"""A stored message as read: its fields as the games layer wrote them, with its ``id``
and ``version`` (the game's version when it was sent)."""


@dataclass(frozen=True)
class EventsAndChat:
    """What an events read with the chat gives: the events (or the history to rebuild
    them from), the chat messages after the same cursor, and the reader's mutes
    (``None``: not read by this read)."""

    events: Events
    chat: list[Message]
    mutes: list[str] | None


def spectated_key(prefix: str, player_id: str) -> str:
    """The games a player talked in without a seat (in the player's slot, beside its
    index of its games: shared/store/players.py)."""
    return f"{prefix}:pl:{{{player_id}}}:chat"


def message_of(entry_id: str, fields: dict[str, str]) -> Message:
    """A chat stream entry as a message: its fields, id and version."""
    message: Message = jsoncodec.loads(fields["m"])
    message["id"] = entry_id
    message["version"] = position(entry_id)[0]
    return message


def _streams(reply: Any) -> dict[str, list[tuple[str, dict[str, str]]]]:
    """An XREAD reply over several streams as ``{key: entries}`` (RESP2 or RESP3)."""
    if not reply:
        return {}
    if isinstance(reply, dict):
        return {key: value[0] for key, value in reply.items()}
    return {key: entries for key, entries in reply}


class ChatStore(EventReads):
    """The chat's part of :class:`shared.store.gamestore.GameStore`."""

    cluster: bool
    _chat: Any  # chat.lua, registered

    def post_chat(self, game_id: str, message: dict[str, Any], keep: int) -> str | None:
        """Append ``message`` to the game's chat, keeping the newest ``keep``; its id
        (``None``: no such game). One round trip."""
        game_key = self.keys(game_id)[0]
        reply = self._chat(
            keys=[game_key, *self.chat_keys(game_id)],
            args=["post", jsoncodec.dumps_text(message), keep],
        )
        return None if not reply or not reply[0] else str(reply[0])

    def chat_after(
        self, game_id: str, after: str, count: int, muter: str | None = None
    ) -> tuple[list[Message], list[str]]:
        """Up to ``count`` messages after stream id ``after`` and, with ``muter``, that
        reader's mutes (else none): one round trip."""
        chat_key, mutes_key = self.chat_keys(game_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.xrange(chat_key, f"({after}", "+", count=count)
        if muter is not None:
            pipe.hget(mutes_key, muter)
        replies = pipe.execute()
        mutes = (replies[1] or "").split() if muter is not None else []
        return [message_of(i, f) for i, f in replies[0]], mutes

    def spectated(self, player_id: str, game_id: str, ttl: int) -> None:
        """Note that the player talked in the game without a seat (its export and
        erasure find its messages there): the player's index of such games, kept
        ``ttl`` seconds after the last (the player's slot: one round trip)."""
        key = spectated_key(self.prefix, player_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(key, {game_id: time.time_ns() // 1_000_000})
        pipe.expire(key, ttl)
        pipe.execute()

    def spectated_ids(self, player_id: str) -> list[str]:
        """The games the player talked in without a seat, newest first."""
        return list(self.client.zrevrange(spectated_key(self.prefix, player_id), 0, -1))

    def drop_spectated(self, player_id: str) -> None:
        self.client.delete(spectated_key(self.prefix, player_id))

    def chat_all(self, game_id: str) -> list[Message]:
        """Every message the game's chat keeps (at most ``CHAT_MAX_MESSAGES``)."""
        return [message_of(i, f) for i, f in self.client.xrange(self.chat_keys(game_id)[0])]

    def rewrite_chat(self, game_id: str, muter: str, new: dict[str, dict[str, Any]]) -> None:
        """Replace the messages ``new`` names (id -> the message as stored, without
        its id and version) and drop ``muter``'s mutes: one script call (the stream is
        rebuilt, messages sent since kept)."""
        args: list[Any] = ["rewrite", muter]
        for message_id, message in new.items():
            args += [message_id, jsoncodec.dumps_text(message)]
        self._chat(keys=[self.keys(game_id)[0], *self.chat_keys(game_id)], args=args)

    def chat_wait(self, game_id: str, after: str, block_ms: int) -> bool:
        """Wait up to ``block_ms`` for a message after ``after`` (a blocking ``XREAD``
        on the chat alone): whether one came."""
        key = self.chat_keys(game_id)[0]
        return bool(self.blocking.xread({key: after}, count=1, block=max(1, block_ms)))

    def mutes_of(self, game_id: str, muter: str) -> list[str]:
        """The targets ``muter`` muted in the game."""
        raw = self.client.hget(self.chat_keys(game_id)[1], muter)
        return (raw or "").split()

    def change_mute(
        self, game_id: str, muter: str, target: str, mute: bool, most: int
    ) -> list[str] | None:
        """Mute (or unmute) ``target`` for ``muter``: its targets after, ``None`` when
        ``muter`` already holds ``most``; ``KeyError`` without the game."""
        game_key = self.keys(game_id)[0]
        reply = self._chat(
            keys=[game_key, *self.chat_keys(game_id)],
            args=["mute" if mute else "unmute", muter, target, most],
        )
        if not reply or not reply[0]:
            if len(reply or []) > 1:
                return None
            raise KeyError(game_id)
        return str(reply[1] or "").split()

    def events_with_chat(
        self, game_id: str, after: str, count: int, block_ms: int = 0, muter: str | None = None
    ) -> EventsAndChat:
        """:meth:`EventReads.events` and the chat after the same cursor: up to ``count``
        of each. Never waiting (``block_ms=0``): one round trip, the reader's mutes
        (``muter``) read in it (two on Redis Cluster, whose pipelines refuse scripts).
        Waiting: one ``XREAD`` blocking on both streams; when what it got of the events
        does not follow ``after`` (the stream was trimmed past the reader), they are
        read again (:meth:`EventReads.events_now`). Mutes are not read then
        (``None``)."""
        events_key = self.keys(game_id)[1]
        chat_key, mutes_key = self.chat_keys(game_id)
        if block_ms <= 0 and self.cluster:  # (a cluster pipeline refuses EVALSHA)
            now = self.events_now(game_id, after, count)
            messages, muted = self.chat_after(game_id, after, count, muter)
            return EventsAndChat(now, messages, muted if muter is not None else None)
        if block_ms <= 0:
            keys, args = self.events_call(game_id, after, count)

            def at_once() -> list[Any]:
                pipe = self.client.pipeline(transaction=False)
                # (EVALSHA itself: a Script in a pipeline asks SCRIPT EXISTS first)
                pipe.evalsha(self._history.sha, len(keys), *keys, *args)
                pipe.xrange(chat_key, f"({after}", "+", count=count)
                if muter is not None:
                    pipe.hget(mutes_key, muter)
                return pipe.execute()  # type: ignore[no-any-return]

            try:
                replies = at_once()
            except redis.exceptions.NoScriptError:  # not loaded yet (a new Redis)
                self.client.script_load(self._history.script)
                replies = at_once()
            now = self.events_reply(replies[0], after, count)
            mutes = (replies[2] or "").split() if muter is not None else None
            return EventsAndChat(now, [message_of(i, f) for i, f in replies[1]], mutes)
        reply = self.blocking.xread(
            {events_key: after, chat_key: after}, count=count, block=block_ms
        )
        found = _streams(reply)
        read = parse_entries(found.get(events_key, []), position(after), count)
        events: Events = read
        if read and not contiguous(after, read[0]["id"]):
            events = self.events_now(game_id, after, count)
        chat = [message_of(i, f) for i, f in found.get(chat_key, [])]
        return EventsAndChat(events, chat, None)
