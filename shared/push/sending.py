"""The worker's side of Web Push: which subscriptions a game's notifications go to, and
one push to one of them.

The webhook deliverer (shared/webhooks/delivery.py) treats each subscription as one
more registration of the player (id ``push:<player>:<subscription>``): its own cursor,
lock, backoff and turns in the game's delivery state, the same outbox entries. So a
slow or failing push service holds up no other subscription, webhook or game, and a
worker that dies loses nothing (what it did not record is sent again, with the same
``Topic``). A push is the payload of shared/push/messages.py, encrypted for the
subscription's keys (RFC 8291, aes128gcm, by pywebpush), with a VAPID JWT (RFC 8292:
``aud`` the endpoint's origin, ``exp`` in 12 hours, ``sub`` ``PUSH_VAPID_SUBJECT``),
POSTed (RFC 8030) through the webhooks' SSRF guard (shared/webhooks/sending.py).

The push service answering 404 or 410 ends the subscription: it is removed and nothing
more goes to it. Quiet hours skip a push; more than ``PUSH_RATE_LIMIT`` pushes sent to
one player (all its devices) in a ``PUSH_RATE_WINDOW_SECONDS`` window wait (backing
off) for the next window; failed attempts do not count.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from pywebpush import WebPusher

from shared.games.notify import PLAYER
from shared.push import keys, messages
from shared.push.subscriptions import settings_of, subscriptions_of
from shared.store import dumps
from shared.store.push import PushRegistry
from shared.webhooks.sending import post

PUSH = "push:"
"""The prefix of a subscription's registration id: ``push:<player>:<subscription>``."""
GONE = (404, 410)
JWT_SECONDS = 12 * 3600

Outcome = tuple[int | None, str | None, str | None]
"""An attempt's answer status, error, and final verdict (``skipped``, ``failed``:
move on without retrying) or ``None``."""


class Pusher:
    """Push delivery for one worker (off without ``PUSH_VAPID_PRIVATE_KEY``)."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.vapid = keys.signer(settings)
        self.subject = settings.get("PUSH_VAPID_SUBJECT", "mailto:operator@example.invalid")
        self.allow_private = settings.get("WEBHOOK_ALLOW_PRIVATE", False)
        self.timeout = settings.get("WEBHOOK_TIMEOUT_SECONDS", 5.0)
        self.rate = int(settings.get("PUSH_RATE_LIMIT", 30))
        self.window = max(1, int(settings.get("PUSH_RATE_WINDOW_SECONDS", 600)))
        self.ttl = int(settings.get("PUSH_TTL_SECONDS", 86400))

    def current(
        self, client: Any, notes: list[tuple[str, dict[str, Any]]]
    ) -> dict[str, list[dict[str, Any]]]:
        """The subscriptions of the players these notifications are addressed to, as
        registrations by address (``player:<id>``); none while push is off."""
        if self.vapid is None:
            return {}
        players = sorted({n["reg"][len(PLAYER) :] for _, n in notes if n["reg"].startswith(PLAYER)})
        games = {n["data"]["game"] for _, n in notes}  # one game's outbox: its service
        out: dict[str, list[dict[str, Any]]] = {}
        for player_id, fields in PushRegistry(client).of_players(players).items():
            prefs = settings_of(fields)
            out[PLAYER + player_id] = [
                {
                    "id": f"{PUSH}{player_id}:{sub['id']}",
                    "since": sub["since"],
                    "events": prefs["events"],
                    "push": sub,
                    "prefs": prefs,
                    "player": player_id,
                }
                for sub in subscriptions_of(fields)
                if "games" not in sub or games <= set(sub["games"])  # (older: every service)
            ]
        return out

    def send(self, client: Any, note: dict[str, Any], reg: dict[str, Any]) -> Outcome:
        """One push of ``note`` to the subscription ``reg`` (see the module's docstring)."""
        assert self.vapid is not None  # a push registration exists only while push is on
        now_ms = int(time.time() * 1000)
        if messages.held_back(note, reg["prefs"], now_ms):
            return None, "quiet hours", "skipped"
        deadline = messages.deadline_ms(note)
        if note["type"] != "game_over" and deadline is not None and deadline <= now_ms:
            return None, "its turn is over", "skipped"
        body = messages.payload(note, reg["prefs"]["language"])
        head = messages.headers(note, now_ms, self.ttl)
        return self.push(client, reg["player"], reg["push"], body, head)

    def push(
        self,
        client: Any,
        player_id: str,
        sub: dict[str, Any],
        body: dict[str, Any],
        head: dict[str, str],
    ) -> Outcome:
        """One push of ``body`` (JSON) with ``head`` (``TTL``, ``Urgency``, ``Topic``)
        to the player's subscription ``sub``: counted against the rate limit, encrypted,
        signed and POSTed; a subscription the push service ended is removed."""
        assert self.vapid is not None
        now_ms = int(time.time() * 1000)
        store = PushRegistry(client)
        window = now_ms // 1000 // self.window
        if store.count(player_id, window, self.window) > self.rate:
            store.count(player_id, window, self.window, -1)
            return None, "rate limited", None
        encrypted = WebPusher(sub).encode(dumps(body).encode(), "aes128gcm")["body"]
        origin = urlsplit(sub["endpoint"])
        claims = {
            "aud": f"{origin.scheme}://{origin.netloc}",
            "exp": int(time.time()) + JWT_SECONDS,
            "sub": self.subject,
        }
        headers = {
            **head,
            **self.vapid.sign(claims),
            "Content-Type": "application/octet-stream",
            "Content-Encoding": "aes128gcm",
        }
        status, error = post(sub["endpoint"], encrypted, headers, self.timeout, self.allow_private)
        if status is None or not 200 <= status < 300:
            store.count(player_id, window, self.window, -1)  # only pushes sent count
        if status in GONE:
            store.drop(player_id, sub["id"])
            return status, "the push service ended the subscription", "failed"
        return status, error, None
