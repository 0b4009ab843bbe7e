"""The store: the only door to Redis. Per game one document (JSON, stored compressed
behind a plain head), a capped event stream and a compact history (tail and archive),
written atomically by one script; beside them the listing index, the worker's schedule,
the webhook outbox and the status sets (docs/architecture.md, "Redis layout").

It answers with what is stored and never interprets a game: events the capped stream
no longer holds come back as the history they are rebuilt from, and the games layer
(shared/games/history.py) replays them. So the store imports nothing from the layers
above it (games, http, streaming, worker, webhooks): only ``shared.ops`` and its own
modules, one job each:

- ``errors``: the store's failures (:data:`StoreError`, :data:`StoreFull`, :data:`STORE_DOWN`,
  :class:`NotReplicated`);
- ``clients``: the redis-py clients and :func:`open_store`;
- ``connection``: the fast path of the hot commands (a lane of sockets; the pipe under gevent);
- ``replicated``: a write and its ``WAIT`` for replicas in one send;
- ``layout``: the key names;
- ``gamestore``: :class:`GameStore`, assembled from the parts below;
- ``documents``: the game document, its reads and the write script call (``store.lua``);
- ``events``: the event stream and the history, read (``history.lua``);
- ``chat``: the table chat and its readers' mutes (``chat.lua``), read with the events;
- ``entries``: event ids and how a write's events sit in its stream entry (pure);
- ``listing``: the creation-time index and its cursors;
- ``schedule``: the worker's due times, per client (``schedule.lua``);
- ``outbox``: the webhook outbox, delivery state and ready shards;
- ``tournaments``: the tournaments' documents (compare-and-set), list and schedule;
- ``status``: the status sets and API-key quotas (:class:`Tracking`);
- ``matchmaking``: quick match's pools of open tables (``matchmaking.lua``);
- ``analyses``: finished games' analyses, their queue and the analysing worker's claim;
- ``document_codec``, ``jsoncodec``: how documents and JSON are encoded.

This module only gathers the names the other layers import.
"""

from __future__ import annotations

from shared.store import connection, document_codec, jsoncodec
from shared.store.chat import EventsAndChat, Message
from shared.store.clients import make_clients, open_store
from shared.store.documents import HistoryWrite, StoredDoc, WriteResult, dumps, load_doc
from shared.store.entries import (
    CHAT_SEQ,
    contiguous,
    event_id,
    normalize_after,
    parse_entries,
    position,
)
from shared.store.entries import stored_events as _stored_events  # (tests)
from shared.store.errors import STORE_DOWN, NotReplicated, StoreError, StoreFull
from shared.store.events import Events, History, LegacyLog
from shared.store.gamestore import GameStore
from shared.store.layout import DUE_SHARDS, address_owner, client_of
from shared.store.listing import decode_cursor, now_us
from shared.store.schedule import Claim
from shared.store.status import LIVE_STATUSES, OVER_STATUSES, Tracking

__all__ = [
    "CHAT_SEQ",
    "DUE_SHARDS",
    "LIVE_STATUSES",
    "OVER_STATUSES",
    "STORE_DOWN",
    "Claim",
    "Events",
    "EventsAndChat",
    "GameStore",
    "History",
    "HistoryWrite",
    "LegacyLog",
    "Message",
    "NotReplicated",
    "StoreError",
    "StoreFull",
    "StoredDoc",
    "Tracking",
    "WriteResult",
    "_stored_events",
    "address_owner",
    "client_of",
    "connection",
    "contiguous",
    "decode_cursor",
    "document_codec",
    "dumps",
    "event_id",
    "jsoncodec",
    "load_doc",
    "make_clients",
    "normalize_after",
    "now_us",
    "open_store",
    "parse_entries",
    "position",
]
