"""Seats, tokens, turn order and versions: the game-agnostic lifecycle of a game.

Every write is read-apply-write: read the document (one round trip), decide with the
engine in memory, then one compare-and-set script call. When someone else wrote in
between, the whole step is retried on the fresh document, so the engine decides again
(two moves racing for one turn: the loser gets the engine's or the turn's rejection).
Nothing here touches Flask; errors are :class:`ApiError` or the engine's ``RuleError``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

from shared import ratelimit, tokens
from shared.engine import RuleError
from shared.errors import ApiError
from shared.store import Doc, GameStore, event_id, now_us

OPEN, RUNNING, FINISHED, CANCELLED = "open", "running", "finished", "cancelled"
OVER = (FINISHED, CANCELLED)
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TERMINAL_EVENTS = ("game_finished", "game_cancelled")


@dataclass
class Outcome:
    """What a mutation produced: the new document, its events (without id/version yet)
    and the moves to append to the moves list."""

    doc: Doc
    events: list[dict[str, Any]]
    moves: list[dict[str, Any]]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Games:
    """The lifecycle of the games of one engine, stored in one :class:`GameStore`."""

    def __init__(self, engine: ModuleType, store: GameStore, settings: dict[str, Any]) -> None:
        self.engine = engine
        self.store = store
        self.settings = settings
        self.move_rate = ratelimit.parse_rate(settings.get("RATE_LIMIT_MOVES"))
        self.join_rate = ratelimit.parse_rate(settings.get("RATE_LIMIT_JOINS"))

    # -- helpers -----------------------------------------------------------------------

    def ttl(self, doc: Doc) -> int:
        """Seconds the game lives after this write: short once over, long while idle."""
        if doc["status"] in OVER:
            return self.settings["GAME_TTL_FINISHED"]
        return self.settings["GAME_TTL_IDLE"]

    def _load_limited(
        self, game_id: str, idem_field: str | None, client: str
    ) -> tuple[Doc, str | None]:
        """:meth:`load`, counting the request on the client's move counter (429 over it)."""
        rate = self.move_rate
        assert rate is not None
        if not GAME_ID.match(game_id):
            raise ApiError(404, "game-not-found", f"There is no game {game_id!r}.")
        number, retry_after = ratelimit.window_of(rate)
        doc, record, count = self.store.read_counted(
            game_id, idem_field, f"{client}:{number}", rate.window + 1
        )
        ratelimit.check(count, rate, retry_after, "moves")
        if doc is None:
            raise ApiError(404, "game-not-found", f"There is no game {game_id!r}.")
        return doc, record

    def limit_join(self, client: str) -> None:
        """Count a join by ``client`` (its address) against ``RATE_LIMIT_JOINS`` (429 over)."""
        rate = self.join_rate
        if rate is None:
            return
        number, retry_after = ratelimit.window_of(rate)
        key = f"{self.store.prefix}:rl:join:{client}:{number}"
        count = ratelimit.hit(self.store.client, key, rate.window + 1)
        ratelimit.check(count, rate, retry_after, "joins")

    def load(self, game_id: str, idem_field: str | None = None) -> tuple[Doc, str | None]:
        """The document (404 if there is none) and the idempotency record if asked."""
        if not GAME_ID.match(game_id):
            raise ApiError(404, "game-not-found", f"There is no game {game_id!r}.")
        doc, record = self.store.read(game_id, idem_field)
        if doc is None:
            raise ApiError(404, "game-not-found", f"There is no game {game_id!r}.")
        return doc, record

    @staticmethod
    def seat_of(doc: Doc, token: str | None) -> int | None:
        """The seat ``token`` acts for; ``None`` without a token or for the host token.

        Raises 403 ``invalid-token`` for a token that belongs to no seat and is not the
        host's. Every seat is compared (in constant time), whatever matches first.
        """
        if token is None:
            return None
        digest = tokens.hash_token(token)
        found = None
        for player in doc["players"]:
            if tokens.matches(digest, player["token_hash"]):
                found = player["seat"]
        if found is None and not tokens.matches(digest, doc["host"]):
            raise ApiError(403, "invalid-token", "This token is not valid for this game.")
        return found

    def require_seat(self, doc: Doc, token: str | None) -> int:
        """The seat of a token that must be a seat's (401 without, 403 for the host's)."""
        if token is None:
            raise missing_token()
        seat = self.seat_of(doc, token)
        if seat is None:
            raise ApiError(
                403, "seat-token-required", "This needs a player's token, not the host token."
            )
        return seat

    @staticmethod
    def require_host(doc: Doc, token: str | None) -> None:
        """401 without a token; 403 unless it is this game's host token."""
        if token is None:
            raise missing_token()
        digest = tokens.hash_token(token)
        if tokens.matches(digest, doc["host"]):
            return
        if any(tokens.matches(digest, p["token_hash"]) for p in doc["players"]):
            raise ApiError(403, "host-token-required", "Only the host may do this.")
        raise ApiError(403, "invalid-token", "This token is not valid for this game.")

    @staticmethod
    def check_if_match(doc: Doc, if_match: Callable[[int], bool] | None) -> None:
        """412 when the client's ``If-Match`` names another version."""
        if if_match is not None and not if_match(doc["version"]):
            raise ApiError(
                412,
                "version-mismatch",
                f"The game is at version {doc['version']}; If-Match does not match.",
                version=doc["version"],
            )

    def view(self, doc: Doc, seat: int | None) -> dict[str, Any]:
        """The game as ``seat`` (``None``: a spectator) may see it. Never the seed, the
        token hashes or the raw engine state: only the engine's own view of it."""
        state = doc["state"]
        return {
            "id": doc["id"],
            "game": doc["game"],
            "status": doc["status"],
            "version": doc["version"],
            "options": {"players": doc["seats"], **doc["options"]},
            "players": [{"seat": p["seat"], "name": p["name"]} for p in doc["players"]],
            "you": seat,
            "to_act": doc["to_act"],
            "state": None if state is None else self.engine.view(state, seat),
            "result": doc["result"],
            "created_at": doc["created_at"],
            "updated_at": doc["updated_at"],
        }

    def summary(self, doc: Doc) -> dict[str, Any]:
        """A listing entry: public facts only."""
        return {
            "id": doc["id"],
            "game": doc["game"],
            "status": doc["status"],
            "version": doc["version"],
            "options": {"players": doc["seats"], **doc["options"]},
            "players": [{"seat": p["seat"], "name": p["name"]} for p in doc["players"]],
            "to_act": doc["to_act"],
            "created_at": doc["created_at"],
        }

    # -- the write loop ----------------------------------------------------------------

    def _mutate(
        self,
        game_id: str,
        decide: Callable[[Doc], Outcome],
        idem_field: str | None = None,
        respond: Callable[[Outcome, list[dict[str, Any]]], dict[str, Any]] | None = None,
        limit_as: str | None = None,
    ) -> tuple[Doc, list[dict[str, Any]], dict[str, Any] | None]:
        """Read, ``decide``, compare-and-set; retried on a version conflict.

        Returns the written document, its stamped events and, when ``respond`` is
        given, the response body (stored as the idempotency record in the same script).
        A replayed ``Idempotency-Key`` returns the first body instead: the record is only
        the version the move made and its time (a few bytes, not the whole answer), and
        :meth:`answer_again` rebuilds the first answer from the stored moves. With ``limit_as``
        (a client's name in this game), the first read also counts the request against
        ``RATE_LIMIT_MOVES`` in the same round trip.
        """
        for attempt in range(self.settings["CAS_RETRIES"]):
            if attempt == 0 and limit_as is not None:
                doc, record = self._load_limited(game_id, idem_field, limit_as)
            else:
                doc, record = self.load(game_id, idem_field)
            if record is not None and respond is not None:
                return doc, [], self.answer_again(doc, record, respond)
            expected = doc["version"]
            outcome = decide(doc)
            new = outcome.doc
            new["version"] = expected + 1
            new["updated_at"] = _now()
            events = [
                {**event, "version": new["version"], "id": event_id(new["version"], n)}
                for n, event in enumerate(outcome.events)
            ]
            body = respond(outcome, events) if respond else None
            result = self.store.write(
                new,
                expected,
                events,
                outcome.moves,
                self.ttl(new),
                idem_field,
                f"{new['version']} {new['updated_at']}" if idem_field else None,
            )
            if result.outcome == "ok":
                return new, events, body
            if result.outcome == "duplicate" and respond is not None:
                return doc, [], self.answer_again(doc, result.record or "", respond)
            if result.outcome == "missing":
                raise ApiError(404, "game-not-found", f"There is no game {game_id!r}.")
        raise ApiError(
            409,
            "version-conflict",
            "The game kept changing while this request was applied; try again.",
        )

    # -- operations --------------------------------------------------------------------

    def create(self, options: dict[str, Any]) -> tuple[Doc, str]:
        """A new open game and its host token. ``players`` (seat count, default the
        engine's maximum) and ``seed`` (default random) are the kit's; the rest are the
        engine's options, checked now by a trial setup so a bad mix fails at once."""
        options = dict(options)
        seats = options.pop("players", None) or self.engine.MAX_PLAYERS
        seed = options.pop("seed", None)
        if seed is None:
            seed = secrets.randbits(63)
        if not self.engine.MIN_PLAYERS <= seats <= self.engine.MAX_PLAYERS:
            raise ApiError(
                422,
                "validation-error",
                "players is out of range.",
                errors={"json": {"players": ["Out of range."]}},
            )
        try:  # a trial set-up: option combinations the schema cannot judge are bad input
            self.engine.setup(seats, options, seed)
        except RuleError as error:
            raise ApiError(422, error.code, error.message) from error
        host_token = tokens.new_token()
        game_id = secrets.token_hex(8)
        now = _now()
        doc: Doc = {
            "version": 1,
            "id": game_id,
            "game": self.engine.NAME,
            "status": OPEN,
            "seats": seats,
            "options": options,
            "seed": seed,
            "host": tokens.hash_token(host_token),
            "players": [],
            "state": None,
            "to_act": [],
            "result": None,
            "created_at": now,
            "updated_at": now,
        }
        event = {
            "type": "game_created",
            "options": {"players": seats, **options},
            "version": 1,
            "id": event_id(1, 0),
        }
        result = self.store.write(doc, 0, [event], [], self.ttl(doc))
        if result.outcome != "ok":  # pragma: no cover - a 64-bit id collision
            raise ApiError(409, "version-conflict", "Could not create the game; try again.")
        self.store.index_add(game_id, now_us(), self.settings["GAME_TTL_IDLE"])
        return doc, host_token

    def join(
        self, game_id: str, name: str, if_match: Callable[[int], bool] | None = None
    ) -> tuple[Doc, int, str]:
        """Take the next free seat; returns the document, the seat and its token."""
        token = tokens.new_token()
        digest = tokens.hash_token(token)

        def decide(doc: Doc) -> Outcome:
            self.check_if_match(doc, if_match)
            if doc["status"] != OPEN:
                raise ApiError(409, "game-not-open", "This game does not take players now.")
            if len(doc["players"]) >= doc["seats"]:
                raise ApiError(409, "game-full", "Every seat of this game is taken.")
            if any(p["name"] == name for p in doc["players"]):
                raise ApiError(409, "name-taken", f"A player named {name!r} already joined.")
            seat = len(doc["players"])
            new = {
                **doc,
                "players": [*doc["players"], {"seat": seat, "name": name, "token_hash": digest}],
            }
            return Outcome(new, [{"type": "player_joined", "seat": seat, "name": name}], [])

        doc, _, _ = self._mutate(game_id, decide)
        seat = next(p["seat"] for p in doc["players"] if p["token_hash"] == digest)
        return doc, seat, token

    def start(
        self, game_id: str, token: str | None, if_match: Callable[[int], bool] | None = None
    ) -> Doc:
        """The host starts an open game with at least the engine's minimum of players."""

        def decide(doc: Doc) -> Outcome:
            self.require_host(doc, token)
            self.check_if_match(doc, if_match)
            if doc["status"] != OPEN:
                raise ApiError(409, "game-not-open", "Only an open game can be started.")
            joined = len(doc["players"])
            if joined < self.engine.MIN_PLAYERS:
                raise ApiError(
                    409,
                    "not-enough-players",
                    f"{joined} joined; at least {self.engine.MIN_PLAYERS} are needed.",
                )
            state = self.engine.setup(joined, dict(doc["options"]), doc["seed"])
            new = {**doc, "state": state}
            events = [
                {
                    "type": "game_started",
                    "players": [{"seat": p["seat"], "name": p["name"]} for p in doc["players"]],
                }
            ]
            self._settle(new, events)
            return Outcome(new, events, [])

        doc, _, _ = self._mutate(game_id, decide)
        return doc

    def cancel(
        self, game_id: str, token: str | None, if_match: Callable[[int], bool] | None = None
    ) -> Doc:
        """The host cancels an open or running game."""

        def decide(doc: Doc) -> Outcome:
            self.require_host(doc, token)
            self.check_if_match(doc, if_match)
            if doc["status"] in OVER:
                raise ApiError(409, "game-over", f"The game is already {doc['status']}.")
            new = {**doc, "status": CANCELLED, "to_act": []}
            return Outcome(new, [{"type": "game_cancelled"}], [])

        doc, _, _ = self._mutate(game_id, decide)
        return doc

    def move(
        self,
        game_id: str,
        token: str | None,
        move: dict[str, Any],
        if_match: Callable[[int], bool] | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Apply a seat's move; returns ``{"game": <the mover's view>, "events": [...]}``.

        With an ``Idempotency-Key`` already used by this token, returns the first answer
        and applies nothing. The key is stored by the same script that applies the move.
        """
        if token is None:
            raise missing_token()
        idem_field = None
        if idempotency_key is not None:
            idem_field = tokens.hash_token(token)[:32] + ":" + idempotency_key
        seat_box: list[int] = []

        def decide(doc: Doc) -> Outcome:
            seat = self.require_seat(doc, token)
            seat_box[:] = [seat]
            self.check_if_match(doc, if_match)
            if doc["status"] != RUNNING:
                raise ApiError(409, "game-not-running", f"The game is {doc['status']}.")
            if seat not in doc["to_act"]:
                raise ApiError(409, "not-your-turn", f"Seat {seat} is not expected to act now.")
            state, events = self.engine.apply_move(doc["state"], seat, move)
            new = {**doc, "state": state}
            events = list(events)
            self._settle(new, events)
            return Outcome(
                new, events, [{"seat": seat, "move": move, "version": doc["version"] + 1}]
            )

        def respond(outcome: Outcome, events: list[dict[str, Any]]) -> dict[str, Any]:
            if not seat_box:  # answering a retry: decide() did not run
                seat_box.append(self.require_seat(outcome.doc, token))
            return {"game": self.view(outcome.doc, seat_box[0]), "events": events}

        # The move counter is the token's (one per seat; a wrong token counts apart).
        limit_as = tokens.hash_token(token)[:16] if self.move_rate is not None else None
        _, _, body = self._mutate(game_id, decide, idem_field, respond, limit_as)
        assert body is not None
        return body

    def answer_again(
        self,
        doc: Doc,
        record: str,
        respond: Callable[[Outcome, list[dict[str, Any]]], dict[str, Any]],
    ) -> dict[str, Any]:
        """The first answer to an idempotent move, rebuilt byte for byte: the document as
        it stood at the record's version (the engine replays the stored moves from the
        seed, as anyone can with the log) and the events that version wrote."""
        version_text, _, updated_at = record.partition(" ")
        version = int(version_text)
        state = self.engine.setup(len(doc["players"]), dict(doc["options"]), doc["seed"])
        for entry in self.store.all_moves(doc["id"]):
            if entry["version"] > version:
                break
            state, _ = self.engine.apply_move(state, entry["seat"], entry["move"])
        then = {**doc, "state": state, "version": version, "updated_at": updated_at}
        self._settle(then, [])
        return respond(Outcome(then, [], []), self.store.events_of(doc["id"], version))

    def _settle(self, doc: Doc, events: list[dict[str, Any]]) -> None:
        """Status, ``to_act`` and result after the engine moved; ends a finished game."""
        state = doc["state"]
        if self.engine.is_over(state):
            doc["status"] = FINISHED
            doc["to_act"] = []
            doc["result"] = self.engine.result(state)
            events.append({"type": "game_finished", "result": doc["result"]})
        else:
            doc["status"] = RUNNING
            doc["to_act"] = list(self.engine.to_act(state))

    def legal_moves(self, doc: Doc, seat: int) -> list[dict[str, Any]]:
        """The seat's legal moves now (none unless the game runs and the seat is to act)."""
        if doc["status"] != RUNNING or seat not in doc["to_act"]:
            return []
        return list(self.engine.legal_moves(doc["state"], seat))

    def score(self, doc: Doc) -> dict[str, Any]:
        """Public scores so far and the result once over."""
        state = doc["state"]
        return {
            "status": doc["status"],
            "score": None if state is None else self.engine.score(state),
            "result": doc["result"],
        }

    def log(self, doc: Doc) -> dict[str, Any]:
        """Every event; once the game is over also the seed and every move (replayable)."""
        body: dict[str, Any] = {
            "id": doc["id"],
            "game": doc["game"],
            "status": doc["status"],
            "version": doc["version"],
            "options": {"players": doc["seats"], **doc["options"]},
            "players": [{"seat": p["seat"], "name": p["name"]} for p in doc["players"]],
            "events": self.store.all_events(doc["id"]),
        }
        if doc["status"] in OVER:
            body["seed"] = doc["seed"]
            body["moves"] = self.store.all_moves(doc["id"])
        return body


def missing_token() -> ApiError:
    """401 with the ``WWW-Authenticate`` challenge."""
    return ApiError(
        401,
        "missing-token",
        "This needs a bearer token (Authorization: Bearer <token>).",
        headers={"WWW-Authenticate": 'Bearer realm="boardgames"'},
    )
