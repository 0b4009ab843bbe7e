"""The table chat: what a message may say, who writes and reads which channel, and
how a reader sees a message (its name erased, its phrase in the reader's language,
the senders it muted or blocked left out).

- **Channels.** ``players`` (the seats write; everyone who may read the game reads)
  and ``spectators`` (players without a seat write, when the host lets spectators talk:
  the ``spectator_chat`` option; read by those without a seat while the game runs, by
  everyone once it is over). The policies are the audience's
  (:func:`shared.games.audience.chat_channel`, ``chat_readable``, ``chat_muter``).
- **Text.** One line of plain text, never markup (clients render text nodes): NFC,
  at most ``CHAT_MAX_LENGTH`` characters (:data:`MAX_LENGTH` at most), not only spaces,
  and no code point a reader cannot see (the names' rule,
  :func:`shared.games.names.invisible`: controls and line breaks, bidi and other format
  characters, private use, unassigned...).
- **Canned phrases** (:data:`PHRASES`, each declared once here by :func:`phrase`): sent
  as a code, shown in each reader's language (the HTTP layer translates the English
  text with the API's catalogs, shared/i18n, where ``scripts/i18n.py extract`` finds
  them).
- **Who a reader does not hear.** :func:`shown` leaves out the messages of a set of
  senders (``seat:<n>``, ``player:<id>``): the reader's mutes in this game and the
  players it blocked, given by the caller.
- **The spectator delay.** :func:`visible_version` is the one place deciding the last
  version a reader may see of the chat (a delayed spectator's cut).

A message is stored as ``{"channel", "seat", "player", "name", "at", "text" | "phrase"}``
(shared/store/chat.py gives it its id and version) and read as
``{"id", "channel", "seat", "player", "name", "text", "phrase", "phrase_text", "at",
"version", "deleted"}``; as an event, ``{"id", "type": "chat", "version", "message"}``.

May import the games layer's modules and the store.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from shared.games import audience, erased, names, options, spectate
from shared.games.access import missing_token
from shared.games.audience import CHAT_PLAYERS, CHAT_SPECTATORS, Audience
from shared.games.base import OVER, not_found
from shared.games.document import GameDoc
from shared.games.errors import Conflict, Forbidden, Invalid, NotFound
from shared.games.seats import now_ms
from shared.store import Message

if TYPE_CHECKING:
    from shared.games.base import Context

CHANNELS = (CHAT_PLAYERS, CHAT_SPECTATORS)
MAX_LENGTH = 500
"""The most characters a text may have (``CHAT_MAX_LENGTH`` may lower it, not raise it:
the request schema's bound)."""
MAX_MUTES = 100
"""Senders a reader may mute in one game."""
CHAT_EVENT = "chat"
"""The ``type`` of a chat message served as an event."""
_TARGET = re.compile(r"^(?:(\d{1,3})|player:([0-9a-f]{16}))$")
MESSAGE = "One line of visible characters, not only spaces."


def player_of(doc: GameDoc, reader: Audience) -> str | None:
    """The player behind ``reader``: its own (a player key), else the player bound to
    its seat (a seat token of a player's seat), so that blocks hold whichever credential
    a player sends or reads with."""
    if reader.player is not None or reader.seat is None:
        return reader.player
    return next((p.get("player") for p in doc["players"] if p["seat"] == reader.seat), None)


class Phrase(NamedTuple):
    """A canned phrase: its ``code`` and its English ``text`` (the catalogs' msgid)."""

    code: str
    text: str


def phrase(code: str, text: str) -> Phrase:
    """A canned phrase (the i18n extraction finds each text here)."""
    return Phrase(code, text)


PHRASES = (
    phrase("gg", "Good game"),
    phrase("your_turn", "Your turn"),
    phrase("thanks", "Thanks"),
    phrase("sorry_must_go", "Sorry, I must go"),
    phrase("well_played", "Well played"),
    phrase("hello", "Hello"),
    phrase("good_luck", "Good luck"),
    phrase("take_your_time", "Take your time"),
    phrase("oops", "Oops"),
)
"""Every canned phrase, in the order clients offer them."""
BY_CODE = {p.code: p for p in PHRASES}


# -- what a message may say ---------------------------------------------------------------


def check_text(text: str, most: int) -> str:
    """The stored form of a message's text (NFC, surrounding spaces dropped), or
    ``validation-error``: a code point a reader cannot see (the names' rule: controls,
    line breaks included, format and bidi characters...), nothing but spaces, or more
    than ``most`` characters."""
    text = names.normalize(text)
    hidden = next((c for c in text if names.invisible(c)), None)
    if hidden is not None:
        label = unicodedata.name(hidden, "unassigned")
        detail = "text: U+{point} ({label}) cannot be seen; use visible characters."
        raise Invalid.field(
            "json", "text", detail, MESSAGE, point=f"{ord(hidden):04X}", label=label
        )
    if not text.strip():
        raise Invalid.field("json", "text", "text: not only spaces.", MESSAGE)
    if len(text) > most:
        detail = "text: at most {most} characters."
        raise Invalid.field("json", "text", detail, MESSAGE, most=most)
    return text.strip()


def spectators_talk(doc: GameDoc) -> bool:
    """Whether the host lets spectators talk (the ``spectator_chat`` option)."""
    return bool(options.BY_NAME["spectator_chat"].value(doc))


def visible_version(reader: Audience, doc: GameDoc) -> int | None:
    """The last version of the game ``reader`` may see the chat of (``None``: every
    version): the one decision of a delayed spectator's cut on the chat, the same as
    its events' (the delayed version, shared/games/spectate.py; ``None`` for a seat, the
    host, a game without a delay or once the game is over)."""
    if not audience.moves_behind(reader, doc):
        return None
    return spectate.visible_version(doc)


# -- who hears whom -------------------------------------------------------------------------


def sender_keys(message: Message) -> tuple[str, ...]:
    """The keys a reader may hide a message's sender by: its seat, its player."""
    keys = []
    if message.get("seat") is not None:
        keys.append(f"seat:{message['seat']}")
    if message.get("player") is not None:
        keys.append(f"player:{message['player']}")
    return tuple(keys)


def hidden_of(mutes: Iterable[str], blocked: Iterable[str] = ()) -> frozenset[str]:
    """The senders a reader does not hear: its mutes in the game (targets as the mute
    route names them: ``<seat>``, ``player:<id>``) and the players it blocked (ids)."""
    keys = {f"seat:{t}" if t.isdigit() else t for t in mutes}
    return frozenset(keys | {f"player:{p}" for p in blocked})


def shown(messages: Iterable[Message], hidden: frozenset[str]) -> list[Message]:
    """``messages`` without those of the ``hidden`` senders: the one filter of mutes
    and blocks."""
    if not hidden:
        return list(messages)
    return [m for m in messages if hidden.isdisjoint(sender_keys(m))]


def check_target(doc: GameDoc, target: str, muter: str) -> str:
    """A mute's target as the route names it: a seat of the game (``2``) or a player
    (``player:<16 hex>``); not the muter itself."""
    found = _TARGET.match(target)
    seats = {str(p["seat"]) for p in doc["players"]}
    if found is None or (found.group(1) is not None and found.group(1) not in seats):
        raise NotFound(
            "mute-target-not-found",
            "No seat or player {target!r} to mute in this game.",
            target=target[:40],
        )
    if f"seat:{target}" == muter or target == muter:
        raise Conflict("cannot-mute-yourself", "A reader cannot mute itself.")
    return target


# -- the chat of one game, for one reader -----------------------------------------------------


@dataclass
class ChatReader:
    """How one reader sees a game's chat: who it is, the channels it reads, the last
    version it may see (``cut``: :func:`visible_version`), the senders it does not
    hear, the erased players' hashes of the game, and ``translate`` (an English phrase
    text in the reader's language)."""

    reader: Audience
    channels: frozenset[str]
    cut: int | None
    muter: str | None
    erased: set[str]
    translate: Callable[[str], str]
    blocked: frozenset[str] = frozenset()
    hidden: frozenset[str] = field(default=frozenset())

    def hear(self, mutes: Iterable[str]) -> None:
        """Take the reader's mutes as just read (with its blocks)."""
        self.hidden = hidden_of(mutes, self.blocked)

    def present(self, message: Message) -> dict[str, Any]:
        """A stored message as this reader reads it. A delayed spectator's own message,
        answered as it is sent, is ahead of its cut: it tells no later version than the
        cut, and no id (an id is ``<version>-<n>``, the live version), until the stream
        brings it at its place."""
        deleted = bool(message.get("deleted"))
        code = None if deleted else message.get("phrase")
        known = BY_CODE.get(code) if code else None
        ahead = self.cut is not None and message["version"] > self.cut
        body = {
            "id": None if ahead else message["id"],
            "channel": message["channel"],
            "seat": message.get("seat"),
            "player": message.get("player"),
            "name": message.get("name"),
            "text": None if deleted else message.get("text"),
            "phrase": code,
            "phrase_text": None if known is None else self.translate(known.text),
            "at": message["at"],
            "version": self.cut if ahead else message["version"],
            "deleted": deleted,
        }
        return erased.scrub(body, self.erased)  # type: ignore[no-any-return]

    def visible(self, messages: list[Message], channel: str | None = None) -> list[Message]:
        """The stored messages this reader reads (of ``channel`` only, if given), before
        the cut: the cut's first message and all after are left out."""
        out = []
        for message in messages:
            if self.cut is not None and message["version"] > self.cut:
                break
            if message["channel"] in self.channels and channel in (None, message["channel"]):
                out.append(message)
        return shown(out, self.hidden)

    def event(self, message: Message) -> dict[str, Any]:
        """A message as an event of the game's stream."""
        return {
            "id": message["id"],
            "type": CHAT_EVENT,
            "version": message["version"],
            "message": self.present(message),
        }


class Chat:
    """The table chat of the games of one :class:`~shared.games.base.Context`."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def reader(
        self,
        doc: GameDoc,
        reader: Audience,
        translate: Callable[[str], str],
        blocked: Iterable[str] = (),
    ) -> ChatReader:
        """How ``reader`` sees the chat of ``doc`` (``blocked``: the players it blocked;
        its mutes come with the first read, :meth:`ChatReader.hear`)."""
        return ChatReader(
            reader,
            audience.chat_readable(reader, doc["status"] in OVER),
            visible_version(reader, doc),
            audience.chat_muter(reader),
            erased.erased_of(doc),
            translate,
            frozenset(blocked),
        )

    def channel_of(self, doc: GameDoc, reader: Audience) -> str:
        """The channel ``reader`` writes in, or why it may not: 401 without a
        credential, 403 ``seat-token-required`` for the host's token,
        ``spectator-chat-closed`` for a player without a seat while spectators may not
        talk."""
        channel = audience.chat_channel(reader, spectators_talk(doc))
        if channel is not None:
            return channel
        if reader.kind == audience.SPECTATOR:
            raise missing_token()
        if reader.kind == audience.PLAYER:
            raise Forbidden("spectator-chat-closed", "Spectators may not talk at this table.")
        raise Forbidden("seat-token-required", "This needs a player's token, not the host token.")

    def message(
        self, doc: GameDoc, reader: Audience, text: str | None, code: str | None, name: str
    ) -> dict[str, Any]:
        """The message ``reader`` sends (checked): ``text`` or the phrase ``code``;
        ``name``: a spectator's (a seat's is the seat's)."""
        channel = self.channel_of(doc, reader)
        seat = reader.seat if channel == CHAT_PLAYERS else None
        if seat is not None:
            name = next(p["name"] for p in doc["players"] if p["seat"] == seat)
        body: dict[str, Any] = {
            "channel": channel,
            "seat": seat,
            "player": player_of(doc, reader),
            "name": name,
            "at": now_ms(),
        }
        if code is not None:
            if code not in BY_CODE:
                raise Invalid.field("json", "phrase", "phrase: no such phrase.", "Unknown phrase.")
            body["phrase"] = code
        else:
            most = min(MAX_LENGTH, int(self.ctx.settings["CHAT_MAX_LENGTH"]))
            body["text"] = check_text(text or "", most)
        return body

    def post(self, doc: GameDoc, message: dict[str, Any]) -> Message:
        """Store ``message`` (as :meth:`message` made it): the stored message."""
        keep = int(self.ctx.settings["CHAT_MAX_MESSAGES"])
        found = self.ctx.store.post_chat(doc["id"], message, keep)
        if found is None:
            raise not_found(doc["id"])
        if message["channel"] == CHAT_SPECTATORS and message["player"] is not None:
            # (its export and erasure find it there: shared/usecases/privacy.py)
            ttl = int(self.ctx.settings["GAME_TTL_IDLE"])
            self.ctx.store.spectated(message["player"], doc["id"], ttl)
        return {**message, "id": found, "version": int(found.partition("-")[0])}

    def page(
        self, doc: GameDoc, view: ChatReader, channel: str | None, after: str, limit: int
    ) -> tuple[list[Message], str]:
        """Up to ``limit`` messages after ``after`` the reader reads (of ``channel``),
        in order, and the cursor to read on from (past the messages it does not read,
        never past its cut)."""
        if channel is not None and channel not in view.channels:
            raise Forbidden(
                "chat-channel-hidden",
                "The {channel} channel is not readable by this reader now.",
                channel=channel,
            )
        store, cursor, first = self.ctx.store, after, True
        out: list[Message] = []
        while len(out) < limit:
            batch, mutes = store.chat_after(doc["id"], cursor, limit, view.muter if first else None)
            if first:
                view.hear(mutes)
                first = False
            out += view.visible(batch, channel)
            passed = [m for m in batch if view.cut is None or m["version"] <= view.cut]
            if passed:
                cursor = passed[-1]["id"]
            if len(batch) < limit or len(passed) < len(batch):
                break
        if len(out) > limit:
            out = out[:limit]
            cursor = out[-1]["id"]
        return out, cursor

    def mute(self, doc: GameDoc, reader: Audience, target: str, on: bool) -> list[str]:
        """Mute (``on``) or unmute ``target`` for ``reader``: its mutes after."""
        muter = audience.chat_muter(reader)
        if muter is None:
            raise missing_token()
        target = check_target(doc, target, muter)
        try:
            found = self.ctx.store.change_mute(doc["id"], muter, target, on, MAX_MUTES)
        except KeyError:
            raise not_found(doc["id"]) from None
        if found is None:
            raise Conflict("mutes-full", "At most {most} mutes per game.", most=MAX_MUTES)
        return found

    def mutes(self, doc: GameDoc, reader: Audience) -> list[str]:
        """``reader``'s mutes in the game."""
        muter = audience.chat_muter(reader)
        if muter is None:
            raise missing_token()
        return self.ctx.store.mutes_of(doc["id"], muter)
