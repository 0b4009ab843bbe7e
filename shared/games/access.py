"""Who may do what in a game: the seat or host behind a bearer token's hash.

Callers hash the token once per request (:func:`shared.games.tokens.hash_token`) and pass the
hash around; ``None`` means the request carried no token.
"""

from __future__ import annotations

from contextvars import ContextVar

from shared.games import audience, tokens
from shared.games.audience import Audience
from shared.games.document import GameDoc
from shared.games.errors import Forbidden, Unauthorized

ACTOR: ContextVar[int | str | None] = ContextVar("boardgames_actor", default=None)
"""The seat (or ``"host"``) the current request's token turned out to act for, set where
the token is resolved (below). The HTTP layer clears it when a request begins and puts
it in the request's log line (its ``request_log`` middleware). A ContextVar, so this
layer stays free of Flask; per greenlet under gevent."""


def missing_token() -> Unauthorized:
    """``missing-token`` (answered 401 with the ``WWW-Authenticate`` challenge)."""
    return Unauthorized(
        "missing-token", "This needs a bearer token (Authorization: Bearer <token>)."
    )


def invalid_token() -> Forbidden:
    """``invalid-token``: a token of no seat of the game that is not its host token."""
    return Forbidden("invalid-token", "This token is not valid for this game.")


def seat_of_player(doc: GameDoc, player_id: str) -> int | None:
    """The seat bound to the player ``player_id``, if any."""
    for record in doc["players"]:
        if record.get("player") == player_id:
            return record["seat"]
    return None


def seat_of(doc: GameDoc, digest: str | None) -> int | None:
    """The seat the token acts for; ``None`` without a token or for the host token.

    403 ``invalid-token`` for a token of no seat that is not the host's. Every seat is
    compared (in constant time), whatever matches first. A player (a
    :class:`~shared.games.tokens.PlayerRef`) acts for its own seat, and watches a game
    it has none in.
    """
    if digest is None:
        return None
    if isinstance(digest, tokens.PlayerRef):
        found = seat_of_player(doc, digest)
        ACTOR.set(f"player:{digest}")  # for the request's log line
        return found  # a player seated elsewhere watches as anyone may
    found = None
    for player in doc["players"]:
        if tokens.matches(digest, player["token_hash"]):
            found = player["seat"]
    if found is None and not tokens.matches(digest, doc["host"]):
        raise invalid_token()
    ACTOR.set("host" if found is None else found)  # for the request's log line
    return found


def audience_of(doc: GameDoc, credential: str | None, watch: str | None = None) -> Audience:
    """Who reads ``doc`` with the request's ``credential`` (a token's hash or a
    :class:`~shared.games.tokens.PlayerRef`; ``None`` without one) and ``watch`` code
    (its ``watch`` or ``invite`` query parameter): the one resolution of an audience,
    for the Flask views and the fast path alike. 403 ``invalid-token`` as
    :func:`seat_of`; a spectator the game does not admit gets its refusal
    (:func:`shared.games.audience.admit`: the ``spectators`` option)."""
    seat = seat_of(doc, credential)
    if seat is not None:
        return seated_audience(seat, credential)
    player = credential if isinstance(credential, tokens.PlayerRef) else None
    if credential is None:
        return audience.admit(doc, audience.ANYONE, watch)
    if player is None or doc.get("host_player") == player:
        return audience.host(player)
    return audience.admit(doc, audience.as_player(player), watch)


def seated_audience(seat: int, credential: str | None) -> Audience:
    """The audience of ``seat`` reached with ``credential`` (:func:`require_seat`'s)."""
    player = credential if isinstance(credential, tokens.PlayerRef) else None
    return audience.seated(seat, player)


def require_seat(doc: GameDoc, digest: str | None) -> int:
    """The seat of a token that must be a seat's (401 without, 403 for the host's)."""
    if digest is None:
        raise missing_token()
    seat = seat_of(doc, digest)
    if seat is None and isinstance(digest, tokens.PlayerRef):
        raise Forbidden("player-not-seated", "This player has no seat in this game.")
    if seat is None:
        raise Forbidden("seat-token-required", "This needs a player's token, not the host token.")
    return seat


def require_seated(doc: GameDoc, credential: str | None) -> Audience:
    """The audience of a credential that must be a seat's (:func:`require_seat`'s refusals)."""
    return seated_audience(require_seat(doc, credential), credential)


def require_host(doc: GameDoc, digest: str | None) -> None:
    """401 without a token; 403 unless it is this game's host token."""
    if digest is None:
        raise missing_token()
    if isinstance(digest, tokens.PlayerRef):
        if doc.get("host_player") == digest:
            ACTOR.set("host")
            return
        raise Forbidden("host-token-required", "Only the host may do this.")
    if tokens.matches(digest, doc["host"]):
        ACTOR.set("host")  # for the request's log line
        return
    if any(tokens.matches(digest, p["token_hash"]) for p in doc["players"]):
        raise Forbidden("host-token-required", "Only the host may do this.")
    raise invalid_token()
