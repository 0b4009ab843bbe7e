"""What one push says, and when it is sent at all.

The payload is JSON with public facts only: the ``type``, the game's id and service,
its status and the seats to act, the player's seat and its deadline, the URL of the
seat in the browser client (``/play?game=<id>``, the next game's for a ``rematch``,
whose id is ``next_game``), and a ``title`` and ``body`` in the
player's language (the API's catalogs, shared/i18n). Never a view, a hand, a seed, a
token or another player's name.

Headers: ``Topic`` is per game (a newer push replaces an older one the device has not
shown yet), ``Urgency`` is ``high`` for ``your_turn`` and ``clock_low``, ``normal``
else; ``TTL`` is the time left until the seat's deadline (a ``your_turn`` is useless
after its turn), else ``PUSH_TTL_SECONDS``.

A ``digest`` (shared/push/digest.py) lists the games waiting for the player's move:
their ``count`` and, for each of the first ones, its service, id, the player's seat and
deadline; ``more`` when there are others; its URL is ``/play``, its ``Topic`` and tag
``digest``, its ``Urgency`` ``low``.

Quiet hours hold back every push but a ``clock_low`` whose deadline falls before they
end (the player would be timed out while it sleeps).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from shared.games.seats import parse_ms
from shared.i18n import render
from shared.push.subscriptions import CLOCK_LOW, minutes

TITLES = {
    "your_turn": "Your turn",
    "game_over": "Game over",
    "clock_low": "Your clock is running low",
    "rematch": "Rematch",
    "tournament_game": "Your tournament table",
    "digest": "Games waiting for you",
}
BODIES = {
    "your_turn": "It is your turn in {game}.",
    "game_over": "Your game of {game} is over.",
    "clock_low": "Move in {game} before your time runs out.",
    "rematch": "A new game of {game} with the same players is waiting for you.",
    "tournament_game": "Your next tournament game of {game} has started.",
    "digest": "{count} games are waiting for your move.",
    "digest_one": "A game of {game} is waiting for your move.",
}
URGENT = ("your_turn", CLOCK_LOW)


def push_text(template: str, language: str, **params: Any) -> str:
    """A push's text in ``language`` (a template of the API's catalogs)."""
    return render(template, params, language)


def deadline_ms(note: dict[str, Any]) -> int | None:
    """The deadline of the notified seat's turn, if it has one."""
    data = note["data"]
    stamp = data.get("deadlines", {}).get(str(data.get("seat")))
    return parse_ms(stamp) if stamp else None


def payload(note: dict[str, Any], language: str) -> dict[str, Any]:
    """The push's JSON (see the module's docstring)."""
    data, kind = note["data"], note["type"]
    deadline = data.get("deadlines", {}).get(str(data.get("seat")))
    return {
        "type": kind,
        "game_id": data["game_id"],
        "game": data["game"],
        "status": data["status"],
        "to_act": data["to_act"],
        "seat": data.get("seat"),
        "deadline": deadline,
        "url": f"/play?game={data.get('next_game') or data['game_id']}",
        "next_game": data.get("next_game"),
        "tag": f"game-{data['game_id']}",
        "title": push_text(TITLES[kind], language),
        "body": push_text(BODIES[kind], language, game=data["game"]),
        "lang": language,
        "timestamp": note["timestamp"],
    }


def headers(note: dict[str, Any], now_ms: int, ttl_max: int) -> dict[str, str]:
    """``TTL``, ``Urgency`` and ``Topic`` of the push (see the module's docstring)."""
    deadline = deadline_ms(note)
    ttl = ttl_max if deadline is None else max(0, min(ttl_max, (deadline - now_ms) // 1000))
    topic = hashlib.sha256(f"{note['data']['game']}:{note['data']['game_id']}".encode())
    return {
        "TTL": str(ttl),
        "Urgency": "high" if note["type"] in URGENT else "normal",
        "Topic": topic.hexdigest()[:32],
    }


def quiet_until(prefs: dict[str, Any], now_ms: int) -> int | None:
    """When the player's quiet hours end (ms), if they hold at ``now_ms``."""
    quiet = prefs.get("quiet_hours")
    if not quiet:
        return None
    start, end = minutes(quiet["start"]), minutes(quiet["end"])
    if start is None or end is None:
        return None
    local = datetime.fromtimestamp(now_ms / 1000, UTC).astimezone(ZoneInfo(prefs["time_zone"]))
    now = local.hour * 60 + local.minute
    inside = start <= now < end if start < end else (now >= start or now < end)
    if not inside:
        return None
    ends = local.replace(hour=end // 60, minute=end % 60, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)
    return int(ends.timestamp() * 1000)


def held_back(note: dict[str, Any], prefs: dict[str, Any], now_ms: int) -> bool:
    """Whether quiet hours hold this push back (a ``clock_low`` due before they end
    goes through)."""
    until = quiet_until(prefs, now_ms)
    if until is None:
        return False
    deadline = deadline_ms(note)
    return not (note["type"] == CLOCK_LOW and deadline is not None and deadline < until)


def digest_payload(
    waiting: list[dict[str, Any]], more: bool, language: str, now_iso: str
) -> dict[str, Any]:
    """A digest's JSON: ``waiting`` are entries of the player's list of games
    (shared/games/players.py ``entry``), of which only public facts are kept."""
    count = len(waiting)
    body = (
        push_text(BODIES["digest_one"], language, game=waiting[0]["game"])
        if count == 1 and not more
        else push_text(BODIES["digest"], language, count=f"{count}+" if more else count)
    )
    return {
        "type": "digest",
        "count": count,
        "more": more,
        "games": [
            {"game": w["game"], "game_id": w["id"], "seat": w["seat"], "deadline": w["deadline"]}
            for w in waiting
        ],
        "url": "/play",
        "tag": "digest",
        "title": push_text(TITLES["digest"], language),
        "body": body,
        "lang": language,
        "timestamp": now_iso,
    }


def digest_headers(ttl_max: int) -> dict[str, str]:
    return {"TTL": str(ttl_max), "Urgency": "low", "Topic": "digest"}
