"""The games layer's refusals: a small hierarchy of :class:`ValueError` (in the style of
python-chess's ``IllegalMoveError``), each kind one reason a request cannot be done.

Every error carries a stable machine-readable ``code`` (``game-not-found``,
``invalid-token``, ``not-your-turn`` ...), a human ``detail`` and extra fields for the
answer (``extra={"version": 3}``, ``errors``). The detail is an English template whose
``{name}`` fields the keyword arguments fill (``Conflict("not-your-turn", "Seat {seat} is
not expected to act now.", seat=2)``): the HTTP layer translates the template (the
catalogs' msgid, shared/i18n) and inserts the values after, so never build a detail with
an f-string. The kinds say *why*, never *how to answer*: status codes, titles and
headers belong to the HTTP layer, whose error handlers map each kind to its status (its
``errors`` module). The webhooks layer raises these too.

The engine's own :class:`shared.engine.RuleError` stays apart: it is the rules' refusal,
these are the kit's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class GameError(ValueError):
    """A refusal of the games layer: ``code``, ``detail`` (the English text, made from
    ``template`` and ``params``) and ``extra`` answer fields.

    Raise one of the kinds below; the base class is for catching them all.
    """

    def __init__(
        self, code: str, detail: str, /, *, extra: Mapping[str, Any] | None = None, **params: Any
    ) -> None:
        text = detail.format_map(params) if params else detail
        super().__init__(text)
        self.code = code
        self.detail = text
        self.template = detail
        self.params = params
        self.extra = dict(extra or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.detail!r})"


class NotFound(GameError):
    """No such game (``game-not-found``)."""


class Unauthorized(GameError):
    """The request carries no bearer token, and this needs one (``missing-token``)."""


class Forbidden(GameError):
    """The token does not allow this: no token of the game (``invalid-token``), or the
    wrong one of its tokens (``host-token-required``, ``seat-token-required``)."""


class Conflict(GameError):
    """Not now, in the game's current state (``game-not-open``, ``not-your-turn``,
    ``version-conflict`` ...)."""


class PreconditionFailed(GameError):
    """The client's condition on the game's version does not hold (``version-mismatch``,
    with ``version``: the current one)."""


class Invalid(GameError):
    """Input that is well-formed but refused (``option-not-allowed``,
    ``idempotency-key-reused``, ``webhook-url-refused`` ...)."""

    @classmethod
    def field(cls, location: str, name: str, detail: str, message: str, **params: Any) -> Invalid:
        """``validation-error`` for one field, shaped like the schemas' own refusals
        (``errors={location: {field: [message]}}``; ``message`` stays English, as the
        schemas' own do); ``detail`` a template ``params`` fill."""
        errors = {location: {name: [message]}}
        return cls("validation-error", detail, extra={"errors": errors}, **params)


class RateLimited(GameError):
    """Too many requests of one kind (``rate-limited``): retry in ``retry_after``
    seconds."""

    def __init__(
        self,
        code: str,
        detail: str,
        retry_after: int,
        /,
        *,
        extra: Mapping[str, Any] | None = None,
        **params: Any,
    ) -> None:
        super().__init__(code, detail, extra=extra, **params)
        self.retry_after = retry_after
