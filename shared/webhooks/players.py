"""A player's webhook (issue 30): one registration per player, told ``your_turn`` and
``game_over`` in every game the player sits in, in every service on the registry's Redis.

The registration ``{"id", "url", "events", "since"}`` is the player's ``webhook`` field
in the registry (shared/store/players.py), never copied into a game. A write addresses
its bound seats' notifications to ``player:<id>`` (shared/games/notify.py), and the
worker's pass (shared/webhooks/delivery.py) looks the player's current registration up
(:func:`current`): a changed URL is followed by the next delivery, a deleted
registration gets nothing more, and the secret is derived from the registration's own
id (shared/webhooks/signing.py), never stored. ``since`` (Redis time in ms) is when the
player first registered: notifications written before it, or while it had none, are
never sent. Replacing the registration keeps ``since``, so what waited goes to the new
URL.

May import ``shared.games`` (notify, errors), ``shared.store`` and this package.
"""

from __future__ import annotations

import json
from typing import Any

from shared.games.notify import PLAYER, PLAYER_TYPES
from shared.store import dumps
from shared.store.players import Registry
from shared.webhooks import signing, ssrf


def register(
    settings: dict[str, Any], registry: Registry, player_id: str, body: dict[str, Any]
) -> tuple[dict[str, Any], str, bool]:
    """Check and store the player's registration (replacing any): it, its secret and
    whether it is new (:class:`~shared.games.errors.Invalid` for a refused URL,
    ``webhook-url-refused``, or no server key, ``webhooks-disabled``)."""
    ssrf.check(body["url"], settings.get("WEBHOOK_ALLOW_PRIVATE", False))
    reg_id = signing.new_registration_id()
    secret = signing.secret_for(settings.get("WEBHOOK_SIGNING_KEY", ""), reg_id)
    previous = registration(registry.get(player_id) or {})
    events = [kind for kind in PLAYER_TYPES if kind in (body.get("events") or PLAYER_TYPES)]
    since = previous["since"] if previous is not None else registry.clock_ms()
    reg = {"id": reg_id, "url": body["url"], "events": events, "since": since}
    registry.update(player_id, {"webhook": dumps(reg)})
    return reg, secret, previous is None


def registration(fields: dict[str, str]) -> dict[str, Any] | None:
    """The registration in a player's registry fields (``None``: none)."""
    raw = fields.get("webhook")
    return json.loads(raw) if raw else None


def public(reg: dict[str, Any]) -> dict[str, Any]:
    """The registration as its player sees it (never its secret)."""
    return {"id": reg["id"], "url": reg["url"], "events": reg["events"]}


def current(registry: Registry, notes: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The current registrations of the players these notifications are addressed to,
    by address (``player:<id>``), as a delivery job holds them: ``signer`` is the
    registration's id (its secret's), ``id`` the address (its cursor and lock)."""
    players = sorted({n["reg"][len(PLAYER) :] for _, n in notes if n["reg"].startswith(PLAYER)})
    found = registry.webhooks(players)
    regs = {}
    for player_id, raw in found.items():
        reg = json.loads(raw)
        regs[PLAYER + player_id] = {**reg, "id": PLAYER + player_id, "signer": reg["id"]}
    return regs


def _sid(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def waiting(
    entry_id: str, note: dict[str, Any], reg: dict[str, Any], state: dict[str, str]
) -> bool:
    """Whether the outbox entry still waits for ``reg``: after its cursor (in the game's
    delivery ``state``), and for a player's registration, of a type it wants and written
    since the player registered."""
    cursor = state.get(f"cur:{reg['id']}")
    if cursor is not None and _sid(entry_id) <= _sid(cursor):
        return False
    if "since" not in reg:  # a game's or a seat's: the write chose its types
        return True
    return note["type"] in reg["events"] and _sid(entry_id)[0] >= reg["since"]
