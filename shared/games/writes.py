"""The write loop: read the document (one round trip), decide with the engine in memory,
then one compare-and-set script call. When someone else wrote in between, the whole step
is retried on the current document, which the refused call brought back, so the engine
decides again (two moves racing for one turn: the loser gets the engine's or the turn's
rejection)."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from shared.engine import RuleError
from shared.games import (
    history,
    migrate,
    notify,
    players,
    rates,
    ratings,
    records,
    seats,
    spectate,
)
from shared.games.base import GAME_ID, OPEN, OVER, Context, Outcome, not_found, now_text
from shared.games.document import GameDoc, from_store
from shared.games.errors import Conflict
from shared.games.players import check_key
from shared.games.records import Retry
from shared.games.replay import same_move
from shared.games.tokens import UncheckedPlayer
from shared.ops import metrics
from shared.store import HistoryWrite, NotReplicated, StoredDoc, client_of, event_id

log = logging.getLogger(__name__)


class WriteLoop:
    """Reads and compare-and-set writes of the games of one service."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.move_rate = rates.parse_rate(ctx.settings.get("RATE_LIMIT_MOVES"))

    def read(
        self,
        game_id: str,
        with_tail: bool = False,
        limit_as: str | None = None,
        player: UncheckedPlayer | None = None,
    ) -> tuple[GameDoc, str | None]:
        """The document and, if asked, its history tail; with ``limit_as`` (a client's
        name in this game) the same round trip counts the request against
        ``RATE_LIMIT_MOVES`` (429 over it); with ``player``, the same round trip reads
        its key, checked first (403 ``invalid-player-key``). 404 when there is no such
        game."""
        store = self.ctx.store
        if not GAME_ID.match(game_id):
            raise not_found(game_id)
        who = None if player is None else str(player)
        rate = None if limit_as is None else self.move_rate
        if rate is None:
            doc, tail, _, stored_key = store.read_counted(game_id, with_tail, player=who)
        else:
            number, retry_after = rates.window_of(rate)
            doc, tail, count, stored_key = store.read_counted(
                game_id, with_tail, f"{limit_as}:{number}", rate.get_expiry() + 1, who
            )
        if player is not None:
            check_key(player, stored_key)
        if rate is not None:
            rates.check(count, rate, retry_after, "moves")
        if doc is None:
            raise not_found(game_id)
        return self._upgraded(doc), tail

    def load(self, game_id: str) -> GameDoc:
        """The document; 404 if there is none."""
        return self.read(game_id)[0]

    def _upgraded(self, raw: StoredDoc) -> GameDoc:
        """The document the store read, its engine state upgraded (the games layer's
        one way in: :func:`from_store`)."""
        doc = from_store(raw)
        if doc["state"] is not None:
            try:
                doc["state"] = self.ctx.engine.upgrade(doc["state"])
            except RuleError as error:  # stored by code this version cannot read
                raise Conflict(error.code, error.template, **error.params) from error
        return doc

    def ttl(self, doc: GameDoc) -> int:
        """Seconds the game lives after this write: short once over, long while it runs
        (from its last write), and while open until ``GAME_TTL_OPEN`` after its creation
        (joins do not extend it: nobody can keep an unstarted game alive for ever)."""
        settings = self.ctx.settings
        if doc["status"] in OVER:
            return int(settings["GAME_TTL_FINISHED"])
        if doc["status"] == OPEN:
            created = datetime.fromisoformat(doc["created_at"].replace("Z", "+00:00"))
            age = (datetime.now(UTC) - created).total_seconds()
            return max(1, math.ceil(float(settings["GAME_TTL_OPEN"]) - age))
        return int(settings["GAME_TTL_IDLE"])

    def mutate(
        self,
        game_id: str,
        decide: Callable[[GameDoc], Outcome],
        idem_field: str | None = None,
        limit_as: str | None = None,
        digest: str = "",
        player: UncheckedPlayer | None = None,
    ) -> tuple[GameDoc, list[dict[str, Any]], Retry | None]:
        """Read, ``decide``, compare-and-set; retried on a version conflict.

        Returns the written document, its stamped events and ``None``; or, when
        ``idem_field`` was used before, the current document, no events and the
        :class:`Retry` found in the history (see :func:`shared.games.replay.replay`);
        ``422 idempotency-key-reused`` when that record holds another move. Only the
        first read counts against the move limit. ``player``: a move's player, its key
        checked by the first read (:meth:`read`).
        """
        store, name = self.ctx.store, self.ctx.engine.NAME
        key = None if idem_field is None else history.key_hash(idem_field)
        ahead = None  # the current game a refused write sent back: decided on without a read
        for _ in range(self.ctx.settings["CAS_RETRIES"]):
            if ahead is None:
                doc, tail = self.read(game_id, True, limit_as, player)
                limit_as = player = None  # only the first read counts and checks
            else:
                (raw, tail), ahead = ahead, None
                doc = self._upgraded(raw)
            decided = self._decide(doc, tail, decide, key, digest)
            if isinstance(decided, Retry):
                store.confirm(game_id)  # (REDIS_WAIT_REPLICAS: the replicas have it)
                self._schedule_again(doc)
                return doc, [], decided
            new, events, written, due, outbox = decided
            stored = self.ctx.stored(new)
            members = players.members(new)
            ring = spectate.ring_op(doc, new)  # a delayed game's spectators' documents
            result = store.write(
                stored, doc["version"], events, self.ttl(new), written, due, outbox, members, ring
            )
            metrics.record_write(name, doc["status"], new["status"], result.outcome)
            if result.outcome == "ok":
                if "events_from" in stored:  # (the write may have raised it on its copy)
                    new["events_from"] = stored["events_from"]
                if new["status"] != doc["status"]:
                    store.tracking.moved(game_id, doc["status"], new["status"], doc.get("owner"))
                if new.get("ratings_pending"):
                    self.settle_ratings(new)
                if result.unconfirmed is not None:  # written, not yet on enough replicas
                    raise result.unconfirmed
                return new, events, None
            if result.outcome == "missing":
                raise not_found(game_id)
            ahead = result.current
        raise Conflict(
            "version-conflict",
            "The game kept changing while this request was applied; try again.",
        )

    def _schedule_again(self, doc: GameDoc) -> None:
        """A retry on Redis Cluster puts the game's due time back in the schedule: the
        first attempt may have written the game and then failed (a node's death) before
        the schedule's own round trip, and the worker would never come to its bots or
        clocks. Lowering is idempotent; one round trip, on retries of scheduled games."""
        store = self.ctx.store
        if not store.cluster or not seats.is_scheduled(doc) and not doc.get("ratings_pending"):
            return
        now = seats.now_ms()
        low = seats.low_share(self.ctx.settings)
        due = now if doc.get("ratings_pending") else seats.due_ms(doc, now, low)
        if due is None:
            return
        acked = store.lower_due(client_of(doc), doc["id"], due)
        if acked is not None and acked < store.replicas:
            raise NotReplicated(store.replicas, acked)

    def settle_ratings(self, doc: GameDoc) -> None:
        """Count an ended game in its players' ratings (shared/games/ratings.py); a
        failure is left to the worker, which finds the game due."""
        try:
            ratings.settle_ratings(self.ctx, self.mutate, doc)
        except Exception:  # noqa: BLE001 - the worker retries (the game stays due)
            log.exception("ratings of %s not settled; the worker will", doc["id"])

    def _decide(
        self,
        doc: GameDoc,
        tail: str | None,
        decide: Callable[[GameDoc], Outcome],
        key: str | None,
        digest: str,
    ) -> Retry | tuple[GameDoc, list[dict[str, Any]], HistoryWrite, int | None | bool, list[Any]]:
        """One attempt on ``doc`` and its history ``tail``: the keyed move's earlier
        record (its retry), or the new document, its stamped events, history write, due
        time and webhook notifications."""
        archive = None  # read only when needed
        if "events_from" not in doc:  # written by older code: migrated by this write
            tail, archive = migrate.history_of(self.ctx, doc)
        if key is not None:
            retry = records.find(self.ctx.store, doc, tail, key, archive)
            if retry is not None:
                same_move(retry.record, digest)
                return retry
        outcome = decide(doc)
        new = outcome.doc
        ratings.annotate(self.ctx, doc, new, outcome.events)
        due = _clock(doc, outcome, self.ctx.settings)
        new["version"] = version = doc["version"] + 1
        new["updated_at"] = now_text()
        spectate.mark(doc, new, bool(outcome.moves))
        events = [
            {**event, "version": version, "id": event_id(version, n)}
            for n, event in enumerate(outcome.events)
        ]
        written = records.next_write(self.ctx.settings, doc, new, outcome, tail, key)
        if archive is not None:  # a migrating write
            new = {"version": version, "events_from": new.pop("events_from"), **new}
            written = migrate.with_archive(written, tail, archive)
        movers = {move["seat"] for move in outcome.moves}
        return new, events, written, due, notify.notifications(doc, new, events, movers)


def _clock(old: GameDoc, outcome: Outcome, settings: dict[str, Any]) -> int | None | bool:
    """Deadlines of the seats to act after this change, and the game's due time for
    the worker (``False``: a game without clock or bots, never scheduled)."""
    new = outcome.doc
    movers = {move["seat"] for move in outcome.moves}
    now = seats.now_ms()
    seats.refresh(old, new, movers, now)
    if new.get("ratings_pending"):  # the worker's, should this process not settle them
        return now + 1000 * int(settings["RATINGS_GRACE_SECONDS"])
    if old.get("ratings_pending"):  # settled
        return None
    if not (seats.is_scheduled(new) or seats.is_scheduled(old)):
        return False
    return seats.due_ms(new, now, seats.low_share(settings))
