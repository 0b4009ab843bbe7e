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
view shows) and :func:`acting_seat` (whose moves are listed) today.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    spectators' channel, those watching without a seat (or the host's token) while the
    game is not over, everyone once it is (players never read spectators during a game:
    that would be ghosting)."""
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
