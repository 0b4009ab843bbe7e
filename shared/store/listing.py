"""Listing games: the creation-time index ``<p>:games`` (a sorted set of game ids scored
by creation time in µs; one API key's index has the same form, see
shared/store/status.py), pages of it newest first, and the cursors between pages.

The index lives outside the games' hash slots, so it is written by a pipeline after the
game's own write; ids whose document expired are dropped from it as pages are read.

May import the store's own modules (layout, documents).
"""

from __future__ import annotations

import base64
import binascii
import re
import time
from collections.abc import Callable
from typing import Any

from shared.store.documents import StoredDoc, load_doc
from shared.store.layout import Layout

_LIST_BATCH = 50
_LIST_SCAN_CAP = 1000


def now_us() -> int:
    """Wall-clock time in microseconds (listing order)."""
    return time.time_ns() // 1000


def _encode_cursor(score: float, game_id: str) -> str:
    raw = f"{int(score)}:{game_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


CURSOR = re.compile(r"([0-9]{1,18}):([A-Za-z0-9_-]{1,64})", re.ASCII)
"""A listing cursor's text: a score (µs or ms, ASCII digits, exact as a Redis score) and
a game id."""


def decode_cursor(cursor: str) -> tuple[int, str]:
    """The (score, id) a listing cursor points after. Raises ValueError if malformed."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError) as error:
        raise ValueError("malformed cursor") from error
    found = CURSOR.fullmatch(raw)
    if found is None:
        raise ValueError("malformed cursor")
    return int(found[1]), found[2]


class Listing(Layout):
    """The listing's part of :class:`shared.store.gamestore.GameStore`."""

    client: Any

    def index_add(self, game_id: str, created_us: int, max_age_s: int) -> None:
        """Add a game to the listing and drop index entries older than any game can live."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(self.index_key, {game_id: created_us})
        pipe.zremrangebyscore(self.index_key, "-inf", created_us - max_age_s * 1_000_000)
        pipe.execute()

    def list_games(
        self,
        status: str | None,
        limit: int,
        cursor: str | None,
        index: str | None = None,
        keep: Callable[[StoredDoc], bool] | None = None,
    ) -> tuple[list[StoredDoc], str | None]:
        """Games newest first, optionally of one ``status``, and the cursor of the next
        page (``None`` at the end). Ids whose document expired are dropped from the index.
        At most about ``_LIST_SCAN_CAP`` ids are looked at per page. ``index``: another
        listing index than all games' (one API key's, see
        :class:`shared.store.status.Tracking`, or a player's). ``keep``: a further
        filter of the documents (the caller's: the store never interprets a game)."""
        index = index or self.index_key
        bound, last_id = decode_cursor(cursor) if cursor else (None, None)
        found: list[StoredDoc] = []
        scanned = 0
        while True:
            batch, more = self._batch_after(bound, last_id, index)
            if not batch:
                return found, None
            gone = []
            for gid, score, raw in batch:
                bound, last_id = score, gid
                scanned += 1
                if raw is None:
                    gone.append(gid)
                    continue
                doc = load_doc(raw)
                if (status is None or doc["status"] == status) and (keep is None or keep(doc)):
                    found.append(doc)
                    if len(found) == limit:
                        break
            if gone:
                self.client.zrem(index, *gone)
            if len(found) == limit or (more and scanned >= _LIST_SCAN_CAP):
                assert bound is not None and last_id is not None  # the batch was not empty
                return found, _encode_cursor(bound, last_id)
            if not more:
                return found, None

    def _batch_after(
        self, bound: int | None, last_id: str | None, index: str | None = None
    ) -> tuple[list[tuple[str, int, str | None]], bool]:
        """The next index entries ``(id, score, document or None)`` after the position
        ``(bound, last_id)`` (two round trips), and whether more may follow."""
        batch = self.client.zrange(
            index or self.index_key,
            "+inf" if bound is None else bound,
            "-inf",
            desc=True,
            byscore=True,
            offset=0,
            num=_LIST_BATCH,
            withscores=True,
        )
        more = len(batch) == _LIST_BATCH
        # Ties on the score come in descending id order: skip those already passed.
        batch = [
            (gid, int(score))
            for gid, score in batch
            if not (last_id is not None and int(score) == bound and gid >= last_id)
        ]
        pipe = self.client.pipeline(transaction=False)
        for gid, _ in batch:
            pipe.get(self.keys(gid)[0])
        raws = pipe.execute() if batch else []
        return [(gid, score, raw) for (gid, score), raw in zip(batch, raws, strict=True)], more
