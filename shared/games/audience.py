"""Who reads an answer about a game: the :class:`Audience`, and what each audience may see.

The HTTP edge resolves a request's audience once, from its credential and the game
(:func:`shared.games.access.audience_of`; the fast path calls the same function), and
hands it to every answer builder of :mod:`shared.games.answers` (view, legal moves,
events, log, score, listing entries), of :mod:`shared.usecases.privacy` (the export) and
of :mod:`shared.games.notify` (a webhook's payload). The worker's notifications have
audiences of their own: :data:`PUBLIC` for a game's webhook, :func:`owner` for a seat's
webhook or a seat's player.

A policy that depends on the reader is written here, once, as a function of the
audience that the builders call: :func:`private_seat` (whose hidden information a
view shows), :func:`acting_seat` (whose moves are listed), :func:`admit` (who may
watch: the ``spectators`` option, applied by ``audience_of`` itself) and
:func:`moves_behind` (the ``spectator_delay`` a reader reads the game with).

May import the games layer's leaf modules (base, document, errors, options, tables,
tokens).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from shared.games import options, tables, tokens
from shared.games.base import OVER, RUNNING
from shared.games.document import GameDoc
from shared.games.errors import Forbidden

SEAT = "seat"
"""A seat's token, or a player bound to a seat of the game."""
HOST = "host"
"""The game's host token, or the player who created it."""
PLAYER = "player"
"""A player (a player key, or an API key with ``X-Player``) reading as itself: a game it
has no seat in, or its own data across games (its export)."""
TENANT = "tenant"
"""An API key's platform, listing the games it created."""
SPECTATOR = "spectator"
"""Anyone without a credential for the game."""
PUBLIC = "public"
"""A game's webhook registered without a seat (by the host): public facts only."""
OWNER = "owner"
"""The owner of a seat, as its notifications address it: the seat's webhook, or the
player bound to the seat."""


@dataclass(frozen=True, slots=True)
class Audience:
    """Who reads: its ``kind`` (one of this module's constants), the ``seat`` it reads as
    (a seat or its owner), the ``player`` behind it and the API key's ``tenant``."""

    kind: str
    seat: int | None = None
    player: str | None = None
    tenant: str | None = None


ANYONE = Audience(SPECTATOR)
"""A reader without a credential (and the audience of answers every reader gets alike,
such as the game a host just created)."""
PUBLIC_HOOK = Audience(PUBLIC)
"""A game's webhook without a seat."""


def seated(seat: int, player: str | None = None) -> Audience:
    """The reader of seat ``seat`` (its token, or its bound ``player``)."""
    return Audience(SEAT, seat, player)


def host(player: str | None = None) -> Audience:
    """The game's host (its token, or the ``player`` who created it)."""
    return Audience(HOST, None, player)


def as_player(player: str) -> Audience:
    """A player reading as itself (a game it has no seat in, or its export)."""
    return Audience(PLAYER, None, player)


def tenant(key_id: str) -> Audience:
    """An API key's platform (the listing of its games)."""
    return Audience(TENANT, tenant=key_id)


def owner(seat: int, player: str | None = None) -> Audience:
    """The owner of seat ``seat`` as a notification addresses it (its webhook, or its
    bound ``player``)."""
    return Audience(OWNER, seat, player)


def private_seat(audience: Audience) -> int | None:
    """The seat whose hidden information an answer shows this audience: a seat's own;
    nobody's for the host, a player without a seat, a tenant or a spectator."""
    return audience.seat if audience.kind == SEAT else None


def acting_seat(audience: Audience) -> int | None:
    """The seat whose legal moves this audience is shown: a seat's own, else none."""
    return audience.seat if audience.kind == SEAT else None


CHAT_PLAYERS = "players"
"""The table chat's channel of the seats (shared/games/chat.py)."""
CHAT_SPECTATORS = "spectators"
"""The table chat's channel of those watching without a seat."""
_WATCHERS = frozenset({SPECTATOR, PLAYER, TENANT})
"""Who reads without a seat or the host's token: the spectators' channel is theirs."""


def chat_channel(audience: Audience, spectators_talk: bool) -> str | None:
    """The chat channel this audience writes in: a seat in the players' channel, a
    player without a seat in the spectators' one when the host lets spectators talk
    (``spectator_chat``); nobody else (``None``)."""
    if audience.kind == SEAT:
        return CHAT_PLAYERS
    if audience.kind == PLAYER and spectators_talk:
        return CHAT_SPECTATORS
    return None


def chat_readable(audience: Audience, over: bool) -> frozenset[str]:
    """The chat channels this audience reads: the players' channel, everyone; the
    spectators' channel, those watching without a seat (not the host's token, whose
    holder often sits at the table) while the game is not over, everyone once it is
    (players never read spectators during a game: that would be ghosting)."""
    if over or audience.kind in _WATCHERS:
        return frozenset({CHAT_PLAYERS, CHAT_SPECTATORS})
    return frozenset({CHAT_PLAYERS})


def chat_muter(audience: Audience) -> str | None:
    """Whose mutes this audience reads and keeps in a game: a seat's (``seat:<n>``), a
    player's without a seat (``player:<id>``), the host's token (``host``); a reader
    without a credential has none."""
    if audience.kind == SEAT:
        return f"seat:{audience.seat}"
    if audience.kind == PLAYER and audience.player is not None:
        return f"player:{audience.player}"
    if audience.kind == HOST:
        return "host" if audience.player is None else f"player:{audience.player}"
    return None


# -- who may watch (the ``spectators`` option) --------------------------------------------

EVERYONE, LINK, PLAYERS = tables.EVERYONE, tables.LINK, tables.PLAYERS


def watchers(doc: GameDoc) -> str:
    """Who may watch ``doc``: its ``spectators`` option as given at its create, else
    ``everyone`` for a listed table and ``link`` for an unlisted one."""
    given: str | None = options.BY_NAME["spectators"].read(doc)
    if given is not None:
        return given
    return EVERYONE if tables.is_listed(doc) else LINK


def is_spectator(reader: Audience) -> bool:
    """Whether ``reader`` watches ``doc`` without a credential of it: anyone, or a
    player without a seat in it (the host, a seat and a tenant are no spectators)."""
    return reader.kind in (SPECTATOR, PLAYER)


def watch_link(game_id: str, code: str) -> str:
    """The spectators' link of a ``link`` game (a path on the service: its /play page)."""
    return "/play?" + urlencode({"game": game_id, "watch": code})


def watch_link_of(doc: GameDoc, reader: Audience) -> str | None:
    """The watch link ``reader`` is shown in a view: a seat's and the host's of a
    ``link`` game, to share; nobody else's."""
    code = _fields(doc).get("watch_code")
    if code is None or reader.kind not in (SEAT, HOST) or watchers(doc) != LINK:
        return None
    return watch_link(doc["id"], code)


def admit(doc: GameDoc, reader: Audience, code: str | None, linked: bool = False) -> Audience:
    """``reader`` if it may read ``doc`` (its view, score, log, events, chat), else the
    refusal: a spectator (:func:`is_spectator`) of a ``players`` game is refused (403
    ``spectators-not-allowed``); of a ``link`` game it needs the game's watch code or
    its invite code as ``code`` (403 ``watch-link-required`` without,
    ``invalid-watch-code`` with another). ``linked``: the reader holds a link the
    service signed for this game (an embed's watching session), which counts as the
    watch link."""
    if not is_spectator(reader):
        return reader
    who = watchers(doc)
    if who == PLAYERS:
        raise Forbidden(
            "spectators-not-allowed", "This game has no spectators: only its players read it."
        )
    if who == LINK and not linked and not _valid_code(doc, code):
        if code is None:
            raise Forbidden(
                "watch-link-required",
                "Watching this game needs its watch link (the watch code as ?watch=<code>).",
            )
        raise Forbidden("invalid-watch-code", "This watch code is not this game's.")
    return reader


def _valid_code(doc: GameDoc, code: str | None) -> bool:
    """Whether ``code`` is the game's watch code or its invite code (constant time)."""
    if code is None:
        return False
    fields = _fields(doc)
    watch, invite = fields.get("watch_code"), fields.get("invite")
    good = watch is not None and hmac.compare_digest(code.encode(), str(watch).encode())
    hashed = invite is not None and tokens.matches(tokens.hash_token(code), invite)
    return good or hashed


def is_listed_for(doc: GameDoc, reader: Audience) -> bool:
    """Whether a listing ``reader`` reads shows ``doc``: an unlisted game in none, a
    ``players`` game only in its tenant's (its owner's) listing."""
    if not tables.is_listed(doc):
        return False
    return reader.kind == TENANT or watchers(doc) != PLAYERS


# -- the spectator delay (the ``spectator_delay`` option) ---------------------------------


def delay_of(doc: GameDoc) -> int:
    """The game's ``spectator_delay`` (moves; 0: none)."""
    return int(options.BY_NAME["spectator_delay"].value(doc))


def moves_behind(reader: Audience, doc: GameDoc) -> int:
    """How many moves behind the game ``reader`` reads it: the ``spectator_delay`` for
    a spectator (anyone, a player without a seat) and a tenant's listing while the game
    runs; 0 for a seat, the host, a seat's owner and a game's webhook (the host's), and
    0 for everyone once the game is over (everything is public at once)."""
    if doc["status"] != RUNNING:  # open: nothing to ghost; over: public at once
        return 0
    if reader.kind not in (SPECTATOR, PLAYER, TENANT):
        return 0
    return delay_of(doc)


def lags(reader: Audience, doc: GameDoc) -> bool:
    """Whether ``reader`` may read ``doc`` behind now at some point (a wait or a stream
    that starts before the game does): a spectator or a tenant of a game with a delay
    that is not over."""
    if doc["status"] in OVER or not delay_of(doc):
        return False
    return reader.kind in (SPECTATOR, PLAYER, TENANT)


def _fields(doc: GameDoc) -> dict[str, Any]:
    return doc  # type: ignore[return-value]
