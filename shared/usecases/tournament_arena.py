"""An arena tournament's steps, run by the worker: for ``minutes`` from its start, a
player whose game is over is seated again as soon as a full table of free players fits
(shared/tournaments/arena.py: near in points, never the last game's opponents again),
with points per place as in Swiss. No table starts after the window; the tournament
finishes when its last table is over.

Exactly once as Swiss (shared/usecases/tournament_rounds.py): the new tables and their
game ids (from the tournament and a table counter) are written first, by
compare-and-set, then seated idempotently. ``step`` runs either format. A write that
closes a game marks the standings (``standings_ms``) at most once a minute: the
tournament's webhook hears them (shared/usecases/tournaments.py ``notifications``).

May import the games layer, the use cases beside it and the pure tournaments' rules.
"""

from __future__ import annotations

from typing import Any

from shared.games import Games
from shared.games.errors import Invalid
from shared.tournaments import arena
from shared.usecases import tournament_rounds as rounds
from shared.usecases.tournaments import (
    CANCELLED,
    FINISHED,
    REGISTERING,
    RUNNING,
    Doc,
    change,
    now_ms,
    ranked,
)

STANDINGS_EVERY_MS = 60_000
"""An arena's webhook hears ``standings`` when a game ends, at most once a minute."""


def step(games: Games, tid: str) -> int | None:
    """One step of tournament ``tid`` of either format: when to look again (ms), ``None``
    once over."""
    doc, _ = games.store.tournaments.read(tid)
    if doc is None or doc.get("format") != "arena":
        return rounds.advance(games, tid)
    doc = change(games, tid, lambda d: _decide(games, d))
    if doc["status"] in (FINISHED, CANCELLED):
        return None
    if doc["status"] == REGISTERING:
        return int(doc["starts_at"] or now_ms() + 3_600_000)
    seating = [t for t in doc["live"] if t["state"] == "seating"]
    try:
        for table in seating:
            rounds.seat_table(games, doc, table)
    except Invalid as error:  # options no game accepts now: stop, and say why
        code = error.code
        change(games, tid, lambda d: rounds.failed(d, code))
        return None
    if seating:
        change(games, tid, lambda d: _seated(d, {t["game"] for t in seating}))
    return now_ms() + rounds.RECHECK_MS


def _decide(games: Games, doc: Doc) -> Doc | None:
    if doc["status"] == REGISTERING:
        started = rounds.starting(doc)
        if started is None:
            return None
        if started:
            doc["ends_ms"] = now_ms() + int(doc.get("minutes") or 30) * 60_000
            doc["live"], doc["tables_made"] = [], 0
    if doc["status"] != RUNNING:
        return doc
    changed = _close_over(games, doc)
    if changed and now_ms() - doc.get("standings_ms", 0) >= STANDINGS_EVERY_MS:
        doc["standings_ms"] = now_ms()  # its write tells the webhook the standings
    open_window = now_ms() < doc["ends_ms"] and not doc.get("end_requested")
    if open_window:
        changed |= _seat_free(games, doc)
    elif not doc["live"]:
        doc["status"] = FINISHED
        changed = True
    return doc if changed else None


def _close_over(games: Games, doc: Doc) -> bool:
    still = []
    changed = False
    playing = [t["game"] for t in doc["live"] if t["state"] == "playing"]
    over = dict(zip(playing, rounds.finals(games, playing), strict=True))
    for table in doc["live"]:
        rows: Any = over.get(table["game"], False)
        if rows is False:
            still.append(table)
            continue
        rounds.score_table(doc, table, rows)
        for p in table["players"]:
            doc["entries"][p]["last"] = [o for o in table["players"] if o != p]
        doc["history"].append({**table, "state": "done"})
        changed = True
    doc["live"] = still
    return changed


def _seat_free(games: Games, doc: Doc) -> bool:
    busy = {p for t in doc["live"] for p in t["players"]}
    free = [pid for pid, e, _ in ranked(doc) if not e["withdrawn"] and pid not in busy]
    last = {p: frozenset(doc["entries"][p].get("last", ())) for p in free}
    humans = [p for p in free if ":" not in p]
    avoided = {p: frozenset(a) for p, a in games.store.moderation.avoided_many(humans).items()}
    tables = arena.next_tables(free, doc["table_size"], last, avoided)
    for players in tables:
        doc["tables_made"] += 1
        gid = rounds.game_id(doc["id"], 0, doc["tables_made"])
        doc["live"].append({"game": gid, "players": players, "state": "seating"})
    return bool(tables)


def _seated(doc: Doc, games_seated: set[str]) -> Doc | None:
    changed = False
    for table in doc["live"]:
        if table["game"] in games_seated and table["state"] == "seating":
            table["state"] = "playing"
            changed = True
    return doc if changed else None
