"""Ratings: each player's skill in each game, from the final ranking of its rated games,
with openskill's Plackett-Luce model (any number of players, ties shared).

- A game is **rated** when every human seat is bound to a player
  (shared/games/players.py), unless its ``rated`` option is ``false``; a running rated
  game cannot be cancelled (shared/games/lifecycle.py), its players resign instead.
  Bots take part with the fixed ratings of :data:`BOTS`, which never change.
- The ranking is the result's ``standings``; a seat that resigned or was abandoned
  ranks last (tied with the others who did). openskill's numbers are kept, but for one
  rule (:func:`toward_result`): a first place never lowers the ordinal, a last place
  never raises it. Players see :func:`rating`, the ordinal on a scale from 1000.
- The numbers are computed once, by the write that ends the game (:func:`annotate`):
  the result and its ``game_finished`` event carry each seat's rating before and after.
  The players' stored ratings are updated after that write (:func:`settle_ratings`),
  once per player and game however often it runs (shared/store/ratings.py); the worker
  does it if the process died first (the game stays due until then).

May import the games layer's own modules and the store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from openskill.models import PlackettLuce

from shared.games import seats
from shared.games.base import FINISHED, Context, Outcome
from shared.games.document import GameDoc, PlayerEntry
from shared.games.erased import PLACEHOLDER
from shared.store.ratings import Ratings

Mutate = Callable[[str, Callable[[GameDoc], Outcome]], Any]

MODEL = PlackettLuce(limit_sigma=True)  # (a game never makes a player's sigma larger)
DEFAULT = (MODEL.mu, MODEL.sigma)
RATING_BASE = 1000
RATING_SCALE = 40
"""The rating players see: ``RATING_BASE + RATING_SCALE * ordinal``, rounded, never
below 0 (a new player: 1000)."""
BOTS: dict[str, tuple[float, float]] = {
    "random": (15.0, 1.0),
    "greedy": (21.0, 1.0),
    "medium": (23.0, 1.0),
    "strong": (24.0, 1.0),
}
"""The published, fixed ratings (mu, sigma) of the server's bots by level, one for both
games: the search levels' leads over ``greedy`` follow their measured win shares
against it (docs/bots.md, bench/arena.py; how, in docs/api.md "Ratings")."""


def ordinal(mu: float, sigma: float) -> float:
    """The value ranked by: mu - 3 sigma (a conservative estimate of the skill)."""
    return mu - 3 * sigma


def rating(value: float) -> int:
    """The rating players see, from an ordinal (see :data:`RATING_BASE`)."""
    return max(0, round(RATING_BASE + RATING_SCALE * value))


def shown(mu: float, sigma: float) -> dict[str, Any]:
    """A rating as answers carry it (full precision: the stored numbers are these)."""
    value = ordinal(mu, sigma)
    return {"mu": mu, "sigma": sigma, "ordinal": value, "rating": rating(value)}


def toward_result(
    before: tuple[float, float], after: tuple[float, float], rank: int, last: int
) -> tuple[float, float]:
    """``after`` with mu moved so the ordinal never goes against the result: never down
    for a seat ranked first, never up for one ranked last (``last``: the last rank;
    when every seat shares one, openskill's own). Sigma shrinks with every game, so
    openskill alone may raise the ordinal of a seat that lost (tied last with a weaker
    one, say)."""
    mu, sigma = after
    level = ordinal(*before) + 3 * sigma
    if last == 1:
        return after
    if rank == 1:
        return max(mu, level), sigma
    if rank == last:
        return min(mu, level), sigma
    return after


def is_rated(doc: GameDoc) -> bool:
    """Whether the game counts: only when every human seat is bound to a player (a seat
    without one could be anybody, and resign at once), and its ``rated`` option is not
    ``false``."""
    if doc.get("rated") is False:
        return False
    humans = [p for p in doc["players"] if not _bot_from_start(p)]
    return bool(humans) and all("player" in p for p in humans)


def _bot_from_start(player: PlayerEntry) -> bool:
    return bool(player.get("status") == seats.BOT)


def ranks(doc: GameDoc) -> dict[int, int] | None:
    """Each seat's rank for rating: the standings', with resigned and abandoned seats
    last; ``None`` for a result without standings (not rated)."""
    result = doc["result"] or {}
    rows = result.get("standings")
    if not isinstance(rows, list):
        return None
    gone = {
        p["seat"] for p in doc["players"] if p.get("status") in (seats.RESIGNED, seats.ABANDONED)
    }
    kept = [r for r in rows if r["seat"] not in gone]
    out = {r["seat"]: 1 + sum(1 for o in kept if o["rank"] < r["rank"]) for r in kept}
    out.update({seat: len(kept) + 1 for seat in gone})
    return out


def compute(
    doc: GameDoc, current: dict[str, tuple[float, float, int] | None]
) -> list[dict[str, Any]] | None:
    """Each seat's rating before and after the game (``current``: the players' stored
    ratings), in seat order; ``None`` when the result has no ranking."""
    order = ranks(doc)
    if order is None:
        return None
    seated = sorted(doc["players"], key=lambda p: p["seat"])
    befores: list[tuple[float, float]] = []
    for player in seated:
        if _bot_from_start(player):
            befores.append(BOTS.get(str(player.get("bot")), DEFAULT))
        else:
            stored = current.get(player.get("player", ""))
            befores.append(DEFAULT if stored is None else (stored[0], stored[1]))
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in befores]
    rated = MODEL.rate(teams, ranks=[float(order[p["seat"]]) for p in seated])
    firsts = sum(1 for p in seated if order[p["seat"]] == 1)
    last = max(order.values(), default=1)
    entries = []
    for player, before, team in zip(seated, befores, rated, strict=True):
        bot = _bot_from_start(player)
        rank = order[player["seat"]]
        moved = (team[0].mu, team[0].sigma)
        after = before if bot else toward_result(before, moved, rank, last)
        entry: dict[str, Any] = {
            "seat": player["seat"],
            "player": None if bot else player.get("player"),
            "bot": player.get("bot") if bot else None,
            "rank": order[player["seat"]],
            "before": shown(*before),
            "after": shown(*after),
        }
        entry["won"] = 1 / firsts if order[player["seat"]] == 1 else 0.0
        entries.append(entry)
    return entries


def annotate(ctx: Context, old: GameDoc, new: GameDoc, events: list[dict[str, Any]]) -> None:
    """The write that ends a rated game: its result (and ``game_finished`` event) gets
    each seat's rating before and after, and the game is marked for
    :func:`settle_ratings`. One more read at a game's end only (the players' ratings)."""
    if new["status"] != FINISHED or old["status"] == FINISHED or not is_rated(new):
        return
    players = [p["player"] for p in new["players"] if "player" in p]
    entries = compute(new, ctx.ratings.current(players) if players else {})
    if entries is None:
        return
    new["result"] = {**(new["result"] or {}), "ratings": entries}
    for event in events:
        if event.get("type") == "game_finished":
            event["result"] = new["result"]
    new["ratings_pending"] = True


def settle_ratings(ctx: Context, mutate: Mutate, doc: GameDoc) -> None:
    """Count the ended game ``doc`` in its players' stored ratings and leaderboards, then
    clear its mark; safe to run again (each player counts a game once)."""
    if not doc.get("ratings_pending"):
        return
    entries = [e for e in (doc["result"] or {}).get("ratings", []) if e.get("player")]
    settings = ctx.settings
    max_age = int(settings["GAME_TTL_FINISHED"]) + int(settings["GAME_TTL_IDLE"])
    updates = [
        {"player": e["player"], "before": e["before"], "after": e["after"], "won": e["won"]}
        for e in entries
    ]
    ratings = ctx.ratings
    applied = ratings.apply(doc["id"], updates, max_age) if updates else []
    least = int(settings["LEADERBOARD_MIN_GAMES"])
    boards: dict[str, dict[str, float | None]] = {}
    tenants = ratings.tenants([u["player"] for u in updates])
    for update, now, tenant in zip(updates, applied, tenants, strict=True):
        if now is not None and tenant is not None:
            mu, sigma, n = now
            boards.setdefault(tenant, {})[update["player"]] = (
                ordinal(mu, sigma) if n >= least else None
            )
    for tenant, board in boards.items():
        ratings.rank(tenant, board)

    def clear(current: GameDoc) -> Outcome:
        new: GameDoc = {**current}
        new.pop("ratings_pending", None)
        return Outcome(new, [])

    mutate(doc["id"], clear)


def rating_of(fields: dict[str, str], game: str, least: int) -> dict[str, Any]:
    """A player's rating in ``game`` from its registry fields (never rated: the default);
    ``least``: the rated games a leaderboard needs (``games_to_rank``: how many more)."""
    mu = float(fields.get(f"{game}:mu", DEFAULT[0]))
    sigma = float(fields.get(f"{game}:sigma", DEFAULT[1]))
    played = int(fields.get(f"{game}:n", 0))
    won = float(fields.get(f"{game}:won", 0))
    return {
        **shown(mu, sigma),
        "games": played,
        "games_to_rank": max(0, least - played),
        "win_share": round(won / played, 4) if played else 0.0,
    }


def profile(player_id: str, fields: dict[str, str], least: int) -> dict[str, Any]:
    """A player's public profile: its name and its rating in each game it was rated in."""
    played = sorted(name.removesuffix(":mu") for name in fields if name.endswith(":mu"))
    return {
        "id": player_id,
        "name": fields["name"],
        "ratings": {game: rating_of(fields, game, least) for game in played},
    }


def leaderboard_entries(
    board: Ratings, rows: list[tuple[str, float]], offset: int
) -> list[dict[str, Any]]:
    """A leaderboard page's entries from its rows (player id, display value)."""
    details = board.details([pid for pid, _ in rows])
    entries = []
    for place, ((player_id, value), found) in enumerate(zip(rows, details, strict=True)):
        name, mu, sigma, played, won = found
        fields = {"name": name or PLACEHOLDER}
        for key, item in (("mu", mu), ("sigma", sigma), ("n", played), ("won", won)):
            if item is not None:
                fields[f"{board.game}:{key}"] = item
        stored = rating_of(fields, board.game, 0)
        entries.append(
            {
                "rank": offset + place + 1,
                "player": {"id": player_id, "name": fields["name"]},
                "rating": rating(value),
                "ordinal": value,
                **{k: stored[k] for k in ("mu", "sigma", "games", "win_share")},
            }
        )
    return entries
