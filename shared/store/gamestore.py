""":class:`GameStore`, the one object the layers above hold: the store of one service,
made of one part per job (each a mixin over the key names of shared/store/layout.py).

- documents.py: the game document, its reads and the one write of a game;
- events.py: the event stream and the history, read;
- chat.py: the table chat and its mutes (``chat.lua``), read with the events;
  chat_edits.py: a message with the ones around it (a report's context);
- listing.py: the creation-time index and its pages;
- schedule.py: the worker's due times;
- outbox.py: the webhook outbox, delivery state and ready shards;
- status.py: the status sets and API-key quotas (``tracking``, a part of its own);
- players.py: each player's index of its games here; the player registry common to
  every service (``registry``, a part of its own);
- matchmaking.py: quick match's pools of open tables (``matchmaking.lua``);
- embeds.py: the embed links' secret and one-use claims (``embeds``, common to every
  service).
- moderation.py: blocks, reports, the audit log and suspensions, common to every
  service (``moderation``, a part of its own).
- tournaments.py: this service's tournaments, their listing and the worker's schedule
  of them (``tournaments``, a part of its own).

May import the store's own modules and redis.
"""

from __future__ import annotations

from typing import Any

import redis

from shared.store import chat, documents, events, matchmaking, outbox, schedule
from shared.store.analyses import Analyses
from shared.store.chat import ChatStore
from shared.store.chat_edits import ChatEdits
from shared.store.documents import Documents
from shared.store.embeds import EmbedLinks
from shared.store.layout import DUE_SHARDS
from shared.store.listing import Listing
from shared.store.matchmaking import Matchmaking
from shared.store.moderation import Moderation
from shared.store.outbox import Outbox
from shared.store.players import Memberships, Registry
from shared.store.schedule import Schedule
from shared.store.status import Tracking
from shared.store.tournaments import Tournaments


class GameStore(
    Documents, ChatStore, ChatEdits, Listing, Schedule, Outbox, Memberships, Matchmaking
):
    """Reads and atomic writes of the games of one service (key prefix ``prefix``)."""

    def __init__(
        self,
        client: Any,
        blocking: Any,
        prefix: str,
        due_shards: int = DUE_SHARDS,
    ) -> None:
        super().__init__(prefix, due_shards)
        self.client = client
        self.blocking = blocking
        self.cluster = isinstance(client, redis.RedisCluster)
        # (registering a script costs no round trip: its SHA is computed here)
        self._write = client.register_script(documents.SCRIPT)
        self._history = client.register_script(events.SCRIPT)
        self._chat = client.register_script(chat.SCRIPT)
        self._schedule = client.register_script(schedule.SCRIPT)
        self._unlock = client.register_script(outbox.UNLOCK)
        self._append = client.register_script(outbox.APPEND)
        self._once = client.register_script(outbox.ONCE)
        self._match = client.register_script(matchmaking.SCRIPT)
        self.tracking = Tracking(self)
        self.analyses = Analyses(client, prefix)  # finished games' analyses (the worker's)
        self.registry = Registry(client)  # the players, common to every service
        self.embeds = EmbedLinks(client)  # embed links' secret and one-use claims, common too
        self.moderation = Moderation(client)  # blocks, reports, audit, suspensions: common
        self.tournaments = Tournaments(client, prefix, self)  # this service's tournaments
