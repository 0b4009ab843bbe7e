"""Seat statuses, turn clocks and who is due to be played by a bot: no Redis.

Each player record of a game document carries, next to ``seat``/``name``/``token_hash``:
``status`` (``active``, ``abandoned``, ``resigned`` or ``bot``), ``bot`` (the strategy
that plays it, ``None`` for an active seat), ``deadline`` (RFC 3339 UTC while the seat
is to act under a clock, else ``None``) and ``timeouts`` (missed deadlines in a row).
This state is the kit's, not the engine's: every game gets clocks and bots the same way.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final, TypedDict

from shared.games.document import GameDoc, PlayerEntry, SeatStatus
from shared.games.errors import Conflict, Invalid

ACTIVE: Final = "active"
ABANDONED: Final = "abandoned"
RESIGNED: Final = "resigned"
BOT: Final = "bot"
STATUSES = (ACTIVE, ABANDONED, RESIGNED, BOT)
BOTS = ("random", "greedy", "medium", "strong")
"""Bot levels a seat may ask for (see shared/bots: ``medium`` and ``strong`` search)."""
TAKEOVER_BOT = "strong"
"""The default level that plays a timed-out, abandoned or resigned seat (a game's
``takeover`` option may name another): a good move keeps the game fair for the others (a
random one would hand points to whoever moves next), and the player who comes back finds
the seat well played."""
DEFAULT_MAX_TIMEOUTS = 3
MAX_TURN_SECONDS = 14 * 24 * 3600


def takeover(doc: GameDoc) -> str:
    """The level that plays the game's timed-out, abandoned and resigned seats: its
    ``takeover`` option (stored only when not the default), else :data:`TAKEOVER_BOT`."""
    return doc.get("takeover") or TAKEOVER_BOT


def check_takeover(level: str | None) -> str | None:
    """The ``takeover`` option as a create stores it: ``None`` for the default (or
    absent), else the level; 422 ``validation-error`` for a level that is not a bot's."""
    if level is None or level == TAKEOVER_BOT:
        return None
    if level not in BOTS:
        detail = "takeover must be one of {levels}."
        raise Invalid.field(
            "json",
            "takeover",
            detail,
            "Must be one of: " + ", ".join(BOTS) + ".",
            levels=", ".join(BOTS),
        )
    return level


def now_ms() -> int:
    """Wall-clock time in milliseconds (deadlines and due times)."""
    return int(datetime.now(UTC).timestamp() * 1000)


def rfc3339(ms: int) -> str:
    """``ms`` since the epoch as RFC 3339 UTC with milliseconds (``...Z``)."""
    stamp = datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


def parse_ms(stamp: str) -> int:
    """The inverse of :func:`rfc3339`."""
    return int(datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000)


class SeatFields(TypedDict):
    """A seat's fields every view shows, filled in (:func:`public`)."""

    status: SeatStatus
    bot: str | None
    deadline: str | None
    timeouts: int


def public(player: PlayerEntry) -> SeatFields:
    """The seat fields every view shows (defaults for documents written before clocks)."""
    return {
        "status": player.get("status", ACTIVE),
        "bot": player.get("bot"),
        "deadline": player.get("deadline"),
        "timeouts": player.get("timeouts", 0),
    }


def new_player(seat: int, name: str, token_hash: str, bot: str | None = None) -> PlayerEntry:
    """A player record: an active human seat, or a bot seat playing ``bot``."""
    return {
        "seat": seat,
        "name": name,
        "token_hash": token_hash,
        "status": ACTIVE if bot is None else BOT,
        "bot": bot,
        "deadline": None,
        "timeouts": 0,
    }


def is_scheduled(doc: GameDoc) -> bool:
    """Whether the game may ever need the worker: it has a clock or a seat played by a bot,
    or is an open table that bots fill after ``bots_after`` seconds. (A seat never becomes
    active again, so a game that is not scheduled stays so until a resignation or a bot
    seat makes it scheduled.)"""
    if doc.get("clock") or (doc.get("bots_after") and doc["status"] == "open"):
        return True
    return any(p.get("status", ACTIVE) != ACTIVE for p in doc["players"])


def refresh(old: GameDoc, new: GameDoc, movers: set[int], now: int) -> None:
    """Set the deadlines of ``new`` (in place, on copies of the player records).

    A seat's clock starts when it becomes one of the seats to act, and again after each
    of its own moves while it stays to act: every move gets ``turn_seconds``. Seats that
    are not to act, or are played by a bot, have no deadline. Wind City's simultaneous
    insurance answers each get their own deadline, kept while the others answer.
    """
    clock = new.get("clock")
    running = new["status"] == "running"
    to_act = set(new["to_act"]) if running else set()
    before = set(old["to_act"]) if old["status"] == "running" else set()
    players = []
    for record in new["players"]:
        player: PlayerEntry = {**record, **public(record)}
        seat = player["seat"]
        if clock is None or seat not in to_act or player["status"] != ACTIVE:
            player["deadline"] = None
        elif seat in movers or seat not in before or player["deadline"] is None:
            player["deadline"] = rfc3339(now + clock["turn_seconds"] * 1000)
        players.append(player)
    new["players"] = players


def due_ms(doc: GameDoc, now: int, low: float = 0.0) -> int | None:
    """When the worker must next look at the game: ``now`` for a seat to act that a bot
    plays, else the earliest deadline of the seats to act, or with ``low`` (a share of
    the turn's time) the earliest later moment a player's seat has that share left
    (:func:`low_ms`: its ``clock_low``); ``None``: nothing to do. An open quick-match
    table with ``bots_after`` is due then (bots fill it and start it)."""
    if doc["status"] == "open" and (after := doc.get("bots_after")) is not None:
        return parse_ms(doc["created_at"]) + after * 1000
    if doc["status"] != "running":
        return None
    earliest: int | None = None
    to_act = set(doc["to_act"])
    for player in doc["players"]:
        if player["seat"] not in to_act:
            continue
        if player.get("status", ACTIVE) != ACTIVE:
            return now
        deadline = player.get("deadline")
        if deadline is not None:
            at = parse_ms(deadline)
            low_at = low_ms(doc, player, low)
            at = low_at if low_at is not None and low_at > now else at
            earliest = at if earliest is None else min(earliest, at)
    return earliest


def low_share(settings: dict[str, Any]) -> float:
    """The share of a turn's time left at which a player's seat gets a ``clock_low``
    push (shared/push/clock.py): ``PUSH_CLOCK_LOW_SHARE``, 0 while push is off."""
    if not settings.get("PUSH_VAPID_PRIVATE_KEY"):
        return 0.0
    return float(settings.get("PUSH_CLOCK_LOW_SHARE", 0.0))


def low_ms(doc: GameDoc, player: PlayerEntry, low: float) -> int | None:
    """When a seat bound to a player, to act under a clock, has ``low`` of its turn's
    time left (``None``: no such moment: no share, a bot, no player or deadline)."""
    clock, deadline = doc.get("clock"), player.get("deadline")
    if not (low > 0 and clock and deadline and player.get("player")) or player.get("bot"):
        return None
    return parse_ms(deadline) - int(low * clock["turn_seconds"] * 1000)


def require_active(doc: GameDoc, seat: int) -> None:
    """409 for a move by a seat that a bot now plays to the end (resigned or abandoned)."""
    status = doc["players"][seat].get("status", ACTIVE)
    if status != ACTIVE:
        raise Conflict(
            f"seat-{status}",
            "Seat {seat} is {status}; a bot plays it to the end.",
            seat=seat,
            status=status,
        )


def human_moved(players: list[PlayerEntry], seat: int) -> list[PlayerEntry]:
    """The player records after ``seat``'s own move: its timeouts in a row start over."""
    return [{**p, "timeouts": 0} if p["seat"] == seat else p for p in players]


def due_seats(doc: GameDoc, now: int) -> list[tuple[int, bool]]:
    """The seats to play now, in seat order, each with whether it is a timeout (an
    active seat past its deadline) rather than a seat a bot plays anyway."""
    if doc["status"] != "running":
        return []
    to_act = set(doc["to_act"])
    due = []
    for player in doc["players"]:
        if player["seat"] not in to_act:
            continue
        if player.get("status", ACTIVE) != ACTIVE:
            due.append((player["seat"], False))
        elif (deadline := player.get("deadline")) is not None and parse_ms(deadline) <= now:
            due.append((player["seat"], True))
    return due


def rank_resigned_last(result: dict[str, Any] | None, players: list[PlayerEntry]) -> Any:
    """The engine's result with resigned seats ranked last (they share the last rank).

    Rows are the engine's ``standings`` items (``seat``, ``rank``, ...): the others keep
    their order and ties, their ranks are recounted without the resigned seats, and
    ``winners`` are the others ranked first. Each resigned row gains ``"resigned": true``.
    A result of another shape is returned unchanged.
    """
    resigned = {p["seat"] for p in players if p.get("status") == RESIGNED}
    if not resigned or not isinstance(result, dict) or "standings" not in result:
        return result
    rows = result["standings"]
    kept = [r for r in rows if r["seat"] not in resigned]
    gone = [r for r in rows if r["seat"] in resigned]
    out = [{**r, "rank": 1 + sum(1 for o in kept if o["rank"] < r["rank"])} for r in kept]
    last = len(kept) + 1
    out += [{**r, "rank": last, "resigned": True} for r in gone]
    return {**result, "standings": out, "winners": [r["seat"] for r in out if r["rank"] == 1]}


def without_seat(doc: GameDoc, seat: int) -> GameDoc:
    """``doc`` without the player at ``seat``: the later players move down one seat, and
    what the document keeps by seat number moves with its player. That is the seat
    webhook registrations (``doc["webhooks"]``): the departed player's is dropped (no
    one else may see its URL or hear its notifications), the others take their
    player's new seat, and one naming no current seat (left behind by code before this
    fix) is dropped. Nothing else needs it: tokens, idempotency records and move
    counters are kept by token hash, delivery cursors by registration id, and an open
    game has no deadlines, turns or engine state yet."""
    staying = [p for p in doc["players"] if p["seat"] != seat]
    moved = {p["seat"]: n for n, p in enumerate(staying)}
    new: GameDoc = {**doc, "players": [{**p, "seat": moved[p["seat"]]} for p in staying]}
    if "webhooks" in doc:
        new["webhooks"] = [
            reg if reg["seat"] is None else {**reg, "seat": moved[reg["seat"]]}
            for reg in doc["webhooks"] or []
            if reg["seat"] is None or reg["seat"] in moved
        ]
    return new
