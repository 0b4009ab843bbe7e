"""Your player: ``boardgames register|login|whoami|logout`` and ``boardgames games``.

A player is one identity across games (``docs/api.md``, "Players, my games and private
tables"). Its key (``bgp_...``, shown once) is kept in the token file beside the seat
and host tokens (:mod:`clients.cli.tokens_store`, mode 0600). ``games`` asks each
service for the games the player sits in there and lists them together: the games where
it is your turn first, then the newest activity; above them, the player's rating in each
game (:mod:`clients.cli.ratings`).
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import Any

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text

from . import ratings, words
from .client import GAMES, client_for, default_url
from .commands_kit import Command, UsageError, console, emit
from .errors import ApiError, TransportError, describe_problem
from .i18n import N_, _
from .style import winners_of
from .tokens_store import TokenStore

Json = dict[str, Any]
STATUSES = ["open", "running", "finished", "cancelled"]
PAGE_SIZE = 100
MAX_PAGES = 10
"""At most this many pages of ``PAGE_SIZE`` games are read from each service."""
GAMES_COLUMNS = (
    N_("game"),
    N_("id"),
    N_("status"),
    N_("seat"),
    N_("turn"),
    N_("others"),
    N_("result"),
    N_("updated"),
)


def add_parser(games: Any) -> None:
    """The player commands, under the top-level subparsers ``games``."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help=_("print JSON for scripts"))

    p = games.add_parser(
        "register", parents=[common], help=_("create your player (one key for your games)")
    )
    p.add_argument("name", metavar="NAME", help=_("your name, 1-32 characters"))
    _service_args(p)
    p.add_argument("--force", action="store_true", help=_("replace the player you have"))

    p = games.add_parser("login", parents=[common], help=_("keep a player key you already have"))
    p.add_argument("key", metavar="KEY", help=_("the player key (bgp_...)"))
    _service_args(p)
    p.add_argument("--force", action="store_true", help=_("replace the player you have"))

    p = games.add_parser("whoami", parents=[common], help=_("your player"))
    p.add_argument("--url", help=_("ask this service (default: where you registered)"))
    games.add_parser("logout", parents=[common], help=_("forget your player key"))

    p = games.add_parser("games", parents=[common], help=_("your games in both services"))
    p.add_argument("--status", choices=STATUSES)
    p.add_argument("--mine", action="store_true", help=_("only the games where it is your turn"))
    p.add_argument("--limit", type=int, metavar="N", help=_("show at most N"))
    p.add_argument("--manhattan-url")
    p.add_argument("--windcity-url")


def _service_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--service", choices=GAMES, default=GAMES[0], help=_("the service to ask (one registry)")
    )
    p.add_argument("--url", help=_("its base URL (default: $MANHATTAN_URL / $WINDCITY_URL)"))


def _need_player() -> Json:
    player = TokenStore().player()
    if not player:
        raise UsageError(_("no player yet: boardgames register NAME"))
    return player


def _keep(args: argparse.Namespace, profile: Json, key: str, url: str) -> str:
    """Store the player (refusing to replace another without ``--force``); the line to say."""
    store = TokenStore()
    old = store.player()
    if old and old.get("id") != profile.get("id") and not args.force:
        raise UsageError(
            _(
                "you are already {name} ({id}); --force replaces that player here "
                "(its key is lost unless you kept it)",
                name=old.get("name"),
                id=old.get("id"),
            )
        )
    keep = ("id", "name", "external_id", "created_at")
    store.set_player({**{k: profile.get(k) for k in keep}, "key": key, "url": url})
    return _(
        "{name} ({id}); key kept in {path}",
        name=profile.get("name"),
        id=profile.get("id"),
        path=store.path,
    )


def cmd_register(args: argparse.Namespace) -> int:
    """``POST /players``: a new player; its key goes to the token file."""
    old = TokenStore().player()
    if old and not args.force:
        raise UsageError(
            _(
                "you are already {name} ({id}); pass --force for a new player "
                "(the old key is lost unless you kept it)",
                name=old.get("name"),
                id=old.get("id"),
            )
        )
    client = client_for(args.service, args.url)
    created = client.create_player(args.name)
    if not created.get("key"):
        raise UsageError(_("the service answered no key (an API key's existing player)"))
    line = _keep(args, created, created["key"], client.base_url)
    emit(args, created, Text(_("registered {player}", player=line)))
    return 0


def cmd_login(args: argparse.Namespace) -> int:
    """Check a player key with ``GET /players/me`` and keep it."""
    client = client_for(args.service, args.url)
    profile = client.me(args.key)
    line = _keep(args, profile, args.key, client.base_url)
    emit(args, profile, Text(_("logged in as {player}", player=line)))
    return 0


def cmd_whoami(args: argparse.Namespace) -> int:
    """``GET /players/me`` with the stored key."""
    player = _need_player()
    url = args.url or player.get("url") or default_url(GAMES[0])
    profile = client_for(GAMES[0], url).me(player["key"])
    text = Text(f"{profile.get('name')} ", style="bold")
    since = _(
        "(player {id}, since {since}) at {url}",
        id=profile.get("id"),
        since=words.when(profile.get("created_at"), date_only=True),
        url=url,
    )
    text.append(since)
    emit(args, profile, text)
    return 0


def cmd_logout(args: argparse.Namespace) -> int:
    """Forget the stored player (its seats' tokens stay)."""
    had = TokenStore().forget_player()
    said = _("player key forgotten") if had else _("no player stored")
    emit(args, {"forgotten": had}, Text(said))
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    """Your games in both services: your turn first, then the newest activity."""
    key = _need_player()["key"]
    found: list[Json] = []
    errors: list[Json] = []
    failures: list[Exception] = []
    truncated: list[str] = []
    for game in GAMES:
        client = client_for(game, getattr(args, f"{game}_url"))
        try:
            mine = list(client.iter_my_games(key, args.status, args.mine, PAGE_SIZE, MAX_PAGES))
        except (ApiError, TransportError) as exc:
            detail = describe_problem(exc) if isinstance(exc, ApiError) else str(exc)
            errors.append({"game": game, "url": client.base_url, "detail": detail})
            failures.append(exc)
            continue
        if len(mine) >= PAGE_SIZE * MAX_PAGES:
            truncated.append(game)
        for entry in mine:
            entry.setdefault("game", game)
            entry["url"] = client.base_url
        found += mine
    if len(failures) == len(GAMES):
        raise failures[0]  # neither service answered: the first one's error, exit 1
    ordered = sort_games(found)[: args.limit] if args.limit else sort_games(found)
    for err in errors if not args.json else []:  # one service failed: say so, list the other
        print(_("warning: {game} ({url}): {detail}", **err), file=sys.stderr)
    answered = [game for game in GAMES if game not in {e["game"] for e in errors}]
    urls = {game: getattr(args, f"{game}_url") for game in answered}
    rated = ratings.my_ratings(_need_player(), urls)
    out = {"games": ordered, "errors": errors, "truncated": truncated, "ratings": rated}
    lines = [ratings.rating_line(game, rating) for game, rating in rated.items()]
    emit(args, out, Group(*lines, games_table(ordered) if ordered else Text(_("no games"))))
    if truncated and not args.json:
        newest = _(
            "(only the newest {n} of {games})", n=PAGE_SIZE * MAX_PAGES, games=", ".join(truncated)
        )
        console().print(newest)
    return 0


def sort_games(games: list[Json]) -> list[Json]:
    """Your turn first (the nearest deadline first), then the newest activity."""
    newest = sorted(games, key=lambda g: _when(g.get("updated_at")), reverse=True)
    far = datetime.max.replace(tzinfo=UTC)
    return sorted(newest, key=lambda g: (not g.get("my_turn"), _when(g.get("deadline"), far)))


def _when(stamp: Any, default: datetime | None = None) -> datetime:
    """An RFC 3339 time (``default``, else the earliest time, when absent or unreadable)."""
    fallback = default or datetime.min.replace(tzinfo=UTC)
    try:
        when = datetime.fromisoformat(str(stamp))
    except ValueError:
        return fallback
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def games_table(games: list[Json], now: datetime | None = None) -> Table:
    """The games as a table, in the style of ``list``."""
    now = now or datetime.now(UTC)
    table = Table(box=None, padding=(0, 1, 0, 0))
    for col in GAMES_COLUMNS:  # an id is never cut; the others, result and turn wrap
        wraps = col in (N_("turn"), N_("others"), N_("result"))
        least = cell_len(_("yours")) if col == N_("turn") else None  # the marker whole
        table.add_column(_(col), no_wrap=not wraps, overflow="fold", min_width=least)
    for g in games:
        table.add_row(
            words.game(g.get("game", "")),
            g.get("id", ""),
            words.status(g.get("status")),
            str(g.get("seat", "")),
            turn_cell(g, now),
            ", ".join(_other(p) for p in g.get("players") or []),
            result_cell(g),
            words.when(g.get("updated_at"), short=True),
        )
    return table


def turn_cell(g: Json, now: datetime) -> Text:
    """``yours`` (with the time left when there is a clock), ``others``, or nothing."""
    if g.get("my_turn"):
        text = Text(_("yours"), style="bold green")
        if g.get("deadline"):
            left = (_when(g["deadline"]) - now).total_seconds()
            due = _(", due in {span}", span=_span(left)) if left > 0 else _(", overdue")
            text.append(due, style="green")
        return text
    if g.get("status") == "running":
        return Text(_("others"))
    if g.get("status") == "open":
        return Text(_("not started"))
    return Text("")


def _span(seconds: float) -> str:
    s = int(seconds)
    if s >= 86400:
        return _("{d}d{h}h", d=s // 86400, h=s % 86400 // 3600)
    if s >= 3600:
        return _("{h}h{m:02d}m", h=s // 3600, m=s % 3600 // 60)
    if s >= 60:
        return _("{m}m{s:02d}s", m=s // 60, s=s % 60)
    return _("{s}s", s=s)


def _other(p: Json) -> str:
    name = str(p.get("name", p.get("seat", "")))
    return _("{name} (bot)", name=name) if p.get("bot") else name


def result_cell(g: Json) -> str:
    """Your outcome once the game is over: ``won``, ``won (shared)``, ``rank R of N``."""
    result = g.get("result")
    if not isinstance(result, dict):
        return ""
    seat = g.get("seat")
    winners = winners_of(result)
    standings = result.get("standings") or []
    if any(r.get("seat") == seat and r.get("resigned") for r in standings):
        return _("resigned")
    if seat in winners:
        return _("won") if len(winners) == 1 else _("won (shared)")
    rank = next((r.get("rank") for r in standings if r.get("seat") == seat), None)
    if rank is None:
        return _("over")
    return _("rank {rank} of {n}", rank=rank, n=len(standings))


COMMANDS: dict[str, Command] = {
    "register": cmd_register,
    "login": cmd_login,
    "whoami": cmd_whoami,
    "logout": cmd_logout,
    "games": cmd_games,
}
