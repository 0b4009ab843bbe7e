"""A seat's move: checked against the seat and the turn, decided by the engine, written
once per ``Idempotency-Key`` (a retry gets the first answer rebuilt, nothing applied)."""

from __future__ import annotations

from typing import Any

from shared.games import seats
from shared.games.access import missing_token, require_seat, seated_audience
from shared.games.answers import Answers
from shared.games.base import RUNNING, Context, IfMatch, Outcome, check_if_match, settle
from shared.games.document import GameDoc, started
from shared.games.errors import Conflict
from shared.games.replay import move_digest, replay
from shared.games.tokens import UncheckedPlayer
from shared.games.writes import WriteLoop
from shared.ops import metrics


class Moves:
    """The move route's work for the games of one service."""

    def __init__(self, ctx: Context, writes: WriteLoop) -> None:
        self.ctx = ctx
        self.writes = writes

    def move(
        self,
        game_id: str,
        digest: str | None,
        move: dict[str, Any],
        if_match: IfMatch = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Apply a seat's move; returns ``{"game": <the mover's view>, "events": [...]}``
        (the mover's audience is its seat, known once the write has read the game).

        With an ``Idempotency-Key`` already used by this bearer, returns the first answer
        and applies nothing. The key is stored by the same script that applies the move;
        it and the move counter are per token (per seat; a wrong token counts apart).
        """
        if digest is None:
            raise missing_token()
        engine = self.ctx.engine
        idem_field = None if idempotency_key is None else f"{digest[:32]}:{idempotency_key}"
        unchecked = digest if isinstance(digest, UncheckedPlayer) else None
        counted = digest if unchecked is None else unchecked.key_hash  # (a forged key apart)
        limit_as = counted[:16] if self.writes.move_rate is not None else None
        seat = -1

        def decide(doc: GameDoc) -> Outcome:
            nonlocal seat
            seat = require_seat(doc, digest)
            check_if_match(doc, if_match)
            if doc["status"] != RUNNING:
                raise Conflict("game-not-running", "The game is {status}.", status=doc["status"])
            if seat not in doc["to_act"]:
                raise Conflict(
                    "not-your-turn", "Seat {seat} is not expected to act now.", seat=seat
                )
            seats.require_active(doc, seat)
            state, events = engine.apply_move(started(doc), seat, move)
            new: GameDoc = {
                **doc,
                "state": state,
                "players": seats.human_moved(doc["players"], seat),
            }
            events = list(events)
            produced = len(events)
            settle(engine, new, events)
            moved = [{"seat": seat, "move": move, "version": doc["version"] + 1}]
            return Outcome(new, events, moved, (0, produced))

        doc, events, retry = self.writes.mutate(
            game_id,
            decide,
            idem_field,
            limit_as,
            move_digest(move) if idem_field else "",
            unchecked,
        )
        if retry is not None:  # a retry: decide() may not have run
            doc, events = replay(self.ctx, doc, retry)
            seat = require_seat(doc, digest)
        else:
            metrics.MOVES_APPLIED.labels(engine.NAME).inc()
        reader = seated_audience(seat, digest)
        return {"game": Answers(self.ctx, reader).view(doc), "events": events}
