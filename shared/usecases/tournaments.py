"""The life of a tournament before its rounds: create, register, withdraw, check in,
start, end early, remove a player, and the standings (docs/api.md "Tournaments"). The
rounds themselves are the worker's (shared/usecases/tournament_rounds.py).

A tournament is one JSON document in the store (shared/store/tournaments.py), changed
only by compare-and-set (:func:`change`): a request and a worker never both write the
same version. Its ``entries`` are the registered players by id (a bot entry's id is
``bot:<n>``); points change only when a round closes, all at once, so the standings
are stable while a round runs.

May import the games layer and the pure tournaments' rules.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from shared.games import Games
from shared.games.errors import Conflict, Forbidden, Invalid, NotFound
from shared.games.notify import now_iso
from shared.tournaments import points as scoring

Doc = dict[str, Any]
REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"
MISSED_LIMIT = 2
"""Games a player may miss (their seat played by the takeover bot from their first
timeout to the end) before the tournament withdraws them."""
MAX_PLAYERS = 10_000
KEEP_MS = 30 * 24 * 3600 * 1000
"""How long a finished tournament is kept (standings and game links)."""
TOP = 20
"""The standings rows a ``standings`` or ``finished`` notification carries."""


def now_ms() -> int:
    return int(time.time() * 1000)


def change(games: Games, tid: str, decide: Callable[[Doc], Doc | None]) -> Doc:
    """Read, ``decide`` (a new document, or ``None`` for no change), compare-and-set;
    retried while another write lands first."""
    store = games.store.tournaments
    for _ in range(20):
        doc, version = store.read(tid)
        if doc is None:
            raise NotFound("tournament-not-found", "No tournament {id}.", id=tid)
        before = marks(doc)
        new = decide(doc)
        if new is None:
            return doc
        ttl = KEEP_MS if new["status"] in (FINISHED, CANCELLED) else 0
        if store.swap(tid, version, new, ttl, notifications(before, new, version + 1)):
            return new
    raise Conflict("version-conflict", "The tournament changed meanwhile; try again.")


def create(games: Games, spec: dict[str, Any], host: str, tenant: str = "") -> Doc:
    """A new tournament in registration. ``spec``: ``name``, ``format`` (``swiss`` or
    ``arena``), ``rounds`` (Swiss), ``round_minutes`` (Swiss: a round every that many
    minutes from the start, none: each as soon as the last is over), ``minutes`` (an
    arena's window), ``table_size``,
    ``clock`` (required), ``options`` (the game's),
    ``rated``, ``max_players``, ``starts_at`` (ms, or none: the host starts it),
    ``checkin_seconds`` (before ``starts_at``), ``points`` (per table size),
    ``bye_points``, ``bots`` (bot entries, a level each), ``webhook`` (a checked
    registration, shared/webhooks/registry.py). ``host``: the player id, or
    ``key:<tenant>`` for an API key's tenant."""
    engine = games.engine
    options = dict(spec.get("options") or {})
    for unused in ("players", "bots_after"):  # a tournament sets them per table
        options.pop(unused, None)
    if spec.get("clock"):
        options["clock"] = spec["clock"]
    if not options.get("clock"):
        raise Invalid.field("json", "options", "A tournament needs a clock.", "Missing clock.")
    low = games.settings.get("CLOCK_MIN_TURN_SECONDS", 10)
    if options["clock"]["turn_seconds"] < low:  # the games' own check, now, not at seating
        detail = "turn_seconds must be {low}..{high}."
        raise Invalid.field("json", "clock", detail, "Out of range.", low=low, high=1_209_600)
    size = int(spec.get("table_size") or engine.MAX_PLAYERS)
    if not engine.MIN_PLAYERS <= size <= engine.MAX_PLAYERS:
        raise Invalid.field("json", "table_size", "table_size is out of range.", "Out of range.")
    points = {int(k): list(v) for k, v in (spec.get("points") or {}).items()}
    if any(len(per) != k for k, per in points.items()):
        raise Invalid.field("json", "points", "One number per place.", "Bad length.")
    created = now_ms()
    tid = secrets.token_hex(8)
    doc: Doc = {
        "id": tid,
        "game": engine.NAME,
        "name": spec.get("name") or "Tournament",
        "format": spec.get("format") or "swiss",
        "rounds": int(spec.get("rounds") or 3),
        "round_minutes": spec.get("round_minutes"),  # Swiss: rounds at fixed times
        "minutes": int(spec.get("minutes") or 30),  # an arena's window
        "table_size": size,
        "min_size": engine.MIN_PLAYERS,
        "points": {str(k): v for k, v in points.items()},
        "bye_points": int(spec.get("bye_points", scoring.BYE_POINTS)),
        "options": options,
        "rated": bool(spec.get("rated", False)),
        "max_players": int(spec.get("max_players") or MAX_PLAYERS),
        "starts_at": spec.get("starts_at"),
        "checkin_seconds": spec.get("checkin_seconds"),
        "host": host,
        "tenant": tenant,
        "status": REGISTERING,
        "entries": {},
        "round": 0,
        "history": [],
        "created_ms": created,
    }
    if spec.get("webhook"):
        doc["webhook"] = spec["webhook"]
    for n, level in enumerate(spec.get("bots") or []):
        pid = f"bot:{n + 1}"
        doc["entries"][pid] = new_entry(len(doc["entries"]), f"Bot {n + 1}", bot=level)
    store = games.store.tournaments
    store.swap(tid, 0, doc)
    store.listed(tid, created)
    store.schedule(tid, doc["starts_at"] or created + 3_600_000)
    return doc


def new_entry(order: int, name: str, rating: float = 0.0, bot: str | None = None) -> Doc:
    entry: Doc = {"name": name, "order": order, "rating": rating, "points": 0, "byes": 0}
    entry.update({"opponents": [], "games": [], "missed": 0, "withdrawn": False})
    if bot:
        entry["bot"] = bot
    return entry


def _open(doc: Doc) -> None:
    if doc["status"] != REGISTERING:
        raise Conflict("tournament-started", "The tournament has started or is over.")


def register(games: Games, tid: str, player: str, name: str, tenant: str, rating: float) -> Doc:
    """Register ``player`` (of ``tenant``: a tournament admits only its own tenant's)."""

    def decide(doc: Doc) -> Doc | None:
        _open(doc)
        if doc["tenant"] != tenant:
            raise Forbidden("tournament-other-tenant", "This tournament is another platform's.")
        if player in doc["entries"]:
            return None
        if len(doc["entries"]) >= doc["max_players"]:
            raise Conflict("tournament-full", "The tournament is full.")
        doc["entries"][player] = new_entry(len(doc["entries"]), name, rating)
        return doc

    return change(games, tid, decide)


def withdraw(games: Games, tid: str, player: str, by: str) -> Doc:
    """``player`` leaves (or the host, ``by``, removes them): before the start the entry
    goes; later it is marked withdrawn and seated no more."""

    def decide(doc: Doc) -> Doc | None:
        if by != player and by != doc["host"]:
            raise Forbidden("not-host", "Only the host may do this.")
        entry = doc["entries"].get(player)
        if entry is None:
            return None
        if doc["status"] == REGISTERING:
            del doc["entries"][player]
        elif doc["status"] == RUNNING and not entry["withdrawn"]:
            entry["withdrawn"] = True
        else:
            return None
        return doc

    return change(games, tid, decide)


def check_in(games: Games, tid: str, player: str) -> Doc:
    """A registered player checks in (within ``checkin_seconds`` before the start)."""

    def decide(doc: Doc) -> Doc | None:
        _open(doc)
        entry = doc["entries"].get(player)
        if entry is None:
            raise NotFound("tournament-not-registered", "This player is not registered.")
        window = doc.get("checkin_seconds")
        if not window or not doc.get("starts_at"):
            return None
        if now_ms() < doc["starts_at"] - window * 1000:
            raise Conflict("checkin-not-open", "Check-in has not opened yet.")
        entry["checked_in"] = True
        return doc

    return change(games, tid, decide)


def require_host(doc: Doc, by: str) -> None:
    """Nothing when ``by`` hosts the tournament; else 403 ``not-host``."""
    if by != doc["host"]:
        raise Forbidden("not-host", "Only the host may do this.")


def host_action(games: Games, tid: str, by: str, action: str) -> Doc:
    """The host starts the tournament now (``start``) or ends it (``end``: after the
    round running, or at once before the first)."""

    def decide(doc: Doc) -> Doc | None:
        require_host(doc, by)
        if action == "start":
            _open(doc)
            doc["start_requested"] = True
        elif doc["status"] == REGISTERING:
            doc["status"] = CANCELLED
        elif doc["status"] == RUNNING:
            doc["end_requested"] = True
        else:
            return None
        return doc

    doc = change(games, tid, decide)
    games.store.tournaments.schedule(tid, now_ms())
    return doc


def place_points(doc: Doc) -> dict[str, list[int]]:
    """The points per place (best first) of every table size its rounds may seat, from
    the game's minimum to ``table_size``: the tournament's own, else the defaults."""
    custom = {int(k): v for k, v in doc["points"].items()}
    sizes = range(doc["min_size"], doc["table_size"] + 1)
    return {str(n): list(scoring.points_for_size(n, custom)) for n in sizes}


def ranked(doc: Doc) -> list[tuple[str, Doc, int]]:
    """The entries in standings order: (id, entry, Buchholz)."""
    entries = [
        scoring.Entry(
            player=pid,
            order=e["order"],
            rating=e["rating"],
            points=e["points"],
            opponents=e["opponents"],
        )
        for pid, e in doc["entries"].items()
    ]
    return [(e.player, doc["entries"][e.player], bh) for e, bh in scoring.standings(entries)]


def standings_page(doc: Doc, limit: int, cursor: int) -> tuple[list[Doc], int | None]:
    """One page of the standings from place ``cursor`` (0-based); the next cursor."""
    rows = ranked(doc)
    page = [
        {
            "place": cursor + i + 1,
            "player": pid,
            "name": e["name"],
            "points": e["points"],
            "buchholz": bh,
            "rating": e["rating"],
            "games": e["games"],
            "byes": e["byes"],
            "withdrawn": e["withdrawn"],
        }
        for i, (pid, e, bh) in enumerate(rows[cursor : cursor + limit])
    ]
    nxt = cursor + limit
    return page, (nxt if nxt < len(rows) else None)


def public(doc: Doc) -> Doc:
    """The tournament as every reader sees it: without its webhook's registration."""
    return {k: v for k, v in doc.items() if k != "webhook"}


def marks(doc: Doc) -> tuple[str, int, str]:
    """What :func:`notifications` compares: the status, the round and its state (an
    arena's: when its standings were last marked, ``standings_ms``)."""
    if doc.get("format") == "arena":
        return doc["status"], doc["round"], str(doc.get("standings_ms", ""))
    history = doc.get("history") or []
    return doc["status"], doc["round"], history[-1].get("state", "") if history else ""


def notifications(before: tuple[str, int, str], doc: Doc, version: int) -> list[Doc]:
    """The webhook notifications of the write that makes ``doc`` (version ``version``)
    from a document with the :func:`marks` ``before``: ``standings`` when a Swiss round
    closed (an arena's: when a game ended, at most once a minute), ``round_started``
    when a round's games are all seated (an arena's: when it starts), ``finished`` when
    it is over (finished or cancelled); in that order, each of a type the registration
    hears. Written by the same compare-and-set as ``doc``,
    so each is made once."""
    reg = doc.get("webhook")
    if not reg:
        return []
    status, round_no, state = before
    base = {"tournament": doc["id"], "game": doc["game"], "version": version}
    base |= {"status": doc["status"], "round": doc["round"], "rounds": doc["rounds"]}
    happened: list[tuple[str, Doc]] = []
    over = doc["status"] in (FINISHED, CANCELLED)
    if doc.get("format") == "arena":
        if status == REGISTERING and doc["status"] == RUNNING:
            happened.append(("round_started", {"ends_ms": doc["ends_ms"]}))
        if not over and state != str(doc.get("standings_ms", "")):
            happened.append(("standings", {"games": len(doc["history"]), "standings": _top(doc)}))
    else:
        rows = {r["round"]: r for r in doc["history"]}
        if state == "playing" and rows.get(round_no, {}).get("state") == "done":
            happened.append(("standings", {"round": round_no, "standings": _top(doc)}))
        current = doc["history"][-1] if doc["history"] else {}
        if current.get("state") == "playing" and (current["round"], state) != (
            round_no,
            "playing",
        ):
            tables = [{"game": t["game"], "players": t["players"]} for t in current["tables"]]
            happened.append(("round_started", {"tables": tables, "byes": current["byes"]}))
    if over and status not in (FINISHED, CANCELLED):
        extra = {"standings": _top(doc)} | ({"error": doc["error"]} if "error" in doc else {})
        happened.append(("finished", extra))
    stamp = now_iso()
    return [
        {"reg": reg["id"], "type": kind, "timestamp": stamp, "data": {**base, **extra}}
        for kind, extra in happened
        if kind in reg["events"]
    ]


def _top(doc: Doc) -> list[Doc]:
    return standings_page(doc, TOP, 0)[0]
