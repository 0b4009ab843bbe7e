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
