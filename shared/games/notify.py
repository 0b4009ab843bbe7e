"""Notifications of one game write: pure, computed before the write and stored by it.

:meth:`WriteLoop.mutate` (shared/games/writes.py) calls :func:`notifications` with the old and new
documents and the write's events; the store appends the result to the game's outbox in
the same script as the write, so a committed change never lacks its notification and a
refused one never has one. A notification carries only public facts (status, version,
seats to act and their deadlines, seat numbers, the public result): never a view.

A seat bound to a player (``"player"``) gets ``your_turn`` and ``game_over``
notifications addressed to ``player:<id>`` whether or not the player has a webhook: the
worker looks the player's registration up when it delivers them
(shared/webhooks/players.py), so the write never reads the registry.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from shared.games import audience
from shared.games.audience import Audience
from shared.games.document import GameDoc, WebhookEntry

FROM_EVENTS = {
    "game_started": "game.started",
    "game_finished": "game.over",
    "game_cancelled": "game.cancelled",
    "seat_timed_out": "seat.timed_out",
    "seat_abandoned": "seat.abandoned",
    "analysis_ready": "analysis.ready",
}

PLAYER_TYPES = ("your_turn", "game_over", "tournament_game")
"""What a player's webhook hears, in every game it sits in (``tournament_game``: a
tournament's game with the player seated has started; shared/usecases/tournament_rounds.py)."""
TOURNAMENT_TYPES = ("round_started", "standings", "finished")
"""What a tournament's webhook (its creator's, for a platform) hears: a round's games
started, a round closed (the standings after it), the tournament over
(shared/usecases/tournaments.py)."""
TOURNAMENT_OWNER = "tournament:"
"""The ``owner`` of a tournament's games: ``tournament:<tournament id>``."""
REMATCH = "rematch"
"""A bound seat's notice that the ended game has a next one (``next_game``), addressed
to its player like the others; Web Push hears it (shared/push), the webhook does not."""
PLAYER = "player:"
"""The ``reg`` of a player's notifications: ``player:<player id>``."""


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


def hook_audience(reg: WebhookEntry) -> Audience:
    """Who a webhook registration reads as: a seat's, the seat's owner; a game's, the
    public."""
    seat = reg["seat"]
    return audience.PUBLIC_HOOK if seat is None else audience.owner(seat)


def payload(base: dict[str, Any], extra: dict[str, Any], to: Audience) -> dict[str, Any]:
    """A notification's ``data`` for its audience ``to``: the public facts (``base``),
    the event's own (``extra``) and the seat it is addressed to, if any."""
    data = {**base, **extra}
    if to.seat is not None:
        data["seat"] = to.seat
    return data


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
    if not regs and not any(p.get("player") for p in new["players"]):
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
            to = hook_audience(reg)
            if kind == "game.turn" and to.seat is not None and to.seat not in turn:
                continue
            data = payload(base, extra, to)
            out.append({"reg": reg["id"], "type": kind, "timestamp": stamp, "data": data})
    over = any(kind == "game.over" for kind, _ in happened)
    again = any(event["type"] == "rematch_created" for event in events)
    return (
        out
        + _tournament_seats(old, new, base, stamp)
        + _for_players(new, base, turn, over, stamp, again)
    )


def _tournament_seats(
    old: GameDoc, new: GameDoc, base: dict[str, Any], stamp: str
) -> list[dict[str, Any]]:
    """A tournament's game that starts with this write: each bound human seat's
    ``tournament_game`` (with ``tournament``, its id), addressed to its player."""
    owner = new.get("owner") or ""
    if not owner.startswith(TOURNAMENT_OWNER) or old["status"] == "running":
        return []
    if new["status"] != "running":
        return []
    out = []
    for p in new["players"]:
        if not p.get("player") or p.get("bot"):
            continue
        data = payload(base, {}, audience.owner(p["seat"], p["player"]))
        data["tournament"] = owner[len(TOURNAMENT_OWNER) :]
        note = {"reg": PLAYER + p["player"], "type": "tournament_game", "timestamp": stamp}
        out.append({**note, "data": data})
    return out


def _for_players(
    new: GameDoc, base: dict[str, Any], turn: set[int], over: bool, stamp: str, again: bool
) -> list[dict[str, Any]]:
    """Each bound seat's ``your_turn`` (its turn starts, a human plays it),
    ``game_over`` (with the result) or ``rematch`` (with ``next_game``), addressed to
    its player."""
    out = []
    for p in new["players"]:
        if not p.get("player"):
            continue
        data = payload(base, {}, audience.owner(p["seat"], p["player"]))
        if p["seat"] in turn and not p.get("bot"):
            kind = "your_turn"
            data["turn"] = sorted(turn)
        elif over:
            kind = "game_over"
            data["result"] = new.get("result")
        elif again and not p.get("bot"):
            kind = REMATCH
            data["next_game"] = new.get("next_game")
        else:
            continue
        out.append({"reg": PLAYER + p["player"], "type": kind, "timestamp": stamp, "data": data})
    return out


def test_notification(doc: GameDoc, reg: WebhookEntry) -> dict[str, Any]:
    data = payload(data_of(doc), {}, hook_audience(reg))
    return {"reg": reg["id"], "type": "webhook.test", "timestamp": now_iso(), "data": data}
