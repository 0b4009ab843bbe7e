"""Embeds: a platform's signed, short-lived, one-use seat links and the scoped credential
a link is exchanged for (docs/api.md "Embedding in your platform").

Both are tokens the service signs itself (HMAC-SHA256 with its embed secret) and reads
back without storing them: ``<kind>_<payload>.<signature>``, the payload compact JSON in
unpadded base64url. A link (``bgl_``) names its id (the one-use claim is on it, kept by
the store), the game, the player, ``seat`` or ``watch``, its expiry and the page's
language and theme; a session (``bge_``) the game, the player, the mode, the API key's
tenant and its own expiry. Neither carries an API key or a player key.

The credential acts as an :class:`EmbedRef`: a player in one game only
(shared/games/access.py tells it apart from a player key's :class:`PlayerRef`).

Pure (hmac, json, base64): may import shared.games.errors and shared.games.tokens.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any

from shared.games.errors import Forbidden, Unauthorized
from shared.games.tokens import EmbedRef

LINK = "bgl_"
SESSION = "bge_"
SEAT = "seat"
WATCH = "watch"
LANGUAGES = ("en", "ja", "de")
# a colour (#rgb, #rrggbb, rgb()/hsl() with numbers), a font list or a length: nothing
# that could close a declaration or name another site (no ; : / or braces); the page's
# CSP loads nothing from elsewhere anyway, and clients/web/js/embed.js applies a host
# page's theme under the same rule (and never a url())
THEME_VALUE = re.compile(r"^[#A-Za-z0-9 ,.%()'\"-]{1,80}$")
_TOKEN = re.compile(r"(bg[le]_)([A-Za-z0-9_-]{10,2000})\.([A-Za-z0-9_-]{43})")


@dataclass(frozen=True, slots=True)
class Claims:
    """What a link or a session says (its signature checked)."""

    kind: str  # LINK or SESSION
    service: str
    game: str
    player: str
    mode: str  # SEAT or WATCH
    tenant: str
    expires: int  # unix seconds
    id: str = ""  # a link's id (its one-use claim)
    language: str = "en"
    theme: dict[str, str] | None = None

    def ref(self) -> EmbedRef:
        """The credential as the access checks take it."""
        return EmbedRef.make(self.game, self.player, self.mode == SEAT, self.tenant)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(secret: bytes, claims: Claims) -> str:
    """The token of ``claims``."""
    fields: dict[str, Any] = {
        "svc": claims.service,
        "g": claims.game,
        "p": claims.player,
        "m": claims.mode,
        "t": claims.tenant,
        "exp": claims.expires,
    }
    if claims.kind == LINK:
        fields |= {"id": claims.id, "lang": claims.language, "theme": claims.theme or {}}
    body = _b64(json.dumps(fields, separators=(",", ":"), sort_keys=True).encode())
    return f"{claims.kind}{body}.{_mac(secret, claims.kind + body)}"


def _mac(secret: bytes, text: str) -> str:
    return _b64(hmac.new(secret, text.encode("ascii"), hashlib.sha256).digest())


def is_embed_token(token: str) -> bool:
    """Whether a bearer token is an embed session (``bge_``), whatever its validity."""
    return token.startswith(SESSION)


def _parse(token: str) -> tuple[str, str, str] | None:
    """A token's kind, payload and signature, as text (nothing decoded yet)."""
    match = _TOKEN.fullmatch(token)
    return None if match is None else (match[1], match[2], match[3])


def _fields(body: str) -> dict[str, Any] | None:
    """A payload's fields, or ``None`` when it is not a JSON object."""
    try:
        fields = json.loads(_unb64(body))
    except (ValueError, RecursionError):
        return None
    return fields if isinstance(fields, dict) else None


def _claims(kind: str, fields: dict[str, Any]) -> Claims | None:
    try:
        theme = fields.get("theme") or None
        made = Claims(
            kind=kind,
            service=str(fields["svc"]),
            game=str(fields["g"]),
            player=str(fields["p"]),
            mode=str(fields["m"]),
            tenant=str(fields["t"]),
            expires=int(fields["exp"]),
            id=str(fields.get("id", "")),
            language=str(fields.get("lang", "en")),
            theme={str(k): str(v) for k, v in theme.items()} if isinstance(theme, dict) else None,
        )
    except (KeyError, TypeError, ValueError):
        return None
    return made if made.mode in (SEAT, WATCH) else None


def unverified_language(token: str) -> str | None:
    """The language a link asks for, its signature unchecked (for the words of the
    page that refuses it; nothing else is read from an unchecked token)."""
    parsed = _parse(token)
    fields = _fields(parsed[1]) if parsed else None
    language = fields.get("lang") if fields else None
    return language if language in LANGUAGES else None


def verify(secret: bytes, token: str, kind: str, service: str) -> Claims:
    """The claims of a ``kind`` token for this ``service``, its signature checked (not
    its expiry): 403 ``embed-link-invalid`` (a link) or 401 ``embed-session-invalid``."""
    parsed = _parse(token)
    claims = None
    signed = parsed is not None and parsed[0] == kind  # the signature first, then the payload
    if signed and parsed is not None:
        signed = hmac.compare_digest(parsed[2], _mac(secret, parsed[0] + parsed[1]))
    if signed and parsed is not None:
        fields = _fields(parsed[1])
        claims = _claims(kind, fields) if fields is not None else None
    if claims is None or claims.service != service:
        if kind == LINK:
            raise Forbidden("embed-link-invalid", "This embed link is not valid.")
        raise Unauthorized("embed-session-invalid", "This embed session is not valid.")
    return claims


def check_expiry(claims: Claims, now: float) -> Claims:
    """``claims`` while they last: 403 ``embed-link-expired`` (a link; the platform
    makes a new one) or 401 ``embed-session-expired``."""
    if claims.expires <= now:
        if claims.kind == LINK:
            raise Forbidden(
                "embed-link-expired",
                "This game link has expired. Reload the page that showed it to get a new one.",
            )
        raise Unauthorized("embed-session-expired", "This embed session has expired.")
    return claims


def read(secret: bytes, token: str, kind: str, service: str, now: float) -> Claims:
    """:func:`verify` and :func:`check_expiry`."""
    return check_expiry(verify(secret, token, kind, service), now)


def link_used() -> Forbidden:
    """``embed-link-used``: a link opens once."""
    return Forbidden(
        "embed-link-used",
        "This game link was already used. Reload the page that showed it to get a new one.",
    )


def scope_refused() -> Forbidden:
    """``embed-scope``: an embed session used outside its game, or for something it
    does not allow (a player's own data, hosting, joining, webhooks)."""
    return Forbidden(
        "embed-scope", "An embed session acts only in its own game, as its seat or as a spectator."
    )
