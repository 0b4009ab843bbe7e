"""Moderation: players' blocks and reports, and what an operator does about them
(resolve a report, suspend a player or lift it), each operator action written to the
audit log. The data is the registry's, common to every service
(shared/store/moderation.py): a block made in one game service holds in the other.

- **Blocks** (both directions count): quick match never seats a blocked pair at one
  table (shared/store/matchmaking.lua checks it in the claim), and a player may not join
  an unlisted table where a seated player or the host player blocked it or is blocked
  by it (403 ``blocked``; :func:`avoided` is what the join checks). Public tables stay
  open to anyone who finds them: a block keeps a player out of the blocker's *private*
  tables and quick-match tables. Chat hides a blocked sender's messages from the blocker.
- **Reports**: a reason from :data:`REASONS`, an optional note, and the context the
  operator needs (the game, its service, version and players, the messages around),
  captured when filed.
- **Suspension**: until a time; the player's key (and an API key acting for it) is
  refused meanwhile (shared/games/players.py ``check_standing``), and the worker hands
  its seats to the takeover bot (:func:`take_over`): in a running game its active seats
  are abandoned to the bot (``seat_abandoned``), in an open game its seat is freed (as
  a leave frees it). Lifting a suspension gives the key back; the seats stay the bot's.
- **Erasure** (:func:`erase`): a deleted player's blocks go (both directions), the
  reports it filed are deleted, and in the reports that name it (as the one reported or
  as a sender in their context) its id becomes ``null`` and its name the erased
  placeholder; the reason, the text of the messages and the game stay for the operator.

May import the games layer (shared/games) and the store.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from shared.games import OPEN, RUNNING, Outcome, seats, tables
from shared.games.document import GameDoc, PlayerEntry
from shared.games.erased import PLACEHOLDER
from shared.games.errors import (
    Conflict,
    Forbidden,
    GameError,
    Invalid,
    NotFound,
    RateLimited,
)
from shared.store.moderation import Moderation

if TYPE_CHECKING:
    from shared.games import Games

REASONS = ("spam", "abuse", "cheating", "hate", "other")
ACTIONS = ("dismissed", "actioned")
MAX_BLOCKS = 1000
MAX_NOTE = 500
MAX_SUSPENSION_SECONDS = 10 * 365 * 24 * 3600
REPORTS_PER_HOUR = 20
REPORT_WINDOW_SECONDS = 3600


def _no_player() -> NotFound:
    return NotFound("player-not-found", "No player has this id.")


def block(store: Moderation, registry: Any, player_id: str, other: str) -> None:
    """``player_id`` blocks ``other`` (an existing player, not itself): 422 for itself,
    404 for no such player, 409 ``too-many-blocks`` over :data:`MAX_BLOCKS`."""
    if other == player_id:
        raise Invalid("cannot-block-self", "A player cannot block itself.")
    fields = registry.get(other)
    if fields is None or "key" not in fields:
        raise _no_player()
    if other not in store.avoided(player_id) and store.count_blocks(player_id) >= MAX_BLOCKS:
        raise Conflict(
            "too-many-blocks", "A player may block at most {max} players.", max=MAX_BLOCKS
        )
    store.block(player_id, other)


def blocks_page(
    store: Moderation, registry: Any, player_id: str, after: str | None, limit: int
) -> tuple[list[dict[str, Any]], str | None]:
    """The players ``player_id`` blocked, by id, after the id ``after``: each ``{"player",
    "name"}`` (a player deleted since: the placeholder name); the next cursor."""
    ids = [b for b in store.blocks(player_id) if after is None or b > after]
    page = ids[:limit]
    out = []
    for other in page:
        fields = registry.get(other) or {}
        out.append({"player": other, "name": fields.get("name") or PLACEHOLDER})
    return out, (page[-1] if len(ids) > limit else None)


def avoided(store: Moderation, player_id: str | None) -> frozenset[str]:
    """Who ``player_id`` must not meet at a table (its blocks, both directions)."""
    return frozenset() if player_id is None else frozenset(store.avoided(player_id))


def report_id(now_ms: int) -> str:
    """A report's id: sorts by time (12 hex digits of ms), then 8 random hex digits."""
    return f"{now_ms:012x}{secrets.token_hex(4)}"


def check_reason(reason: str, note: str | None) -> None:
    if reason not in REASONS:
        raise Invalid.field(
            "json",
            "reason",
            "reason must be one of {reasons}.",
            "Must be one of: " + ", ".join(REASONS) + ".",
            reasons=", ".join(REASONS),
        )
    if note is not None and len(note) > MAX_NOTE:
        raise Invalid.field(
            "json", "note", "note is at most {max} characters.", "Too long.", max=MAX_NOTE
        )


def game_context(games: Games, game_id: str) -> dict[str, Any]:
    """The part of a report's context a game gives: its service, id, version and
    players (seat, name, player id)."""
    doc = games.writes.load(game_id)
    return {
        "service": games.engine.NAME,
        "game": doc["id"],
        "version": doc["version"],
        "players": [
            {"seat": p["seat"], "name": p["name"], "player": p.get("player")}
            for p in doc["players"]
        ],
    }


def file_report(
    store: Moderation,
    reporter: tuple[str | None, str],
    subject: tuple[str | None, str | None],
    reason: str,
    note: str | None,
    context: dict[str, Any],
    seat: str | None = None,
) -> dict[str, Any]:
    """Store an open report by ``reporter`` (player id, ``None`` for a seat token
    without a player, and name) about ``subject`` (player id and name; ``None`` for a
    sender with no player) with ``context``; the report. A player's reports are counted
    (:func:`_count_report`), and so are those of a seat without a player (``seat``, a
    name of its own)."""
    check_reason(reason, note)
    now = seats.now_ms()
    counted = reporter[0] or seat
    if counted is not None:
        _count_report(store, counted, now)
    kind = "message" if context.get("message") else "player"
    report = {
        "id": report_id(now),
        "kind": kind,
        "status": "open",
        "reason": reason,
        "note": note,
        "created_at": seats.rfc3339(now),
        "reporter": {"player": reporter[0], "name": reporter[1]},
        "subject": {"player": subject[0], "name": subject[1]},
        "context": context,
        "resolution": None,
    }
    named = {subject[0]} if subject[0] else set()
    named |= {p["player"] for p in context.get("players", []) if p.get("player")}
    named |= {m["player"] for m in context.get("messages", []) if m.get("player")}
    named.discard(reporter[0] or "")
    store.add_report(report, reporter[0], named)
    return report


def _count_report(store: Moderation, reporter: str, now_ms: int) -> None:
    """429 ``rate-limited`` past :data:`REPORTS_PER_HOUR` reports of one player (or one
    seat without a player) in a fixed hour (nothing stored): a flood of reports cannot
    bury the queue."""
    window, into = divmod(now_ms // 1000, REPORT_WINDOW_SECONDS)
    if store.count_report(reporter, window, REPORT_WINDOW_SECONDS) > REPORTS_PER_HOUR:
        wait = REPORT_WINDOW_SECONDS - into
        raise RateLimited(
            "rate-limited",
            "At most {most} reports per hour; retry in {wait} s.",
            wait,
            most=REPORTS_PER_HOUR,
            wait=wait,
        )


def filed_receipt(report: dict[str, Any]) -> dict[str, Any]:
    """What the reporter gets back (the context is the operator's)."""
    return {k: report[k] for k in ("id", "kind", "status", "reason", "note", "created_at")}


def resolve(store: Moderation, report_id: str, action: str, note: str | None, who: str) -> Any:
    """An operator resolves an open report (409 ``report-resolved`` once resolved)."""
    report = store.report(report_id)
    if report is None:
        raise NotFound("report-not-found", "No report has this id.")
    if report["status"] == "resolved":
        raise Conflict("report-resolved", "This report is resolved already.")
    now = seats.rfc3339(seats.now_ms())
    report["status"] = "resolved"
    report["resolution"] = {"action": action, "note": note, "by": who, "at": now}
    store.save_report(report)
    audit(store, who, f"report.{action}", f"report:{report_id}", note)
    return report


def audit(store: Moderation, who: str, action: str, target: str, reason: str | None) -> None:
    """Write one operator action to the audit log."""
    at = seats.rfc3339(seats.now_ms())
    store.audit({"who": who, "at": at, "action": action, "target": target, "reason": reason})


def suspend(
    store: Moderation, registry: Any, player_id: str, until_ms: int, reason: str, who: str
) -> None:
    fields = registry.get(player_id)
    if fields is None or "key" not in fields:
        raise _no_player()
    store.suspend(player_id, until_ms)
    audit(store, who, "player.suspend", f"player:{player_id}", reason)


def lift(store: Moderation, registry: Any, player_id: str, reason: str | None, who: str) -> None:
    fields = registry.get(player_id)
    if fields is None or "suspended" not in fields:
        raise NotFound("not-suspended", "This player is not suspended.")
    store.lift(player_id)
    audit(store, who, "player.unsuspend", f"player:{player_id}", reason)


def _takeover_decision(player_id: str) -> Any:
    def decide(doc: GameDoc) -> Outcome:
        mine = [p for p in doc["players"] if p.get("player") == player_id]
        if not mine:
            raise NotFound("player-not-seated", "The player has no seat in this game.")
        if doc["status"] == OPEN:  # its seat is freed, as a leave frees it
            seat = mine[0]["seat"]
            event = {"type": "player_left", "seat": seat, "name": mine[0]["name"]}
            return Outcome(seats.without_seat(doc, seat), [event])
        active = {p["seat"] for p in mine if p.get("status", seats.ACTIVE) == seats.ACTIVE}
        if doc["status"] != RUNNING or not active:
            raise Conflict("game-not-running", "Nothing to take over.")
        level = seats.takeover(doc)
        players: list[PlayerEntry] = [
            {**p, "status": seats.ABANDONED, "bot": level} if p["seat"] in active else p
            for p in doc["players"]
        ]
        events = [{"type": "seat_abandoned", "seat": s} for s in sorted(active)]
        return Outcome({**doc, "players": players}, events)

    return decide


def take_over(games: Games, player_id: str) -> int:
    """The suspended player's seats in this service's live games go to the takeover
    bot (running) or are freed (open); the number of games changed. Safe to run again."""
    changed = 0
    for game_id in games.store.live_ids(player_id):
        try:
            doc = games.writes.mutate(game_id, _takeover_decision(player_id))[0]
        except GameError:
            continue
        changed += 1
        if doc["status"] == OPEN:
            tables.repool(games.store, games.settings, doc, player_id)
    return changed


def _scrubbed(value: Any, player_id: str) -> Any:
    """``value`` with every ``{"player": player_id, "name": ...}`` made anonymous."""
    if isinstance(value, list):
        return [_scrubbed(v, player_id) for v in value]
    if isinstance(value, dict):
        if value.get("player") == player_id:
            value = {**value, "player": None}
            if "name" in value:
                value["name"] = PLACEHOLDER
        return {k: _scrubbed(v, player_id) for k, v in value.items()}
    return value


def erase(store: Moderation, player_id: str) -> None:
    """A deleted player's moderation data (see the module's docstring)."""
    store.drop_blocks(player_id)
    store.drop_reports(store.filed(player_id))
    for report in store.reports(store.naming(player_id)):
        store.save_report(_scrubbed(report, player_id))
    store.forget_reports(player_id)


def export(store: Moderation, registry: Any, player_id: str) -> dict[str, Any]:
    """The player's moderation data: its blocks and the reports it filed (as filed,
    their status; the operator's note is not the player's)."""
    blocked, _ = blocks_page(store, registry, player_id, None, MAX_BLOCKS)
    filed = [filed_receipt(r) for r in store.reports(store.filed(player_id))]
    return {"blocks": blocked, "reports": filed}


def check_blocks(doc: GameDoc, avoid: frozenset[str]) -> None:
    """403 ``blocked`` when ``doc`` is an unlisted table where the host player or a
    seated player is in ``avoid`` (a joiner's blocks, both directions)."""
    if not avoid or tables.is_listed(doc):
        return
    present = {p.get("player") for p in doc["players"]} | {doc.get("host_player")}
    if present & avoid:
        raise Forbidden("blocked", "A block between you and a player at this table keeps you out.")
