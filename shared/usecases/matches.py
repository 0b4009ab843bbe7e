"""Quick match: seat a player at the oldest open public table with the options it asks
for and a free seat, or open one (shared/store/matchmaking.py keeps the pools).

A pool holds the tables of one tenant (the API key that made the player; none without
keys) and one set of options: the engine's and the kit's declared with
``match="pool"`` or ``"only"`` (``players``, ``clock``, ``takeover``, ``bots_after``:
shared/games/options.py), as canonical JSON (sorted keys, in their stored form; an option
unset is left out unless ``pool_always``, so older pools keep their names), whose
SHA-256 (16 hex digits) names it. One script call claims a seat atomically, so tables
are opened one at a time per pool and a crowd fills exactly as many as it needs. The
claimer of a new table creates its game with that id (public, ``start: when_full``, its
``pool`` named);
every claimer then joins it as the player, by the game's own compare-and-set write,
which starts the game with its last seat. A table has no host anyone holds: a seat
freed while it waits (a leave, an erasure) puts it back in its pool
(:func:`shared.games.tables.repool`), where the next claimers fill it. ``bots_after``:
the worker seats bots in the empty seats that many seconds after the table's creation
and starts it (:func:`fill_with_bots`, called by shared/usecases/autoplay.py).

May import the games layer (:class:`Games` and its modules).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

from shared.engine import RuleError
from shared.games import CANCELLED, OPEN, Games, Outcome, names, seats, tables, tokens
from shared.games import options as kit_options
from shared.games.access import seat_of_player
from shared.games.document import GameDoc
from shared.games.errors import Conflict, Invalid, NotFound
from shared.games.lifecycle import started_outcome
from shared.games.tokens import PlayerRef

CLAIMS = 8
"""Claims one request may make (each refused table is dropped before the next)."""
CREATE_WAIT_SECONDS = 2.0
"""How long a claimer waits for the game of a table whose creator is still creating it."""
CREATE_WAIT_STEP = 0.02
BOT = "greedy"


def canonical(engine_options: dict[str, Any], kit: dict[str, Any], tenant: str = "") -> str:
    """The canonical JSON of a table's options and tenant (what makes two requests
    "equal"): the engine's, the kit's part of the pool key
    (:func:`kit_options.pool_values`), and ``tenant`` when there is one."""
    table = {"options": engine_options, **kit}
    if tenant:
        table["tenant"] = tenant
    return json.dumps(table, sort_keys=True, separators=(",", ":"))


def _named(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def pool_of(doc: GameDoc) -> str:
    """The pool a table's game belongs to: the one it names (a table made before pools
    were named in it: its options')."""
    if "pool" in doc:
        return doc["pool"]
    return _named(canonical(doc["options"], kit_options.pool_values(lambda o: o.read(doc))))


def _pool(options: dict[str, Any], tenant: str) -> str:
    """The pool of a match request's ``options`` (the kit's and the engine's) for the
    player's ``tenant``."""
    kit, engine_options = kit_options.split(options)
    values = kit_options.pool_values(lambda o: o.stored(kit.get(o.name)))
    return _named(canonical(engine_options, values, tenant))


def quick_match(
    games: Games,
    options: dict[str, Any],
    player: PlayerRef,
    name: str,
    owner: str | None = None,
    bots_after: int | None = None,
    tenant: str = "",
    avoid: frozenset[str] = frozenset(),
) -> tuple[GameDoc, int, str | None]:
    """Seat ``player`` (displayed as ``name``) at a table of ``options`` (``players``,
    ``clock`` and the engine's options, as the options schema loads them) among the
    tables of the player's ``tenant``; the game, the seat and the seat's token (``None``
    when the player already sat there: its key acts for the seat). ``takeover`` is
    matched as stored: absent and the default level are the same table. ``avoid``:
    the players it must not share a table with (its blocks, both ways), checked by the
    pool's script in the claim itself."""
    engine, store, settings = games.engine, games.store, games.settings
    options = {"players": engine.MAX_PLAYERS, **options}
    if bots_after is not None:
        options["bots_after"] = bots_after
    _, engine_options = kit_options.split(options)
    try:  # a bad mix is refused before any table is opened for it
        engine.setup(options["players"], dict(engine_options), 0)
    except RuleError as error:
        raise Invalid(error.code, error.template, **error.params) from error
    pool = _pool(options, tenant)
    for _ in range(CLAIMS):
        now = seats.now_ms()
        oldest, ttl = tables.pool_bounds(settings, now)
        kind, table = store.claim_seat(
            pool, player, secrets.token_hex(8), options["players"], now, oldest, ttl, avoid
        )
        if kind == "new":
            try:
                games.lifecycle.create(
                    {**options, "start": tables.WHEN_FULL},
                    owner,
                    game_id=table,
                    pool=pool,
                )
            except Exception:
                store.drop_table(pool, table)
                raise
        try:
            return _join(games, table, name, player)
        except Conflict as error:
            if error.code not in ("game-full", "game-not-open"):
                raise
        except NotFound:
            pass
        store.drop_table(pool, table)  # started with bots, or gone: try the next one
    raise Conflict("match-busy", "No table could be found for this match now; try again.")


def _join(
    games: Games, table: str, name: str, player: PlayerRef
) -> tuple[GameDoc, int, str | None]:
    """Join ``table`` as ``player``, waiting for its game while its creator creates it;
    a clashing name gets a number, and a player seated there already gets its seat."""
    waited = 0.0
    label = name
    for attempt in range(2, 64):
        try:
            return games.lifecycle.join(table, label, player=player)
        except NotFound:
            if waited >= CREATE_WAIT_SECONDS:
                raise
            time.sleep(CREATE_WAIT_STEP)
            waited += CREATE_WAIT_STEP
        except Conflict as error:
            if error.code == "name-taken":
                label = f"{name[:27]} ({attempt})"
            elif error.code == "already-seated":
                doc = games.writes.load(table)
                seat = seat_of_player(doc, player)
                assert seat is not None
                return doc, seat, None
            else:
                raise
    raise Conflict("match-busy", "No table could be found for this match now; try again.")


def fill_with_bots(games: Games, doc: GameDoc, now: int) -> Outcome | None:
    """The worker's step for an open table whose ``bots_after`` passed: bots take the
    empty seats and the game starts (a table nobody sits at is cancelled); ``None``
    while it is not due yet."""
    due = seats.due_ms(doc, now)
    if doc["status"] != OPEN or due is None or due > now:
        return None
    if not doc["players"]:
        return Outcome({**doc, "status": CANCELLED, "to_act": []}, [{"type": "game_cancelled"}])
    players = list(doc["players"])
    events: list[dict[str, Any]] = []
    while len(players) < doc["seats"]:
        number, seat = 1, len(players)
        while names.taken_by(f"{BOT.capitalize()} bot {number}", players) is not None:
            number += 1
        label = f"{BOT.capitalize()} bot {number}"
        hidden = tokens.hash_token(tokens.new_token())
        players.append(seats.new_player(seat, label, hidden, BOT))
        events.append({"type": "player_joined", "seat": seat, "name": label, "bot": BOT})
    return started_outcome(games.engine, {**doc, "players": players}, events)


def leaves_pool(games: Games, doc: GameDoc) -> None:
    """After the worker started or cancelled a table: it leaves its pool."""
    games.store.drop_table(pool_of(doc), doc["id"])
