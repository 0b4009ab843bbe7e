"""Seats, tokens, turn order and versions: the game-agnostic lifecycle of a game.

Every write is read-apply-write: read the document (one round trip), decide with the
engine in memory, then one compare-and-set script call. When someone else wrote in
between, the whole step is retried on the fresh document, so the engine decides again
(two moves racing for one turn: the loser gets the engine's or the turn's rejection).
Nothing here touches Flask; errors are :class:`ApiError` or the engine's ``RuleError``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from shared import fairness, metrics, names, ratelimit, seats, tokens
from shared.access import missing_token, require_host, require_seat
from shared.engine import Choice, Engine, RuleError
from shared.errors import ApiError, invalid
from shared.store import Doc, GameStore, event_id, now_us
from shared.webhooks import notify

OPEN, RUNNING, FINISHED, CANCELLED = "open", "running", "finished", "cancelled"
OVER = (FINISHED, CANCELLED)
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TERMINAL_EVENTS = ("game_finished", "game_cancelled")
IfMatch = Callable[[int], bool] | None
"""A predicate on versions from ``If-Match``; ``None`` when the header is absent."""


@dataclass
class Outcome:
    """What a change decided: the new document, its events (not yet stamped with id and
    version) and the moves to append to the moves list."""

    doc: Doc
    events: list[dict[str, Any]]
    moves: list[dict[str, Any]] = field(default_factory=list)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _not_found(game_id: str) -> ApiError:
    return ApiError(404, "game-not-found", f"There is no game {game_id!r}.")


def _check_if_match(doc: Doc, if_match: IfMatch) -> None:
    """412 when the client's ``If-Match`` names another version."""
    if if_match is not None and not if_match(doc["version"]):
        raise ApiError(
            412,
            "version-mismatch",
            f"The game is at version {doc['version']}; If-Match does not match.",
            version=doc["version"],
        )


def _public(doc: Doc) -> dict[str, Any]:
    """The facts about a game anyone may see (the head of a view, summary and log)."""
    return {
        "id": doc["id"],
        "game": doc["game"],
        "status": doc["status"],
        "version": doc["version"],
        "options": {"players": doc["seats"], **_clock_option(doc), **doc["options"]},
        "players": _players(doc),
        # documents stored before seed commitments have neither (null, false)
        "seed_commitment": doc.get("seed_commitment"),
        "seed_chosen": doc.get("seed_chosen", False),
    }


def _move_digest(move: dict[str, Any]) -> str:
    """What an idempotency record remembers of a move: 128 bits of the SHA-256 of its
    canonical JSON (the validated move, keys sorted), to tell a retry from a reuse."""
    canonical = json.dumps(move, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


def _parse_record(record: str) -> tuple[int, str, str | None]:
    """``"<version> <updated_at> <move digest>"`` as its parts; records written before
    digests were stored have no third part (``None``: any body is taken as a retry)."""
    version_text, updated_at, *rest = record.split(" ")
    return int(version_text), updated_at, rest[0] if rest else None


def _clock_option(doc: Doc) -> dict[str, Any]:
    return {"clock": doc["clock"]} if doc.get("clock") else {}


def _players(doc: Doc) -> list[dict[str, Any]]:
    return [{"seat": p["seat"], "name": p["name"], **seats.public(p)} for p in doc["players"]]


def _same_move(record: str, digest: str) -> str:
    """``record`` when it is the record of this move (or predates digests), else 422."""
    stored = _parse_record(record)[2]
    if stored is not None and stored != digest:
        raise ApiError(
            422,
            "idempotency-key-reused",
            "This Idempotency-Key was used for another move; use a new key for a new move.",
        )
    return record


class Games:
    """The lifecycle of the games of one engine, stored in one :class:`GameStore`.

    Requests name their bearer by ``digest``, the token's hash (``None``: no token),
    computed once per request by the caller; the raw token never gets this far.
    """

    def __init__(self, engine: Engine, store: GameStore, settings: dict[str, Any]) -> None:
        self.engine = engine
        self.store = store
        self.settings = settings
        self.move_rate = ratelimit.parse_rate(settings.get("RATE_LIMIT_MOVES"))

    # -- reads -------------------------------------------------------------------------

    def load(self, game_id: str) -> Doc:
        """The document; 404 if there is none."""
        return self._read(game_id)[0]

    def _read(
        self, game_id: str, idem_field: str | None = None, limit_as: str | None = None
    ) -> tuple[Doc, str | None]:
        """The document and the idempotency record if asked; with ``limit_as`` (a
        client's name in this game) the same round trip counts the request against
        ``RATE_LIMIT_MOVES`` (429 over it)."""
        if not GAME_ID.match(game_id):
            raise _not_found(game_id)
        if limit_as is None:
            doc, record = self.store.read(game_id, idem_field)
        else:
            rate = self.move_rate
            assert rate is not None
            number, retry_after = ratelimit.window_of(rate)
            doc, record, count = self.store.read_counted(
                game_id, idem_field, f"{limit_as}:{number}", rate.get_expiry() + 1
            )
            ratelimit.check(count, rate, retry_after, "moves")
        if doc is None:
            raise _not_found(game_id)
        if doc["state"] is not None:
            try:
                doc["state"] = self.engine.upgrade(doc["state"])
            except RuleError as error:  # stored by code this version cannot read
                raise ApiError(409, error.code, error.message) from error
        return doc, record

    def view(self, doc: Doc, seat: int | None) -> dict[str, Any]:
        """The game as ``seat`` (``None``: a spectator) may see it. Never the seed, the
        token hashes or the raw engine state: only the engine's own view of it."""
        state = doc["state"]
        return {
            **_public(doc),
            "you": seat,
            "to_act": doc["to_act"],
            "state": None if state is None else self.engine.view(state, seat),
            "result": doc["result"],
            "created_at": doc["created_at"],
            "updated_at": doc["updated_at"],
        }

    @staticmethod
    def summary(doc: Doc) -> dict[str, Any]:
        """A listing entry: public facts only."""
        return {**_public(doc), "to_act": doc["to_act"], "created_at": doc["created_at"]}

    def legal_moves(self, doc: Doc, seat: int) -> list[dict[str, Any]]:
        """The seat's legal moves now (none unless the game runs and the seat is to act)."""
        if doc["status"] != RUNNING or seat not in doc["to_act"]:
            return []
        return list(self.engine.legal_moves(doc["state"], seat))

    def choices(self, doc: Doc, seat: int) -> list[Choice]:
        """How the seat may fill the subset fields of its legal moves (see shared.engine)."""
        if doc["status"] != RUNNING or seat not in doc["to_act"]:
            return []
        return self.engine.choices(doc["state"], seat)

    def score(self, doc: Doc) -> dict[str, Any]:
        """Public scores so far and the result once over."""
        state = doc["state"]
        return {
            "status": doc["status"],
            "score": None if state is None else self.engine.score(state),
            "result": doc["result"],
        }

    def log(self, doc: Doc) -> dict[str, Any]:
        """Every event; once the game is over also the seed, its commitment's salt and
        every move (replayable, and checkable against ``seed_commitment``)."""
        body = {**_public(doc), "events": self.store.all_events(doc["id"])}
        if doc["status"] in OVER:
            body["seed"] = doc["seed"]
            body["salt"] = doc.get("salt")
            body["moves"] = self.store.all_moves(doc["id"])
        return body

    # -- the write loop ----------------------------------------------------------------

    def ttl(self, doc: Doc) -> int:
        """Seconds the game lives after this write: short once over, long while it runs
        (from its last write), and while open until ``GAME_TTL_OPEN`` after its creation
        (joins do not extend it: nobody can keep an unstarted game alive for ever)."""
        if doc["status"] in OVER:
            return int(self.settings["GAME_TTL_FINISHED"])
        if doc["status"] == OPEN:
            created = datetime.fromisoformat(doc["created_at"].replace("Z", "+00:00"))
            age = (datetime.now(UTC) - created).total_seconds()
            return max(1, math.ceil(float(self.settings["GAME_TTL_OPEN"]) - age))
        return int(self.settings["GAME_TTL_IDLE"])

    def _mutate(
        self,
        game_id: str,
        decide: Callable[[Doc], Outcome],
        idem_field: str | None = None,
        limit_as: str | None = None,
        digest: str = "",
    ) -> tuple[Doc, list[dict[str, Any]], str | None]:
        """Read, ``decide``, compare-and-set; retried on a version conflict.

        Returns the written document, its stamped events and ``None``; or, when
        ``idem_field`` was used before, the current document, no events and the stored
        record (see :meth:`_replay`); ``422 idempotency-key-reused`` when that record
        holds another move's ``digest``. Only the first read counts against the move
        limit.
        """
        for _ in range(self.settings["CAS_RETRIES"]):
            doc, record = self._read(game_id, idem_field, limit_as)
            limit_as = None
            if record is not None:
                return doc, [], _same_move(record, digest)
            outcome = decide(doc)
            new = outcome.doc
            due = self._clock(doc, outcome)
            new["version"] = version = doc["version"] + 1
            new["updated_at"] = _now()
            events = [
                {**event, "version": version, "id": event_id(version, n)}
                for n, event in enumerate(outcome.events)
            ]
            movers = {move["seat"] for move in outcome.moves}
            outbox = notify.notifications(doc, new, events, movers)
            result = self.store.write(
                new,
                doc["version"],
                events,
                outcome.moves,
                self.ttl(new),
                idem_field,
                f"{version} {new['updated_at']} {digest}" if idem_field else None,
                due,
                outbox,
            )
            metrics.record_write(self.engine.NAME, doc["status"], new["status"], result.outcome)
            if result.outcome == "ok":
                if new["status"] != doc["status"]:
                    self.store.tracking.moved(
                        game_id, doc["status"], new["status"], doc.get("owner")
                    )
                return new, events, None
            if result.outcome == "duplicate":
                return doc, [], _same_move(result.record or "", digest)
            if result.outcome == "missing":
                raise _not_found(game_id)
        raise ApiError(
            409,
            "version-conflict",
            "The game kept changing while this request was applied; try again.",
        )

    @staticmethod
    def _clock(old: Doc, outcome: Outcome) -> int | None | bool:
        """Deadlines of the seats to act after this change, and the game's due time for
        the worker (``False``: a game without clock or bots, never scheduled)."""
        new = outcome.doc
        movers = {move["seat"] for move in outcome.moves}
        now = seats.now_ms()
        seats.refresh(old, new, movers, now)
        if not (seats.is_scheduled(new) or seats.is_scheduled(old)):
            return False
        return seats.due_ms(new, now)

    def _replay(self, doc: Doc, record: str) -> tuple[Doc, list[dict[str, Any]]]:
        """The document and events of an idempotent move's first answer, rebuilt byte for
        byte from its record ``"<version> <updated_at> <digest>"``: the engine replays the
        stored moves from the seed (as anyone can with the log) up to that version."""
        version, updated_at, _ = _parse_record(record)
        state = self.engine.setup(len(doc["players"]), dict(doc["options"]), doc["seed"])
        for entry in self.store.all_moves(doc["id"]):
            if entry["version"] > version:
                break
            state, _ = self.engine.apply_move(state, entry["seat"], entry["move"])
        then = {**doc, "state": state, "version": version, "updated_at": updated_at}
        self._settle(then, [])
        return then, self.store.events_of(doc["id"], version)

    def _settle(self, doc: Doc, events: list[dict[str, Any]]) -> None:
        """Status, ``to_act`` and result after the engine moved; ends a finished game."""
        state = doc["state"]
        if self.engine.is_over(state):
            doc["status"] = FINISHED
            doc["to_act"] = []
            doc["result"] = seats.rank_resigned_last(self.engine.result(state), doc["players"])
            events.append({"type": "game_finished", "result": doc["result"]})
        else:
            doc["status"] = RUNNING
            doc["to_act"] = list(self.engine.to_act(state))

    # -- operations --------------------------------------------------------------------

    def create(
        self,
        options: dict[str, Any],
        owner: str | None = None,
        webhook: dict[str, Any] | None = None,
    ) -> tuple[Doc, str]:
        """A new open game and its host token. ``players`` (seat count, default the
        engine's maximum) and ``seed`` (default random) are the kit's; the rest are the
        engine's options, checked now by a trial setup so a bad mix fails at once.
        ``owner``: the id of the API key that creates it (see shared/apikeys.py)."""
        options = dict(options)
        seats = options.pop("players", None) or self.engine.MAX_PLAYERS
        seed = options.pop("seed", None)
        salt = commitment = None
        clock = self._check_clock(options.pop("clock", None))
        if seed is None:
            seed, salt, commitment = fairness.new_seed()
        elif not self.settings.get("ALLOW_CHOSEN_SEED", True):
            raise ApiError(
                422,
                "option-not-allowed",
                "This service picks every seed itself (ALLOW_CHOSEN_SEED is off).",
            )
        if not self.engine.MIN_PLAYERS <= seats <= self.engine.MAX_PLAYERS:
            raise invalid("json", "players", "players is out of range.", "Out of range.")
        try:  # a trial set-up: option combinations the schema cannot judge are bad input
            self.engine.setup(seats, options, seed)
        except RuleError as error:
            raise ApiError(422, error.code, error.message) from error
        host_token = tokens.new_token()
        game_id = secrets.token_hex(8)
        now = _now()
        doc: Doc = {
            "version": 1,  # first: the write script reads it without decoding the document
            "id": game_id,
            "game": self.engine.NAME,
            "status": OPEN,
            "seats": seats,
            "options": options,
            "seed": seed,
            "salt": salt,
            "seed_commitment": commitment,
            "seed_chosen": commitment is None,
            "clock": clock,
            "host": tokens.hash_token(host_token),
            "players": [],
            "state": None,
            "to_act": [],
            "result": None,
            "created_at": now,
            "updated_at": now,
        }
        if owner is not None:
            doc["owner"] = owner
        if webhook is not None:  # a checked registration (shared/webhooks/registry.py)
            doc["webhooks"] = [webhook]
        event = {
            "type": "game_created",
            "options": {"players": seats, **_clock_option(doc), **options},
            "version": 1,
            "id": event_id(1, 0),
        }
        result = self.store.write(doc, 0, [event], [], self.ttl(doc))
        if result.outcome != "ok":  # pragma: no cover - a 64-bit id collision
            raise ApiError(409, "version-conflict", "Could not create the game; try again.")
        created_us = now_us()
        try:  # listed only once written (a listing drops ids without a document)...
            self.store.index_add(game_id, created_us, self.settings["GAME_TTL_IDLE"])
        except Exception:  # ...and never written unlisted: the client got no id
            with contextlib.suppress(Exception):
                self.store.discard(game_id)
            raise
        metrics.record_write(self.engine.NAME, None, OPEN, "ok")
        ttl = self.settings["GAME_TTL_IDLE"]
        self.store.tracking.moved(game_id, None, OPEN, owner, created_us, ttl)
        return doc, host_token

    def _check_clock(self, clock: dict[str, Any] | None) -> dict[str, Any] | None:
        """The ``clock`` option with its defaults; 422 below ``CLOCK_MIN_TURN_SECONDS``."""
        if clock is None:
            return None
        low = self.settings.get("CLOCK_MIN_TURN_SECONDS", 10)
        if not low <= clock["turn_seconds"] <= seats.MAX_TURN_SECONDS:
            detail = f"turn_seconds must be {low}..{seats.MAX_TURN_SECONDS}."
            raise invalid("json", "clock", detail, "Out of range.")
        return {
            "turn_seconds": clock["turn_seconds"],
            "max_timeouts": clock.get("max_timeouts", seats.DEFAULT_MAX_TIMEOUTS),
        }

    def join(
        self,
        game_id: str,
        name: str,
        if_match: IfMatch = None,
        webhook: Callable[[int], dict[str, Any]] | None = None,
    ) -> tuple[Doc, int, str]:
        """Take the next free seat; returns the document, the seat and its token.
        ``webhook``: makes the seat's webhook registration, given the seat."""
        name = names.normalize(name)
        token = tokens.new_token()
        digest = tokens.hash_token(token)

        def decide(doc: Doc) -> Outcome:
            _check_if_match(doc, if_match)
            if doc["status"] != OPEN:
                raise ApiError(409, "game-not-open", "This game does not take players now.")
            if len(doc["players"]) >= doc["seats"]:
                raise ApiError(409, "game-full", "Every seat of this game is taken.")
            taken = next(
                (p["name"] for p in doc["players"] if names.clashes(p["name"], name)), None
            )
            if taken is not None:
                detail = f"{name!r} is taken or too like {taken!r}, who already joined."
                raise ApiError(409, "name-taken", detail)
            seat = len(doc["players"])
            player = {"seat": seat, "name": name, "token_hash": digest}
            new = {**doc, "players": [*doc["players"], player]}
            if webhook is not None:
                new["webhooks"] = [*doc.get("webhooks", []), webhook(seat)]
            return Outcome(new, [{"type": "player_joined", "seat": seat, "name": name}])

        doc, _, _ = self._mutate(game_id, decide)
        return doc, len(doc["players"]) - 1, token

    def start(self, game_id: str, digest: str | None, if_match: IfMatch = None) -> Doc:
        """The host starts an open game with at least the engine's minimum of players."""

        def decide(doc: Doc) -> Outcome:
            if doc["status"] != OPEN:
                raise ApiError(409, "game-not-open", "Only an open game can be started.")
            joined = len(doc["players"])
            if joined < self.engine.MIN_PLAYERS:
                raise ApiError(
                    409,
                    "not-enough-players",
                    f"{joined} joined; at least {self.engine.MIN_PLAYERS} are needed.",
                )
            new = {**doc, "state": self.engine.setup(joined, dict(doc["options"]), doc["seed"])}
            events = [{"type": "game_started", "players": _players(doc)}]
            self._settle(new, events)
            return Outcome(new, events)

        return self._as_host(game_id, digest, if_match, decide)

    def cancel(self, game_id: str, digest: str | None, if_match: IfMatch = None) -> Doc:
        """The host cancels an open or running game."""

        def decide(doc: Doc) -> Outcome:
            if doc["status"] in OVER:
                raise ApiError(409, "game-over", f"The game is already {doc['status']}.")
            new = {**doc, "status": CANCELLED, "to_act": []}
            return Outcome(new, [{"type": "game_cancelled"}])

        return self._as_host(game_id, digest, if_match, decide)

    def _as_host(
        self, game_id: str, digest: str | None, if_match: IfMatch, decide: Callable[[Doc], Outcome]
    ) -> Doc:
        """:meth:`_mutate` for the host only (401/403 first, then 412, then ``decide``)."""

        def guarded(doc: Doc) -> Outcome:
            require_host(doc, digest)
            _check_if_match(doc, if_match)
            return decide(doc)

        return self._mutate(game_id, guarded)[0]

    def move(
        self,
        game_id: str,
        digest: str | None,
        move: dict[str, Any],
        if_match: IfMatch = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Apply a seat's move; returns ``{"game": <the mover's view>, "events": [...]}``.

        With an ``Idempotency-Key`` already used by this bearer, returns the first answer
        and applies nothing. The key is stored by the same script that applies the move;
        it and the move counter are per token (per seat; a wrong token counts apart).
        """
        if digest is None:
            raise missing_token()
        idem_field = None if idempotency_key is None else f"{digest[:32]}:{idempotency_key}"
        limit_as = digest[:16] if self.move_rate is not None else None
        seat = -1

        def decide(doc: Doc) -> Outcome:
            nonlocal seat
            seat = require_seat(doc, digest)
            _check_if_match(doc, if_match)
            if doc["status"] != RUNNING:
                raise ApiError(409, "game-not-running", f"The game is {doc['status']}.")
            if seat not in doc["to_act"]:
                raise ApiError(409, "not-your-turn", f"Seat {seat} is not expected to act now.")
            seats.require_active(doc, seat)
            state, events = self.engine.apply_move(doc["state"], seat, move)
            new = {**doc, "state": state, "players": seats.human_moved(doc["players"], seat)}
            events = list(events)
            self._settle(new, events)
            return Outcome(
                new, events, [{"seat": seat, "move": move, "version": doc["version"] + 1}]
            )

        doc, events, record = self._mutate(
            game_id, decide, idem_field, limit_as, _move_digest(move) if idem_field else ""
        )
        if record is not None:  # a retry: decide() may not have run
            doc, events = self._replay(doc, record)
            seat = require_seat(doc, digest)
        else:
            metrics.MOVES_APPLIED.labels(self.engine.NAME).inc()
        return {"game": self.view(doc, seat), "events": events}
