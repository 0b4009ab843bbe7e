"""Who may do what in a game: the seat or host behind a bearer token's hash.

Callers hash the token once per request (:func:`shared.games.tokens.hash_token`) and pass the
hash around; ``None`` means the request carried no token.
"""

from __future__ import annotations

from shared.games import tokens
from shared.http.errors import ApiError
from shared.http.middleware.request_log import ACTOR
from shared.store import Doc


def missing_token() -> ApiError:
    """401 with the ``WWW-Authenticate`` challenge."""
    return ApiError(
        401,
        "missing-token",
        "This needs a bearer token (Authorization: Bearer <token>).",
        headers={"WWW-Authenticate": 'Bearer realm="boardgames"'},
    )


def invalid_token() -> ApiError:
    """403 for a token that belongs to no seat of the game and is not its host token."""
    return ApiError(403, "invalid-token", "This token is not valid for this game.")


def seat_of(doc: Doc, digest: str | None) -> int | None:
    """The seat the token acts for; ``None`` without a token or for the host token.

    403 ``invalid-token`` for a token of no seat that is not the host's. Every seat is
    compared (in constant time), whatever matches first.
    """
    if digest is None:
        return None
    found = None
    for player in doc["players"]:
        if tokens.matches(digest, player["token_hash"]):
            found = player["seat"]
    if found is None and not tokens.matches(digest, doc["host"]):
        raise invalid_token()
    ACTOR.set("host" if found is None else found)  # for the request's log line
    return found


def require_seat(doc: Doc, digest: str | None) -> int:
    """The seat of a token that must be a seat's (401 without, 403 for the host's)."""
    if digest is None:
        raise missing_token()
    seat = seat_of(doc, digest)
    if seat is None:
        raise ApiError(
            403, "seat-token-required", "This needs a player's token, not the host token."
        )
    return seat


def require_host(doc: Doc, digest: str | None) -> None:
    """401 without a token; 403 unless it is this game's host token."""
    if digest is None:
        raise missing_token()
    if tokens.matches(digest, doc["host"]):
        ACTOR.set("host")  # for the request's log line
        return
    if any(tokens.matches(digest, p["token_hash"]) for p in doc["players"]):
        raise ApiError(403, "host-token-required", "Only the host may do this.")
    raise invalid_token()
