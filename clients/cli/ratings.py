"""Ratings in the CLI: ``boardgames leaderboard GAME`` and your rating per game (the
header lines of ``boardgames games``).

A rating is shown as its display value, the ``ordinal`` (mu - 3 sigma, one decimal),
with ``mu ± sigma`` beside it (``docs/api.md``, "Players"). Each service serves the
leaderboard of its own game (``GET /leaderboards/{game}``, paged with ``next_cursor``);
a player's ratings are public (``GET /players/{id}``).
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
    (N_("mu ± sigma"), "right"),
    (N_("games"), "right"),
    (N_("win share"), "right"),
)
"""The leaderboard's columns: heading (msgid) and alignment."""


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
            return {"game": game, "entries": entries, "next_cursor": cursor}


def cmd_leaderboard(args: argparse.Namespace) -> int:
    """``GET /leaderboards/{game}``: rank, name, rating, mu ± sigma, games, win share."""
    if not 1 <= args.limit <= 10_000:
        raise UsageError(_("--limit: 1 to 10000"))
    client = client_for(args.which, args.url)
    board = read_board(client, args.limit, args.cursor)
    player = TokenStore().player() or {}
    if not board["entries"]:
        emit(args, board, Text(_("nobody on the {game} leaderboard yet", game=args.which)))
        return 0
    shown: Any = leaderboard_table(board, player.get("id"))
    if board["next_cursor"]:
        command = f"boardgames leaderboard {args.which} --cursor {board['next_cursor']}"
        more = _("more: {command}", command=command)
        shown = Group(shown, Text(more, style="dim"))
    emit(args, board, shown)
    return 0


def leaderboard_table(board: Json, me: str | None = None) -> Table:
    """The entries as a table (your own row in bold, marked ``(you)``)."""
    table = Table(title=_("{game} leaderboard", game=board.get("game", "")), box=None)
    for head, justify in BOARD_COLUMNS:
        table.add_column(_(head), justify=justify)
    for entry in board.get("entries") or []:
        who = entry.get("player") or {}
        mine = me is not None and who.get("id") == me
        table.add_row(
            str(entry.get("rank", "")),
            who.get("name", "") + (_(" (you)") if mine else ""),
            rating_value(entry.get("ordinal", 0)),
            f"{float(entry.get('mu', 0)):.1f} ± {float(entry.get('sigma', 0)):.1f}",
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
    """``manhattan: rating 3.4 (27.1 ± 7.9), 4 rated games, 75% won``."""
    line = Text(f"{words.game(game)}: ", style="bold")
    if not rating or not rating.get("games"):
        return line.append(_("not rated yet"), style="dim")
    line.append(_("rating {rating}", rating=rating_value(rating.get("ordinal", 0))), style="bold")
    played = int(rating.get("games") or 0)
    spread = f"{float(rating.get('mu', 0)):.1f} ± {float(rating.get('sigma', 0)):.1f}"
    line.append(
        ngettext(
            " ({spread}), {n} rated game, win share {share}",
            " ({spread}), {n} rated games, win share {share}",
            played,
            spread=spread,
            share=win_share(rating.get("win_share")),
        )
    )
    return line


COMMANDS: dict[str, Command] = {"leaderboard": cmd_leaderboard}
