"""``boardgames``: the command line for the Manhattan and Wind City services.

boardgames manhattan new|list|join|quick|rematch|start|cancel|show|moves|move|score|log|events ...
boardgames manhattan verify|resign|leave|play|watch|bot|hint|analysis ... (each: --help)
boardgames windcity  (the same)
boardgames play|watch|bot GAME ...      (also: boardgames GAME play|watch|bot ...)
boardgames register NAME | login KEY | whoami | logout   (your player)
boardgames games                        (your games in both services, your ratings)
boardgames player PLAYER_ID             (a player's public profile and ratings)
boardgames export [--output FILE]       (everything both services store about you)
boardgames delete-player --yes          (erase your player everywhere)
boardgames leaderboard GAME             (players by rating)
boardgames tournament list|create|join|start|standings|play GAME ...   (tournaments)
boardgames notify [--events ...] [--quiet HH:MM-HH:MM] ...   (your push notifications)
boardgames watch --all                  (the bell when it is your turn, in any game)
boardgames demo
boardgames admin keys add|list|revoke   (the services' API keys file)
boardgames admin reports|message|suspend|unsuspend|audit   (moderation, over HTTP)

Any command takes ``--lang en|ja|de`` (default: $LC_ALL, $LC_MESSAGES or $LANG); ``--json``
output is always the same (English).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any, NoReturn

from rich.cells import cell_len

from . import admin, chat, i18n, notify, player_data, players, ratings, tournaments, webhook, words
from .bots import LOCAL_LEVELS, SERVER_LEVELS
from .client import GAMES, GameClient
from .commands import run
from .i18n import N_, _
from .play import add_screen_args

GAME_FIRST = ("play", "watch", "bot")
LEVELS = LOCAL_LEVELS + SERVER_LEVELS
"""Every bot level, weakest first: the services seat them all (docs/bots.md)."""


class CellWidthFormatter(argparse.HelpFormatter):
    """argparse's help with lines measured in terminal cells (a wide character, as in
    Japanese, takes two) and broken between wide characters too."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        wide = "\u3000-\u30ff\u3400-\u9fff\uff00-\uffef"
        lines: list[str] = []
        line = ""
        for space, token in re.findall(rf"(\s*)([^\s{wide}]+|\S)", text):
            glue = " " if space and line else ""
            if line and cell_len(line + glue + token) > width:
                lines.append(line)
                line, glue = "", ""
            line += glue + token
        return [*lines, line] if line else lines


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error (``error: ... (see PROG --help)``), exit code 2,
    and help that fits the terminal in every language (:class:`CellWidthFormatter`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", CellWidthFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        if "--json" in sys.argv[1:]:
            self.exit(2, json.dumps({"error": "usage", "detail": message}) + "\n")
        self.exit(
            2, _("error: {message} (see {prog} --help)", message=message, prog=self.prog) + "\n"
        )


def levels_help(levels: tuple[str, ...]) -> str:
    """What each bot level in ``levels`` is, in words."""
    said = {
        "random": _("random: any legal move"),
        "greedy": _("greedy: the move that scores best now"),
        "medium": _("medium: looks a little ahead (0.1 s a move)"),
        "strong": _("strong: looks furthest ahead (0.25 s a move), the best"),
    }
    return _(
        "the bots' level (default greedy): {levels}", levels=_("; ").join(said[k] for k in levels)
    )


def _game_id_arg(p: argparse.ArgumentParser) -> None:
    """The game id as a positional argument (``-g``/``--game-id`` works too)."""
    p.add_argument("game_id_pos", nargs="?", metavar="GAME_ID", help=_("game id (or -g)"))


def build_parser() -> argparse.ArgumentParser:
    """The argparse tree: one subparser per game, each with the game's subcommands."""
    common = Parser(add_help=False)
    common.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    common.add_argument(
        "--url", help=_("service base URL (default: $MANHATTAN_URL / $WINDCITY_URL)")
    )
    common.add_argument("-g", "--game-id", help=_("game id (default: the last one you used)"))
    common.add_argument("--seat", type=int, help=_("which of your seats to act for"))
    common.add_argument(
        "--token", help=_("a bearer token (seat or host) instead of the stored one")
    )
    common.add_argument(
        "--no-player",
        action="store_true",
        help=_("do not use your player key (boardgames register)"),
    )

    parser = Parser(
        prog="boardgames",
        description=_("Play Manhattan and Wind City through their HTTP services."),
    )
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=_(
            "language of the output: en, ja or de, anywhere on the command line "
            "(default: $LC_ALL, $LC_MESSAGES or $LANG; JSON output is the same in every language)"
        ),
    )
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME|COMMAND")
    for game in GAMES:
        gp = games.add_parser(game, help=_("{game} commands", game=words.game(game)))
        sub = gp.add_subparsers(dest="command", required=True, metavar="COMMAND")

        p = sub.add_parser("new", parents=[common], help=_("create a game (keeps the host token)"))
        p.add_argument("--players", type=int, metavar="N", help=_("number of seats (default 4)"))
        p.add_argument("--seed", type=int, metavar="S", help=_("a chosen shuffle (see verify)"))
        p.add_argument("--join", metavar="NAME", help=_("also take a seat under NAME"))
        p.add_argument("--option", action="append", metavar="KEY=VALUE", help=_("any option"))
        p.add_argument(
            "--bots",
            type=int,
            default=0,
            metavar="N",
            help=_("seat N server bots, join yourself and start: play alone against the server"),
        )
        p.add_argument("--strategy", choices=LEVELS, default="greedy", help=levels_help(LEVELS))
        # the flag's name before it was --strategy as in play and bot (kept, not shown)
        p.add_argument(
            "--bot", choices=LEVELS, dest="strategy", default=argparse.SUPPRESS,
            help=argparse.SUPPRESS,
        )  # fmt: skip
        p.add_argument("--clock", type=int, metavar="SECONDS", help=_("turn clock per move"))
        p.add_argument(
            "--private", action="store_true", help=_("unlisted: joining needs the invite printed")
        )
        p.add_argument(
            "--when-full",
            action="store_true",
            help=_("start by itself when the last seat is taken"),
        )
        if game == "manhattan":
            p.add_argument(
                "--six-rounds", action="store_true", help=_("six rounds instead of four")
            )
            p.add_argument(
                "--promo-cards", action="store_true", help=_("play with the promotion cards")
            )
        else:
            p.add_argument(
                "--play-area",
                choices=["used_sections", "full"],
                help=_("the board: only the land sections in use, or the full board"),
            )
            p.add_argument(
                "--max-turns", type=int, metavar="N", help=_("end the game after N turns")
            )
            p.add_argument(
                "--no-score-money", action="store_true", help=_("money counts no points at the end")
            )

        p = sub.add_parser("list", parents=[common], help=_("list games"))
        p.add_argument("--status", choices=["open", "running", "finished"])
        p.add_argument("--limit", type=int)

        p = sub.add_parser("join", parents=[common], help=_("take a seat (keeps its token)"))
        p.add_argument("--name", help=_("your name at the table (default: your player's)"))
        p.add_argument("--invite", metavar="CODE", help=_("a private game's invite code"))
        p.add_argument(
            "game_id_pos",
            nargs="?",
            metavar="GAME_ID|LINK",
            help=_("game id or invite link (or -g)"),
        )

        p = sub.add_parser(
            "quick", parents=[common], help=_("quick match: a seat at an open public table")
        )
        p.add_argument("--players", type=int, metavar="N", help=_("number of seats"))
        p.add_argument("--clock", type=int, metavar="SECONDS", help=_("turn clock per move"))
        p.add_argument(
            "--bots-after",
            type=int,
            metavar="SECONDS",
            help=_("server bots fill it after that long"),
        )
        p.add_argument("--option", action="append", metavar="KEY=VALUE", help=_("any game option"))

        for name, text in (
            ("start", N_("start the game (host)")),
            ("rematch", N_("play again: the next game with the same table, your seat in it")),
            ("cancel", N_("cancel the game (host)")),
            ("resign", N_("resign: a bot plays your seat")),
            ("leave", N_("leave a game that has not started")),
            ("moves", N_("your legal moves")),
            ("score", N_("scores so far")),
            ("hint", N_("the move the bot would play for your seat (uses a hint)")),
            ("analysis", N_("a finished game's analysis: chances and biggest drops")),
            ("log", N_("every event (and the moves once over)")),
        ):
            _game_id_arg(sub.add_parser(name, parents=[common], help=_(text)))
        p = sub.add_parser("show", parents=[common], help=_("draw the board"))
        _game_id_arg(p)
        p.add_argument("--spectator", action="store_true", help=_("the public view only"))
        p = sub.add_parser("move", parents=[common], help=_("make a move: [GAME_ID] MOVE..."))
        p.add_argument(
            "move", nargs="+", help=_("[GAME_ID] then short notation (e.g. 3 7 2, C7) or JSON")
        )
        p.add_argument("--if-match", help=_("fail unless the game is at this version"))
        p = sub.add_parser(
            "verify", parents=[common], help=_("check a finished game's seed and replay it")
        )
        _game_id_arg(p)
        p.add_argument("--commitment", help=_("the seed_commitment you saw when you joined"))
        p = sub.add_parser("events", parents=[common], help=_("events after an id"))
        _game_id_arg(p)
        p.add_argument("--after")
        p.add_argument("--wait", type=float)

        p = sub.add_parser("play", parents=[common], help=_("play interactively"))
        _game_id_arg(p)
        p.add_argument("--name", help=_("join under this name if you have no seat yet"))
        p.add_argument("--invite", metavar="CODE", help=_("a private game's invite code"))
        p.add_argument("--bots", type=int, default=0, help=_("new game against N bots"))
        p.add_argument("--strategy", choices=LEVELS, default="greedy", help=levels_help(LEVELS))
        p.add_argument("--seed", type=int)
        add_screen_args(p)

        p = sub.add_parser("watch", parents=[common], help=_("live spectator view"))
        p.add_argument(
            "game_id_pos", nargs="?", metavar="GAME_ID|LINK", help=_("game id or watch link")
        )
        p.add_argument(
            "--watch-code", metavar="CODE", help=_("the game's watch code (its watch link)")
        )
        p.add_argument("--wait", type=float, default=20.0)

        p = sub.add_parser("bot", parents=[common], help=_("let a bot play a seat to the end"))
        _game_id_arg(p)
        p.add_argument("--seat-token", help=_("the seat's token (default: your stored seat)"))
        p.add_argument(
            "--strategy",
            choices=LOCAL_LEVELS,
            default="greedy",
            help=levels_help(LOCAL_LEVELS)
            + _(" (played here; for medium or strong, resign: the server's bot plays on)"),
        )
        p.add_argument("--seed", type=int)
        p.add_argument("--quiet", action="store_true")
        chat.add_parsers(sub, common)

    demo = games.add_parser("demo", help=_("a bot game of each, played to the end"))
    demo.add_argument("--json", action="store_true")
    demo.add_argument("--seed", type=int)
    demo.add_argument("--manhattan-url")
    demo.add_argument("--windcity-url")
    admin.add_parser(games)
    webhook.add_parser(games)
    players.add_parser(games)
    player_data.add_parser(games)
    ratings.add_parser(games)
    tournaments.add_parser(games)
    notify.add_parser(games)
    return parser


def normalize_argv(argv: list[str]) -> list[str]:
    """Accept ``play GAME ...`` as well as ``GAME play ...`` (same for watch, bot)."""
    if len(argv) >= 2 and argv[0] in GAME_FIRST and argv[1] in GAMES:
        return [argv[1], argv[0], *argv[2:]]
    return argv


def split_lang(argv: list[str]) -> tuple[list[str], str | None]:
    """``argv`` without ``--lang LANG`` (or ``--lang=LANG``), wherever it is, and ``LANG``."""
    rest: list[str] = []
    flag: str | None = None
    words = iter(argv)
    for word in words:
        if word == "--":
            rest += [word, *words]
        elif word == "--lang":
            flag = next(words, "")
        elif word.startswith("--lang="):
            flag = word.partition("=")[2]
        else:
            rest.append(word)
    return rest, flag


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``boardgames`` console script."""
    words, flag = split_lang(list(sys.argv[1:] if argv is None else argv))
    # JSON for scripts is the same in every language (the problems' words included)
    i18n.set_language("en" if "--json" in words else i18n.choose(flag, os.environ))
    GameClient.language = i18n.language()  # problem titles and details in it too
    i18n.speak_argparse()
    args = build_parser().parse_args(normalize_argv(words))
    if args.game == "admin":
        return admin.run(args)
    if args.game == "webhook":
        return webhook.run(args)
    if args.game in players.COMMANDS:
        args.command = args.game
        return run(args, players.COMMANDS)
    if args.game in player_data.COMMANDS:
        args.command = args.game
        return run(args, player_data.COMMANDS)
    if args.game in ratings.COMMANDS:
        args.command = args.game
        return run(args, ratings.COMMANDS)
    if args.game == "tournament":
        args.command = args.action
        return run(args, tournaments.COMMANDS)
    if args.game in notify.COMMANDS:
        args.command = args.game
        return run(args, notify.COMMANDS)
    if args.game == "demo":
        args.command = "demo"
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
