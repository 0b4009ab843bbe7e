"""Hints: "what would the bot play here?" for a seat, from that seat's view only.

A seat to act asks (``POST /games/{id}/hint``); the answer is the move the ``medium``
search (shared/bots) plays from the seat's view, with a fixed iteration budget and no
time cap (:data:`HINT_ITERATIONS`): a function of what the seat may see and a seed, so
a hint on a state and on its redeal for the seat is the same (tests/bots/test_hints.py).

How many hints a seat may ask per game is the kit option ``hints`` (default
:data:`DEFAULT_HINTS`, shared/games/options.py); a rated game allows none, whatever the
option says (a game is rated only once its seats are known, so create cannot refuse it;
``"rated": false`` keeps a table's hints). Each hint is counted
first (one compare-and-set write: ``hints_used`` on the seat's player entry, public in
every view and the log, with a ``hint_used`` event), then computed in the web process,
off its event loop (shared/http/offload.py).

Part of the games layer; imports its leaf modules and the bots (shared/bots).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from shared import bots
from shared.engine import Engine, Move, State
from shared.games import options as kit_options
from shared.games import ratings
from shared.games.access import require_seat
from shared.games.base import RUNNING, Outcome
from shared.games.document import GameDoc
from shared.games.errors import Conflict, Forbidden

if TYPE_CHECKING:
    from shared.games import Games

HINT_LEVEL = "medium"
HINT_ITERATIONS: int | None = None
"""The search's budget for a hint: iterations (``None``: the level's own, Manhattan 40,
Wind City 28), no time cap (deterministic)."""
DEFAULT_HINTS = 3


def allowance(doc: GameDoc) -> int:
    """Hints each seat may ask in this game: the ``hints`` option; 0 when rated."""
    if ratings.is_rated(doc):
        return 0
    return int(kit_options.BY_NAME["hints"].value(doc))


def used(doc: GameDoc) -> list[int]:
    """Hints each seat has asked, by seat (public)."""
    return [int(cast(dict[str, Any], p).get("hints_used", 0)) for p in doc["players"]]


def public(doc: GameDoc) -> dict[str, Any]:
    """The hints part of a game's public head: ``allowed`` per seat, ``used`` by seat."""
    return {"allowed": allowance(doc), "used": used(doc)}


def seed_of(doc: GameDoc, seat: int) -> int:
    """The search's seed for a hint: from the game's id, version and seat."""
    text = f"hint:{doc['id']}:{doc['version']}:{seat}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def suggest(engine: Engine, state: State, seat: int, seed: int) -> Move:
    """The move the hint level plays for ``seat`` (from its view: shared/bots)."""
    return bots.decide(engine, state, seat, HINT_LEVEL, seed, iterations=HINT_ITERATIONS, ms=0)


def _count(seat_of: list[int]) -> Any:
    def decide(doc: GameDoc) -> Outcome:
        seat = seat_of[0]
        if doc["status"] != RUNNING:
            raise Conflict("game-not-running", "The game is {status}.", status=doc["status"])
        if seat not in doc["to_act"]:
            raise Conflict("not-your-turn", "Seat {seat} is not expected to act now.", seat=seat)
        if ratings.is_rated(doc):
            raise Forbidden("hints-rated-game", "A rated game allows no hints.")
        allowed = allowance(doc)
        count = used(doc)[seat]
        if count >= allowed:
            raise Conflict(
                "hints-used-up",
                "This seat has used its {allowed} hints in this game.",
                allowed=allowed,
            )
        players = [dict(p) for p in doc["players"]]
        players[seat]["hints_used"] = count + 1
        new = cast(GameDoc, {**doc, "players": players})
        return Outcome(new, [{"type": "hint_used", "seat": seat, "used": count + 1}])

    return decide


def _now(work: Callable[[], Move]) -> Move:
    return work()


def hint(
    kit: Games,
    game_id: str,
    credential: str | None,
    run: Callable[[Callable[[], Move]], Move] = _now,
) -> dict[str, Any]:
    """Count a hint for the bearer's seat and answer the suggested move; ``run`` runs the
    search (the HTTP layer's runs it off its event loop: shared/http/offload.py)."""
    doc = kit.writes.load(game_id)
    seat = require_seat(doc, credential)
    new = kit.writes.mutate(game_id, _count([seat]))[0]
    state, seed = cast(State, new["state"]), seed_of(new, seat)
    move = run(lambda: suggest(kit.ctx.engine, state, seat, seed))
    count = used(new)[seat]
    return {
        "move": move,
        "level": HINT_LEVEL,
        "seat": seat,
        "used": count,
        "left": max(0, allowance(new) - count),
        "version": new["version"],
    }
