"""Tournaments in the CLI: ``boardgames tournament list|create|join|start|standings|play
GAME`` (``docs/api.md``, "Tournaments"). Creating, joining, starting and playing need
your player (``boardgames register NAME``); the list and the standings are public.
``play`` follows you from table to table (clients/cli/tournament_play.py).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from rich.table import Table
from rich.text import Text

from .client import GAMES, client_for
from .commands_kit import Command, UsageError, emit
from .i18n import _
from .play import add_screen_args
from .players import _need_player
from .tournament_play import cmd_play, standings_table

Json = dict[str, Any]


def add_parser(games: Any) -> None:
    """``tournament``, under the top-level subparsers ``games``."""
    top = games.add_parser(
        "tournament", help=_("tournaments: list, create, join, start, standings, play")
    )
    sub = top.add_subparsers(dest="action", required=True, metavar="ACTION")
    for action, text in (
        ("list", _("a game's tournaments, newest first")),
        ("create", _("create a tournament you host")),
        ("join", _("register for a tournament")),
        ("start", _("start a tournament you host now")),
        ("standings", _("a tournament's standings")),
        ("play", _("play your tables of a tournament, one after another")),
    ):
        p = sub.add_parser(action, help=text)
        p.add_argument("which", metavar="GAME", choices=GAMES, help=_("manhattan or windcity"))
        if action in ("join", "start", "standings", "play"):
            p.add_argument("tournament", metavar="ID", help=_("the tournament's id"))
        p.add_argument("--url", help=_("the service's base URL (default: $MANHATTAN_URL / ...)"))
        if action != "play":  # an interactive session: no JSON
            p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
        if action == "create":
            p.add_argument("--name", default="Tournament", metavar="NAME", help=_("its name"))
            p.add_argument("--format", choices=("swiss", "arena"), default="swiss")
            p.add_argument("--rounds", type=int, default=3, metavar="N", help=_("Swiss rounds (3)"))
            p.add_argument(
                "--minutes", type=int, default=30, metavar="M", help=_("an arena's minutes (30)")
            )
            p.add_argument("--table-size", type=int, metavar="N", help=_("players per table"))
            p.add_argument(
                "--round-minutes",
                type=int,
                metavar="M",
                help=_("Swiss: a round every M minutes from the start (default: each at once)"),
            )
            p.add_argument(
                "--starts-in",
                type=int,
                metavar="M",
                help=_("start in M minutes (default: when you start it)"),
            )
            p.add_argument("--max-players", type=int, metavar="N", help=_("at most N players"))
            p.add_argument(
                "--turn-seconds", type=int, default=60, metavar="S", help=_("seconds a move (60)")
            )
            p.add_argument(
                "--bots",
                default="",
                metavar="LEVELS",
                help=_("bot entries: levels, comma-separated"),
            )
        if action == "play":
            add_screen_args(p)
            p.add_argument(
                "--poll",
                type=float,
                default=2.0,
                metavar="S",
                help=_("while waiting, look again every S seconds (2)"),
            )
        if action == "standings":
            p.add_argument(
                "--limit", type=int, default=50, metavar="N", help=_("show N players (50)")
            )


def _call(args: argparse.Namespace, method: str, path: str, **kw: Any) -> Any:
    client = client_for(args.which, args.url)
    return client._request(method, path, **kw)


def cmd_list(args: argparse.Namespace) -> int:
    page = _call(args, "GET", "/tournaments", retry=True)
    table = Table(title=_("tournaments"), box=None)
    for head in (_("id"), _("name"), _("format"), _("status"), _("round")):
        table.add_column(head)
    for t in page.get("items") or []:
        table.add_row(t["id"], t["name"], t["format"], t["status"], str(t.get("round", "")))
    emit(args, page, table)
    return 0


def cmd_create(args: argparse.Namespace) -> int:
    player = _need_player()
    body: Json = {
        "name": args.name,
        "format": args.format,
        "rounds": args.rounds,
        "minutes": args.minutes,
        "clock": {"turn_seconds": args.turn_seconds},
        "bots": [b for b in args.bots.split(",") if b],
    }
    if args.table_size:
        body["table_size"] = args.table_size
    if args.round_minutes:
        body["round_minutes"] = args.round_minutes
    if args.max_players:
        body["max_players"] = args.max_players
    if args.starts_in is not None:
        body["starts_at"] = int((time.time() + 60 * args.starts_in) * 1000)
    doc = _call(args, "POST", "/tournaments", json_body=body, token=player["key"])
    emit(args, doc, Text(_("tournament {id} created", id=doc["id"])))
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    player = _need_player()
    path = f"/tournaments/{args.tournament}/players"
    doc = _call(args, "POST", path, token=player["key"])
    emit(args, doc, Text(_("registered for {name}", name=doc["name"])))
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    player = _need_player()
    doc = _call(args, "POST", f"/tournaments/{args.tournament}/start", token=player["key"])
    emit(args, doc, Text(_("{name} starts now", name=doc["name"])))
    return 0


def cmd_standings(args: argparse.Namespace) -> int:
    if not 1 <= args.limit <= 200:
        raise UsageError(_("--limit: 1 to 200"))
    path = f"/tournaments/{args.tournament}/standings"
    page = _call(args, "GET", path, params={"limit": args.limit}, retry=True)
    emit(args, page, standings_table(page))
    return 0


COMMANDS: dict[str, Command] = {
    "list": cmd_list,
    "create": cmd_create,
    "join": cmd_join,
    "start": cmd_start,
    "standings": cmd_standings,
    "play": cmd_play,
}
