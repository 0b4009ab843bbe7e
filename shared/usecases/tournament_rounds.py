"""A tournament's rounds, run by the worker (shared/worker/loop.py): start, pair a
round, seat its games, close it, finish.

Exactly once, by compare-and-set on the tournament's document
(shared/usecases/tournaments.py :func:`change`): a round's tables and their game ids are
written first (the round is then ``seating``), and only the copy whose write landed
goes on; its games have ids derived from the tournament, the round and the table, so a
copy that takes over a round a killed copy was seating creates only the games still
missing (each created with its players in their seats, then started: two writes a
table). A round closes (points, Buchholz, byes, missed games) in one write once every
game of it is over, and the next is paired in that same write: no round is skipped or
paired twice. With ``round_minutes`` (rounds at fixed times) the next round is paired
at the start plus ``round_minutes`` per round played, or when its last game is over if
that is later (:func:`next_round_ms`); the round closes as soon as its games are over.

A registered player who does not take their seat is timed out by the game's clock and
played by the takeover bot from then on, and scores as their seat places; after
``MISSED_LIMIT`` such games they are withdrawn. Each seat reaches its player as a
``tournament_game`` notification written with the game's start (shared/games/notify.py:
the player's webhook, and Web Push), then the game's own ``your_turn``.

May import the games layer, the use cases beside it and the pure tournaments' rules.
"""

from __future__ import annotations

import contextlib
import hashlib
import random
from collections import Counter
from typing import Any

from shared.games import CANCELLED as GAME_CANCELLED
from shared.games import OPEN, Games, names, seats
from shared.games.base import Outcome
from shared.games.document import PlayerEntry
from shared.games.errors import Conflict, Invalid
from shared.games.lifecycle import started_outcome
from shared.games.notify import TOURNAMENT_OWNER
from shared.tournaments import points as scoring
from shared.tournaments import swiss
from shared.usecases.tournaments import (
    CANCELLED,
    FINISHED,
    MISSED_LIMIT,
    REGISTERING,
    RUNNING,
    Doc,
    change,
    now_ms,
    ranked,
)

RECHECK_MS = 1000
"""How soon the worker looks again at a round still playing."""


def game_id(tid: str, round_no: int, table: int) -> str:
    return hashlib.sha256(f"{tid}:{round_no}:{table}".encode()).hexdigest()[:16]


def advance(games: Games, tid: str) -> int | None:
    """One step of tournament ``tid``: when to look again (ms), ``None`` once over."""
    doc = pair_step(games, tid)
    if doc["status"] in (FINISHED, CANCELLED):
        return None
    if doc["status"] == REGISTERING:
        return doc["starts_at"] or now_ms() + 3_600_000
    current = doc["history"][-1]
    if current["state"] == "done":  # the next round waits for its time
        return max(next_round_ms(doc), now_ms() + RECHECK_MS)
    if current["state"] == "seating":
        try:
            seat_round(games, doc, current)
        except Invalid as error:  # options no game accepts now: stop, and say why
            code = error.code
            change(games, tid, lambda d: failed(d, code))
            return None
        change(games, tid, lambda d: _seated(d, current["round"]))
    return now_ms() + RECHECK_MS


def pair_step(games: Games, tid: str) -> Doc:
    """The step's one compare-and-set: start the tournament, close the round whose
    games are all over and pair the next (written ``seating``); the document after it."""
    return change(games, tid, lambda d: _decide(games, d))


def starting(doc: Doc) -> bool | None:
    """For a tournament in registration: ``None`` while it waits; else it starts now
    (``True``, ``status`` running, players who missed the check-in dropped) or is
    cancelled for too few players (``False``)."""
    if not (doc.get("start_requested") or (doc["starts_at"] and now_ms() >= doc["starts_at"])):
        return None
    if doc.get("checkin_seconds") and doc.get("starts_at"):
        doc["entries"] = {
            p: e for p, e in doc["entries"].items() if e.get("checked_in") or "bot" in e
        }
    if len(doc["entries"]) < doc["min_size"]:
        doc["status"] = CANCELLED
        return False
    doc["status"], doc["started_ms"] = RUNNING, now_ms()
    return True


def _decide(games: Games, doc: Doc) -> Doc | None:
    if doc["status"] == REGISTERING:
        started = starting(doc)
        if started is None:
            return None
        return _pair(games, doc) if started else doc
    if doc["status"] != RUNNING:
        return None
    current = doc["history"][-1]
    if current["state"] == "done":  # closed, waiting for the next round's fixed time
        if doc.get("end_requested"):
            doc["status"] = FINISHED
            return doc
        return _pair(games, doc) if now_ms() >= next_round_ms(doc) else None
    if current["state"] != "playing":
        return None
    finished = results(games, doc["id"], [t["game"] for t in current["tables"]])
    if finished is None:
        return None
    _close(doc, current, finished)
    if doc["round"] >= doc["rounds"] or doc.get("end_requested"):
        doc["status"] = FINISHED
        return doc
    if now_ms() < next_round_ms(doc):
        doc["next_round_ms"] = next_round_ms(doc)
        return doc
    return _pair(games, doc)


def next_round_ms(doc: Doc) -> int:
    """When the round after ``doc["round"]`` may be paired: at once (0), or with
    ``round_minutes`` at the start plus that many minutes per round played. (It is
    paired at that time or when the last game of the round before is over, whichever
    is later: no game is cut short.)"""
    minutes = doc.get("round_minutes")
    if not minutes:
        return 0
    return int(doc["started_ms"]) + int(doc["round"]) * int(minutes) * 60_000


def _pair(games: Games, doc: Doc) -> Doc:
    """The next round's tables, written as ``seating`` (the claim of the round)."""
    active = [pid for pid, e, _ in ranked(doc) if not e["withdrawn"]]
    met = {pid: Counter(doc["entries"][pid]["opponents"]) for pid in active}
    byes = {pid: doc["entries"][pid]["byes"] for pid in active}
    humans = [pid for pid in active if ":" not in pid]
    avoided = {p: frozenset(a) for p, a in games.store.moderation.avoided_many(humans).items()}
    rd = swiss.pair_round(active, doc["table_size"], doc["min_size"], met, byes, avoided)
    doc["round"] += 1
    doc.pop("next_round_ms", None)
    tables = [
        {"game": game_id(doc["id"], doc["round"], i), "players": t} for i, t in enumerate(rd.tables)
    ]
    doc["history"].append(
        {"round": doc["round"], "state": "seating", "tables": tables, "byes": rd.byes}
    )
    return doc


def failed(doc: Doc, code: str) -> Doc:
    """The tournament cancelled because its games cannot be made (``error``: the code)."""
    doc["status"], doc["error"] = CANCELLED, code
    return doc


def _seated(doc: Doc, round_no: int) -> Doc | None:
    current = doc["history"][-1]
    if current["round"] != round_no or current["state"] != "seating":
        return None
    current["state"] = "playing"
    return doc


def seat_round(games: Games, doc: Doc, current: Doc) -> None:
    """Create the round's games still missing and seat the players not seated yet."""
    for table in current["tables"]:
        seat_table(games, doc, table)


def seat_table(games: Games, doc: Doc, table: Doc) -> None:
    """Create the table's game with every player already in its seat (bound to the
    player; a bot entry's seat played by its bot), in an order drawn from the game's id,
    then start it: two writes a table, whoever makes them (a game already created by a
    copy that died is only started, one already started is left as it is)."""
    gid, players = table["game"], list(table["players"])
    entries = doc["entries"]
    random.Random(gid).shuffle(players)  # (the same order in any copy)
    options = {**doc["options"], "players": len(players), "start": "when_full"}
    options["rated"] = doc["rated"]
    seated: list[PlayerEntry] = []
    for i, pid in enumerate(players):
        label = _label(entries[pid]["name"], seated)
        seated.append({**seats.new_player(i, label, "", entries[pid].get("bot")), "player": pid})
    owner = TOURNAMENT_OWNER + doc["id"]  # its start tells the seats (shared/games/notify.py)
    with contextlib.suppress(Conflict):  # created by a copy that died: start it
        games.lifecycle.create(options, owner, game_id=gid, bots=seated)
    _start(games, gid)


def _label(name: str, seated: list[PlayerEntry]) -> str:
    """``name``, or ``name (2)``... when it is too like a name at the table already."""
    label = name
    for attempt in range(2, 10):
        try:
            names.refuse_taken(label, seated)
            return label
        except Conflict:
            label = f"{name[:27]} ({attempt})"
    return label


def _start(games: Games, gid: str) -> None:
    def decide(doc: Any) -> Outcome:
        if doc["status"] != OPEN:
            raise Conflict("game-not-open", "Only an open game can be started.")
        return started_outcome(games.engine, doc, [])

    with contextlib.suppress(Conflict):
        games.writes.mutate(gid, decide)


READ_CHUNK = 200
"""Games read in one round trip when a step looks at a round's (or an arena's) games."""


def results(games: Games, tid: str, gids: list[str]) -> list[Any] | None:
    """:func:`final` of every game of a round once all are over, else ``None``. The rows
    of the games found over are kept (shared/store/tournaments.py ``keep_rows``), so a
    look at a round decodes only the games not known to be over, up to the first chunk
    with a game still on: the step that closes a round reads the last games to end."""
    store = games.store.tournaments
    known = store.known_rows(tid, gids)
    missing = [g for g in gids if g not in known]
    found = finals(games, missing, until_on=True)
    over = {g: rows for g, rows in zip(missing, found, strict=False) if rows is not False}
    if over:
        store.keep_rows(tid, over)
    if len(over) < len(missing):
        return None
    known |= over
    return [known[g] for g in gids]


def finals(games: Games, gids: list[str], until_on: bool = False) -> list[Any]:
    """:func:`final` of each game, read ``READ_CHUNK`` at a time (a pipelined round trip
    each); with ``until_on``, up to the first chunk with a game still on (a round still
    playing costs one round trip)."""
    out: list[Any] = []
    for start in range(0, len(gids), READ_CHUNK):
        docs = games.store.read_many(gids[start : start + READ_CHUNK])
        out += [final(doc) for doc in docs]
        if until_on and False in out:
            break
    return out


def final(doc: Any) -> Any:
    """A game's result rows by player (``None``: gone or cancelled), ``False``: on."""
    if doc is None or doc["status"] == GAME_CANCELLED:
        return None
    if doc["status"] != "finished":
        return False
    by_seat = {p["seat"]: p for p in doc["players"]}
    rows = (doc.get("result") or {}).get("standings") or []
    return [
        (by_seat[r["seat"]].get("player"), r["rank"], by_seat[r["seat"]].get("status"))
        for r in rows
    ]


def _close(doc: Doc, current: Doc, finished: list[Any]) -> None:
    """Points, opponents, byes and missed games of the round just over."""
    entries = doc["entries"]
    for p in current["byes"]:
        entries[p]["points"] += doc["bye_points"]
        entries[p]["byes"] += 1
    for table, rows in zip(current["tables"], finished, strict=True):
        score_table(doc, table, rows)
    current["state"] = "done"


def score_table(doc: Doc, table: Doc, rows: list[Any] | None) -> None:
    """One table's game over: games, opponents, points per place, missed games."""
    entries = doc["entries"]
    players = table["players"]
    for p in players:
        entries[p]["games"].append(table["game"])
        entries[p]["opponents"].extend(o for o in players if o != p)
    if not rows:
        return
    custom = {int(k): v for k, v in doc["points"].items()}
    got = scoring.award([r[1] for r in rows], scoring.points_for_size(len(rows), custom))
    for (pid, _, status), pts in zip(rows, got, strict=True):
        if pid not in entries:
            continue
        entries[pid]["points"] += pts
        if status == seats.ABANDONED and "bot" not in entries[pid]:
            entries[pid]["missed"] += 1
            if entries[pid]["missed"] >= MISSED_LIMIT:
                entries[pid]["withdrawn"] = True
