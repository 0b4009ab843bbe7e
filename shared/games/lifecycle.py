"""A game's life before and around its moves: create, join, start and cancel (bot seats,
resigning and leaving are in shared/usecases/seat_ops.py). Each change is one decision handed to
the write loop."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from shared.engine import Engine, RuleError
from shared.games import (
    audience,
    fairness,
    holds,
    names,
    ratings,
    records,
    seats,
    tables,
    tokens,
)
from shared.games import options as kit_options
from shared.games.access import require_host, seat_of_player
from shared.games.answers import players
from shared.games.base import (
    CANCELLED,
    OPEN,
    OVER,
    RUNNING,
    Context,
    IfMatch,
    Outcome,
    check_if_match,
    now_text,
    settle,
)
from shared.games.document import Clock, GameDoc, HeldSeat, PlayerEntry, WebhookEntry
from shared.games.errors import Conflict, Invalid
from shared.games.tokens import PlayerRef
from shared.games.writes import WriteLoop
from shared.ops import metrics
from shared.store import event_id, now_us


def _name_required() -> Invalid:
    return Invalid.field("json", "name", "name is required.", "Missing data for required field.")


def started_outcome(engine: Engine, doc: GameDoc, events: list[dict[str, Any]]) -> Outcome:
    """``doc`` started with the players who joined, after ``events``."""
    joined = len(doc["players"])
    new: GameDoc = {**doc, "state": engine.setup(joined, dict(doc["options"]), doc["seed"])}
    events = [*events, {"type": "game_started", "players": players(new)}]
    settle(engine, new, events)
    return Outcome(new, events)


class Lifecycle:
    """Create, join, start and cancel the games of one service."""

    def __init__(self, ctx: Context, writes: WriteLoop) -> None:
        self.ctx = ctx
        self.writes = writes

    def create(
        self,
        options: dict[str, Any],
        owner: str | None = None,
        webhook: WebhookEntry | None = None,
        host_player: str | None = None,
        game_id: str | None = None,
        held: list[HeldSeat] | None = None,
        bots: list[PlayerEntry] | None = None,
        pool: str | None = None,
    ) -> tuple[GameDoc, str, str | None]:
        """A new open game and its host token. ``options``: the kit's (declared in
        shared/games/options.py) and the engine's, checked now by a trial setup so a bad
        mix fails at once. ``players`` (seat count, default the engine's maximum),
        ``seed`` (default random) and ``clock`` are stored here, the plain kit options by
        :func:`kit_options.store`.
        ``owner``: who creates it, the id of an API key or the creator's address
        (``addr:<address>``; see the HTTP layer's ``apikeys`` middleware). The worker
        shares itself fairly between owners; a key's games are also listed and counted
        for its quotas. ``takeover``: the bot level of seats that time out, resign or
        are abandoned (shared/games/seats.py). ``visibility`` and ``start`` set the table
        (shared/games/tables.py): an unlisted game's invite code comes back third
        (``None`` for a public game).
        ``host_player``: the player creating it, who may then act as its host too.
        ``game_id``: the id to create it with (a quick match's claimed table; default a
        fresh one), ``pool`` its pool; its ``bots_after`` option: bots fill its empty seats
        and start it this many seconds after its creation (the worker,
        shared/usecases/matches.py). ``held`` and
        ``bots``: a rematch's seats kept for the last game's players, and its bot seats,
        seated at once (shared/usecases/rematch.py)."""
        engine, store, settings = self.ctx.engine, self.ctx.store, self.ctx.settings
        kit, options = kit_options.split(options)
        count = kit.get("players") or engine.MAX_PLAYERS
        seed = kit.get("seed")
        salt = commitment = None
        clock = self._check_clock(kit.get("clock"))
        if seed is None:
            seed, salt, commitment = fairness.new_seed()
        elif not settings.get("ALLOW_CHOSEN_SEED", True):
            raise Invalid(
                "option-not-allowed",
                "This service picks every seed itself (ALLOW_CHOSEN_SEED is off).",
            )
        if not engine.MIN_PLAYERS <= count <= engine.MAX_PLAYERS:
            raise Invalid.field("json", "players", "players is out of range.", "Out of range.")
        try:  # a trial set-up: option combinations the schema cannot judge are bad input
            engine.setup(count, options, seed)
        except RuleError as error:
            raise Invalid(error.code, error.template, **error.params) from error
        host_token = tokens.new_token()
        game_id = game_id or secrets.token_hex(8)
        now = now_text()
        doc: GameDoc = {
            "version": 1,  # first: the write script reads it without decoding the document
            "events_from": 1,  # second: the first version the event stream still holds
            "id": game_id,
            "game": engine.NAME,
            "status": OPEN,
            "seats": count,
            "options": options,
            "seed": seed,
            "salt": salt,
            "seed_commitment": commitment,
            "seed_chosen": commitment is None,
            "clock": clock,
            "host": tokens.hash_token(host_token),
            "players": list(bots or []),
            "state": None,
            "to_act": [],
            "result": None,
            "created_at": now,
            "updated_at": now,
        }
        if owner is not None:
            doc["owner"] = owner
        if host_player is not None:
            doc["host_player"] = host_player
        kit_options.store(doc, kit)
        invite = None
        if not tables.is_listed(doc):
            invite, doc["invite"] = tables.new_invite()
        if audience.watchers(doc) == tables.LINK:
            doc["watch_code"] = tables.new_watch_code()
        if webhook is not None:  # a checked registration (shared/webhooks/registry.py)
            doc["webhooks"] = [webhook]
        if held:
            doc["held"] = held
        if pool is not None:
            doc["pool"] = pool
        due: int | bool = False
        if "bots_after" in doc:
            due = seats.parse_ms(now) + doc["bots_after"] * 1000
        created = {
            "type": "game_created",
            "options": {**kit_options.shown(doc), **options},
        }
        event = {**created, "version": 1, "id": event_id(1, 0)}
        written = records.first_write(doc, [created])
        result = store.write(self.ctx.stored(doc), 0, [event], self.writes.ttl(doc), written, due)
        if result.outcome != "ok":  # pragma: no cover - a 64-bit id collision
            raise Conflict("version-conflict", "Could not create the game; try again.")
        created_us = now_us()
        try:  # listed only once written (a listing drops ids without a document)...
            if invite is None:
                store.index_add(game_id, created_us, settings["GAME_TTL_IDLE"])
        except Exception:  # ...and never written unlisted: the client got no id
            with contextlib.suppress(Exception):
                store.discard(game_id)
            raise
        metrics.record_write(engine.NAME, None, OPEN, "ok")
        ttl = settings["GAME_TTL_IDLE"]
        store.tracking.moved(game_id, None, OPEN, owner, created_us, ttl)
        if result.unconfirmed is not None:  # (REDIS_WAIT_REPLICAS) not yet on the replicas
            raise result.unconfirmed
        return doc, host_token, invite

    def _check_clock(self, clock: dict[str, Any] | None) -> Clock | None:
        """The ``clock`` option with its defaults; 422 below ``CLOCK_MIN_TURN_SECONDS``."""
        if clock is None:
            return None
        low = self.ctx.settings.get("CLOCK_MIN_TURN_SECONDS", 10)
        if not low <= clock["turn_seconds"] <= seats.MAX_TURN_SECONDS:
            detail = "turn_seconds must be {low}..{high}."
            raise Invalid.field(
                "json", "clock", detail, "Out of range.", low=low, high=seats.MAX_TURN_SECONDS
            )
        return kit_options.clock_of(clock)

    def join(
        self,
        game_id: str,
        name: str | None,
        if_match: IfMatch = None,
        webhook: Callable[[int], WebhookEntry] | None = None,
        player: PlayerRef | None = None,
        invite: str | None = None,
        bearer: str | None = None,
        admit: Callable[[GameDoc], None] | None = None,
    ) -> tuple[GameDoc, int, str]:
        """Take the next free seat; returns the document, the seat and its token.
        ``webhook``: makes the seat's webhook registration, given the seat. A name with
        an invisible code point is refused (:func:`names.check`), one too like a name in
        the game is ``name-taken``. ``player``: the player taking the seat, bound to it
        (a player sits at most once in a game: 409 ``already-seated``). ``invite``: the
        code an unlisted game needs (shared/games/tables.py). The last seat of a game
        created with ``start: when_full`` starts it in the same write. ``bearer``: the
        request's token hash or player, which takes back a seat a rematch holds for it
        (shared/usecases/rematch.py; its old name, whatever ``name`` says, and no invite
        needed). ``name`` may be ``None`` only then or for a player (422 otherwise).
        ``admit``: a further check of the game, in the same compare-and-set (a player's
        blocks, shared/usecases/moderation.py)."""
        if name is None and bearer is None:  # nothing could name the seat
            raise _name_required()
        name = None if name is None else names.check(name)
        token = tokens.new_token()
        digest = tokens.hash_token(token)
        engine = self.ctx.engine

        def decide(doc: GameDoc) -> Outcome:
            check_if_match(doc, if_match)
            now = seats.now_ms()
            hold = holds.take_hold(doc, bearer, now)
            if hold is None:
                tables.check_invite(doc, invite)
            if admit is not None:
                admit(doc)
            if doc["status"] != OPEN:
                raise Conflict("game-not-open", "This game does not take players now.")
            if len(doc["players"]) >= doc["seats"]:
                raise Conflict("game-full", "Every seat of this game is taken.")
            if player is not None and seat_of_player(doc, player) is not None:
                raise Conflict("already-seated", "This player already has a seat in this game.")
            if hold is None:
                holds.check_free_seat(doc, now)
            label = hold["name"] if hold is not None else name
            if label is None:
                raise _name_required()
            names.refuse_taken(label, doc["players"])
            seat = len(doc["players"])
            record: PlayerEntry = {"seat": seat, "name": label, "token_hash": digest}
            bound = player if player is not None or hold is None else hold.get("player")
            if bound is not None:
                record["player"] = bound
            new: GameDoc = {**doc, "players": [*doc["players"], record]}
            if hold is not None:
                new["held"] = holds.without_hold(doc, hold)
            if webhook is not None:
                new["webhooks"] = [*doc.get("webhooks", []), webhook(seat)]
            events: list[dict[str, Any]] = [{"type": "player_joined", "seat": seat, "name": label}]
            if tables.starts_now(new):
                return started_outcome(engine, new, events)
            return Outcome(new, events)

        doc, _, _ = self.writes.mutate(game_id, decide)
        return doc, len(doc["players"]) - 1, token

    def start(self, game_id: str, digest: str | None, if_match: IfMatch = None) -> GameDoc:
        """The host starts an open game with at least the engine's minimum of players."""
        engine = self.ctx.engine

        def decide(doc: GameDoc) -> Outcome:
            if doc["status"] != OPEN:
                raise Conflict("game-not-open", "Only an open game can be started.")
            joined = len(doc["players"])
            if joined < engine.MIN_PLAYERS:
                raise Conflict(
                    "not-enough-players",
                    "{joined} joined; at least {needed} are needed.",
                    joined=joined,
                    needed=engine.MIN_PLAYERS,
                )
            return started_outcome(engine, doc, [])

        return self._as_host(game_id, digest, if_match, decide)

    def cancel(self, game_id: str, digest: str | None, if_match: IfMatch = None) -> GameDoc:
        """The host cancels an open or running game; not a running rated one (a host who
        plays would keep only its wins): its players resign instead."""

        def decide(doc: GameDoc) -> Outcome:
            if doc["status"] in OVER:
                raise Conflict("game-over", "The game is already {status}.", status=doc["status"])
            if doc["status"] == RUNNING and ratings.is_rated(doc):
                raise Conflict(
                    "rated-game-running",
                    "A rated game cannot be cancelled once it has started: resign instead.",
                )
            new: GameDoc = {**doc, "status": CANCELLED, "to_act": []}
            return Outcome(new, [{"type": "game_cancelled"}])

        return self._as_host(game_id, digest, if_match, decide)

    def _as_host(
        self,
        game_id: str,
        digest: str | None,
        if_match: IfMatch,
        decide: Callable[[GameDoc], Outcome],
    ) -> GameDoc:
        """A write for the host only (401/403 first, then 412, then ``decide``)."""

        def guarded(doc: GameDoc) -> Outcome:
            require_host(doc, digest)
            check_if_match(doc, if_match)
            return decide(doc)

        return self.writes.mutate(game_id, guarded)[0]
