"""Ratings in the CLI: ``boardgames leaderboard GAME`` and your rating per game (the
header lines of ``boardgames games``).

A rating is shown as the answers' ``rating`` (1000 + 40 × (mu - 3 sigma), rounded:
everyone starts at 1000; ``docs/api.md``, "Ratings and leaderboards"), explained in
words: what moves it, which games count, how many rated games a player needs to show on
the leaderboard (the page's ``min_games``) and how many more a player needs (its
``games_to_rank``). Each service serves the leaderboard of its own game (``GET
/leaderboards/{game}``, paged with ``next_cursor``); a player's ratings are public
(``GET /players/{id}``).
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Group, JustifyMethod
from rich.table import Table
from rich.text import Text

from . import words
from .client import GAMES, GameClient, client_for
from .commands_kit import Command, UsageError, emit
from .errors import ApiError, TransportError
from .i18n import N_, _, ngettext
from .style import rating_value, win_share
from .tokens_store import TokenStore

Json = dict[str, Any]
PAGE_MAX = 100
"""The service's largest page: ``--limit`` above it is read in several pages."""
BOARD_COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    (N_("rank"), "right"),
    (N_("name"), "left"),
    (N_("rating"), "right"),
    (N_("games"), "right"),
    (N_("win share"), "right"),
)
"""The leaderboard's columns: heading (msgid) and alignment."""
ABOUT = N_(
    "rating: everyone starts at 1000; finishing ahead of the others at the table raises"
    " it, finishing behind them lowers it. Rated: games where every person plays as a"
    " registered player (bots may take the other seats) and that were not created"
    " unrated; a cancelled game never counts."
)
"""What a rating is and which games count, under the leaderboard."""


def add_parser(games: Any) -> None:
    """``leaderboard``, under the top-level subparsers ``games``."""
    p = games.add_parser("leaderboard", help=_("a game's players by rating, best first"))
    p.add_argument("which", metavar="GAME", choices=GAMES, help=_("manhattan or windcity"))
    p.add_argument("--limit", type=int, default=20, metavar="N", help=_("show N players (20)"))
    p.add_argument("--cursor", help=_("go on from where a page ended (its next_cursor)"))
    p.add_argument("--url", help=_("the service's base URL (default: $MANHATTAN_URL / ...)"))
    p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))


def read_board(client: GameClient, limit: int, cursor: str | None) -> Json:
    """At most ``limit`` entries from ``cursor`` on, following ``next_cursor``; the page
    answered last's ``next_cursor`` goes on from there."""
    entries: list[Json] = []
    while True:
        page = client.leaderboard(min(limit - len(entries), PAGE_MAX), cursor)
        entries += page.get("entries") or []
        cursor = page.get("next_cursor")
        if not cursor or len(entries) >= limit or not page.get("entries"):
            game = page.get("game", client.game)
            least = page.get("min_games")
            return {"game": game, "min_games": least, "entries": entries, "next_cursor": cursor}


def cmd_leaderboard(args: argparse.Namespace) -> int:
    """``GET /leaderboards/{game}``: rank, name, rating, games, win share; what a rating
    is and how many rated games a player needs to show."""
    if not 1 <= args.limit <= 10_000:
        raise UsageError(_("--limit: 1 to 10000"))
    client = client_for(args.which, args.url)
    board = read_board(client, args.limit, args.cursor)
    player = TokenStore().player() or {}
    rule = _min_games(board.get("min_games"))
    if not board["entries"]:
        nobody = _("nobody on the {game} leaderboard yet", game=words.game(args.which))
        emit(args, board, Text(f"{nobody}: {rule}" if rule else nobody))
        return 0
    parts: list[Any] = [leaderboard_table(board, player.get("id"))]
    if board["next_cursor"]:
        command = f"boardgames leaderboard {args.which} --cursor {board['next_cursor']}"
        parts.append(Text(_("more: {command}", command=command), style="dim"))
    parts += [Text(line, style="dim") for line in (rule, _(ABOUT)) if line]
    emit(args, board, Group(*parts))
    return 0


def _min_games(least: Any) -> str:
    """The rule, "a player shows here after N rated games" (empty: the service did not
    say)."""
    if not isinstance(least, int):
        return ""
    return ngettext(
        "a player shows here after {n} rated game",
        "a player shows here after {n} rated games",
        least,
    )


def leaderboard_table(board: Json, me: str | None = None) -> Table:
    """The entries as a table (your own row in bold, marked ``(you)``)."""
    title = _("{game} leaderboard", game=words.game(board.get("game", "")))
    table = Table(title=title, box=None)
    for head, justify in BOARD_COLUMNS:
        table.add_column(_(head), justify=justify)
    for entry in board.get("entries") or []:
        who = entry.get("player") or {}
        mine = me is not None and who.get("id") == me
        table.add_row(
            str(entry.get("rank", "")),
            who.get("name", "") + (_(" (you)") if mine else ""),
            rating_value(entry.get("rating", 0)),
            str(entry.get("games", "")),
            win_share(entry.get("win_share")),
            style="bold" if mine else None,
        )
    return table


def my_ratings(player: Json, urls: dict[str, str | None]) -> dict[str, Json | None]:
    """Your rating in the game of each service in ``urls`` (game -> its URL, ``None``:
    the default), from ``GET /players/{id}`` there (``None``: not rated yet). A service
    that does not answer is left out."""
    out: dict[str, Json | None] = {}
    for game, url in urls.items():
        client = client_for(game, url)
        try:
            player_id = player.get("id") or client.me(player["key"])["id"]
            out[game] = (client.player(player_id).get("ratings") or {}).get(game)
        except (ApiError, TransportError):
            continue
    return out


def rating_line(game: str, rating: Json | None) -> Text:
    """``Manhattan: rating 1136, 4 rated games, win share 75%`` (and how many more it
    needs for the leaderboard, when it needs any)."""
    line = Text(f"{words.game(game)}: ", style="bold")
    if not rating or not rating.get("games"):
        return line.append(_("not rated yet (everyone starts at 1000)"), style="dim")
    line.append(_("rating {rating}", rating=rating_value(rating.get("rating", 0))), style="bold")
    played = int(rating.get("games") or 0)
    line.append(
        ngettext(
            ", {n} rated game, win share {share}",
            ", {n} rated games, win share {share}",
            played,
            share=win_share(rating.get("win_share")),
        )
    )
    left = int(rating.get("games_to_rank") or 0)
    if left:
        line.append(
            ngettext(
                " ({n} more rated game for the leaderboard)",
                " ({n} more rated games for the leaderboard)",
                left,
            ),
            style="dim",
        )
    return line


COMMANDS: dict[str, Command] = {"leaderboard": cmd_leaderboard}
