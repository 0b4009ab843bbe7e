"""The ``digest``: the games waiting for a player's move, pushed at most once a day.

Opt-in (shared/push/subscriptions.py ``OPT_IN``). The cheapest sound way: a player who
asks for it joins the sorted set ``players:digest`` (shared/store/push.py), due at once;
nothing is written on a move (a move's round trips are untouched). The worker's
:meth:`Digester.tick` claims the players whose digest is due (moved a lease ahead, so a
copy that dies loses nothing: the player is due again after :data:`LEASE_MS`) and for
each one:

- a player that no longer wants it (or was deleted) leaves the set;
- in its quiet hours, its digest is due when they end;
- else the games where it is to act, read from its index of live games in every
  service this worker serves (``WORKER_GAMES``; both by default: one digest covers
  both games; a copy serving one game only covers that one), are pushed to each of its
  subscriptions (nothing when no game waits), and the next digest is due a day later.
  When every subscription failed, the claim's lease runs out and it is tried again.

Players are common to both services, so the set is the registry's, not a service's:
every copy of the worker should serve the same games (as ``WORKER_GAMES`` does by
default), or a player's digest covers the games of whichever copy claimed it.
"""

from __future__ import annotations

import time
from typing import Any

from shared.games import Games
from shared.games.notify import now_iso
from shared.push import messages
from shared.push.sending import Pusher
from shared.push.subscriptions import DIGEST, settings_of, subscriptions_of
from shared.store.push import PushRegistry

DAY_MS = 86_400_000
LEASE_MS = 300_000
"""How long a claimed player waits before another try (a worker died, or every
subscription failed)."""
BATCH = 50
SHOWN = 20
"""The waiting games a digest lists, at most, per service."""


class Digester:
    """The digests of one worker (off while push is)."""

    def __init__(self, games: list[Games], pusher: Pusher) -> None:
        self.games = games
        self.pusher = pusher

    def tick(self) -> int:
        """Send the digests due now; how many players were looked at."""
        if self.pusher.vapid is None or not self.games:
            return 0
        registry = self.games[0].store.registry
        store = PushRegistry(registry.client)
        now = int(time.time() * 1000)
        claimed = store.digest_claim(now, LEASE_MS, BATCH)
        for player_id in claimed:
            self.one(store, player_id, registry.get(player_id) or {}, now)
        return len(claimed)

    def waiting(self, player_id: str) -> tuple[list[dict[str, Any]], bool]:
        """The games where the player is to act here, and whether there are more."""
        found: list[dict[str, Any]] = []
        more = False
        for games in self.games:
            entries, cursor = games.player_games(player_id, None, True, SHOWN, None)
            found += entries
            more = more or (cursor is not None and len(entries) >= SHOWN)
        return found, more

    def one(self, store: PushRegistry, player_id: str, fields: dict[str, str], now: int) -> None:
        """The digest of one claimed player (see the module's docstring)."""
        prefs = settings_of(fields)
        if "key" not in fields or DIGEST not in prefs["events"]:
            store.digest_plan(player_id, None)
            return
        until = messages.quiet_until(prefs, now)
        if until is not None:
            store.digest_at(player_id, until)
            return
        subs = subscriptions_of(fields)
        found, more = self.waiting(player_id) if subs else ([], False)
        if not found:
            store.digest_at(player_id, now + DAY_MS)
            return
        body = messages.digest_payload(found, more, prefs["language"], now_iso())
        head = messages.digest_headers(self.pusher.ttl)
        done = False
        for sub in subs:
            status, _, verdict = self.pusher.push(store.client, player_id, sub, body, head)
            done = done or verdict is not None or (status is not None and 200 <= status < 300)
        if done:
            store.digest_at(player_id, now + DAY_MS)
