"""Notifications of one game write: pure, computed before the write and stored by it.

:meth:`shared.games.Games.mutate` calls :func:`notifications` with the old and new
documents and the write's events; the store appends the result to the game's outbox in
the same script as the write, so a committed change never lacks its notification and a
refused one never has one. A notification carries only public facts (status, version,
seats to act and their deadlines, seat numbers, the public result): never a view.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from shared.games.document import GameDoc, WebhookEntry

FROM_EVENTS = {
    "game_started": "game.started",
    "game_finished": "game.over",
    "game_cancelled": "game.cancelled",
    "seat_timed_out": "seat.timed_out",
    "seat_abandoned": "seat.abandoned",
}


def message_id(game_id: str, entry_id: str) -> str:
    """The ``webhook-id`` of a notification (its outbox entry): stable over its retries."""
    return f"msg_{game_id}_{entry_id}"


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def data_of(doc: GameDoc) -> dict[str, Any]:
    """The public facts every notification carries."""
    to_act = list(doc.get("to_act") or [])
    deadlines = {
        str(p["seat"]): p.get("deadline") for p in doc.get("players", []) if p["seat"] in to_act
    }
    return {
        "game_id": doc["id"],
        "game": doc["game"],
        "version": doc["version"],
        "status": doc["status"],
        "to_act": to_act,
        "deadlines": deadlines,
    }


def _turn_for(old: GameDoc, new: GameDoc, movers: set[int]) -> set[int]:
    """Seats whose turn (re)starts with this write: to act now and not before, or
    acting again after moving, or all of them when the game just started."""
    if new["status"] != "running":
        return set()
    now = set(new["to_act"])
    if old["status"] != "running":
        return now
    return {s for s in now if s not in old.get("to_act", []) or s in movers}


def notifications(
    old: GameDoc, new: GameDoc, events: list[dict[str, Any]], movers: set[int]
) -> list[dict[str, Any]]:
    """The notifications of the write ``old`` -> ``new`` with ``events`` (``movers``:
    the seats whose moves it applied), one per registration that wants it, in order."""
    regs = new.get("webhooks") or []
    if not regs:
        return []
    stamp = now_iso()
    base = data_of(new)
    happened: list[tuple[str, dict[str, Any]]] = []
    for event in events:
        kind = FROM_EVENTS.get(event["type"])
        if kind is None:
            continue
        extra: dict[str, Any] = {}
        if "seat" in event:
            extra["seat"] = event["seat"]
        if kind == "game.over":
            extra["result"] = new.get("result")
        happened.append((kind, extra))
    turn = _turn_for(old, new, movers)
    if turn:
        happened.append(("game.turn", {"turn": sorted(turn)}))
    out = []
    for kind, extra in happened:
        for reg in regs:
            if kind not in reg["events"]:
                continue
            data = {**base, **extra}
            if reg["seat"] is not None:
                if kind == "game.turn" and reg["seat"] not in turn:
                    continue
                data["seat"] = reg["seat"]
            out.append({"reg": reg["id"], "type": kind, "timestamp": stamp, "data": data})
    return out


def test_notification(doc: GameDoc, reg: WebhookEntry) -> dict[str, Any]:
    data = data_of(doc)
    if reg["seat"] is not None:
        data["seat"] = reg["seat"]
    return {"reg": reg["id"], "type": "webhook.test", "timestamp": now_iso(), "data": data}
