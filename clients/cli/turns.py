"""``boardgames watch --all``: wait on every game of your player, in both services, and
ring the terminal bell (``\\a``) when it is your turn, saying which game.

Each round asks each service for the player's running games (``GET /players/me/games
?status=running``: ``my_turn`` says where the player is to act) and announces each game
that became the player's turn since the round before. Then it waits: one long-poll per
running game (``GET /games/{id}/events?after=&wait=``, a thread each, at most
:data:`MAX_WAITS` games) wakes the next round as soon as any of them moves, and a round
comes at least every ``--interval`` seconds (new games, games past :data:`MAX_WAITS`).
"""

from __future__ import annotations

import argparse
import json
import threading
from typing import Any

from .client import GAMES, TERMINAL_EVENTS, client_for
from .commands_kit import UsageError
from .errors import ApiError, TransportError
from .i18n import _, ngettext
from .tokens_store import TokenStore

Json = dict[str, Any]
MAX_WAITS = 20
LONG_POLL = 25


def add_parser(games: Any) -> None:
    """``watch --all`` (one game: ``boardgames watch GAME GAME_ID``)."""
    p = games.add_parser(
        "watch", help=_("--all: ring the bell when it is your turn in any of your games")
    )
    p.add_argument("--all", action="store_true", required=True, help=_("every game of yours"))
    p.add_argument("--json", action="store_true", help=_("one JSON line per turn, no bell"))
    p.add_argument("--interval", type=float, default=60.0, help=_("ask again at least this often"))
    p.add_argument("--count", type=int, metavar="N", help=_("stop after N turns"))
    for game in GAMES:
        p.add_argument(f"--{game}-url")


class Waiter(threading.Thread):
    """Long-polls one game's events from ``after`` and sets ``wake`` on each new one."""

    def __init__(self, client: Any, game_id: str, after: int, wake: threading.Event) -> None:
        super().__init__(daemon=True)
        self.client, self.game_id, self.after, self.wake = client, game_id, after, wake

    def run(self) -> None:
        after: Any = self.after
        try:
            while True:
                page = self.client.events(self.game_id, after=after, wait=LONG_POLL)
                after = page.get("last_id") or after
                if page.get("events"):
                    self.wake.set()
                if any(e.get("type") in TERMINAL_EVENTS for e in page.get("events", [])):
                    return
        except (ApiError, TransportError):
            self.wake.set()  # the next round reads the game's list instead


def announce(args: argparse.Namespace, entry: Json) -> None:
    """One turn: a JSON line, or the bell and a line for people."""
    link = f"{entry['url']}/play?game={entry['id']}"
    if args.json:
        keep = ("game", "id", "seat", "deadline")
        print(json.dumps({**{k: entry.get(k) for k in keep}, "link": link}), flush=True)
        return
    line = _("your turn: {game} game {id} ({link})", game=entry["game"], id=entry["id"], link=link)
    if entry.get("deadline"):
        line += " " + _("due {deadline}", deadline=entry["deadline"])
    print("\a" + line, flush=True)


def cmd_watch_all(args: argparse.Namespace) -> int:
    """Announce every turn of the player until ``--count`` turns (or Ctrl-C)."""
    player = TokenStore().player()
    if not player:
        raise UsageError(_("no player yet: boardgames register NAME"))
    clients = {game: client_for(game, getattr(args, f"{game}_url", None)) for game in GAMES}
    wake = threading.Event()
    waiting: dict[tuple[str, str], Waiter] = {}
    announced: set[tuple[str, str]] = set()
    told, shown = 0, -1
    while True:
        running: dict[tuple[str, str], Json] = {}
        for game, client in clients.items():
            for entry in client.iter_my_games(player["key"], "running"):
                running[(game, entry["id"])] = {**entry, "game": game, "url": client.base_url}
        for where in [w for w in waiting if not waiting[w].is_alive()]:
            del waiting[where]
        fresh = [where for where in running if where not in waiting]
        for game, game_id in fresh[: max(0, MAX_WAITS - len(waiting))]:
            client = client_for(game, clients[game].base_url)
            version = client.view(game_id, spectator=True)["version"]
            waiting[(game, game_id)] = Waiter(client, game_id, version, wake)
            waiting[(game, game_id)].start()
            wake.set()  # a move before that version was read: the next round sees it
        mine = {where for where, entry in running.items() if entry.get("my_turn")}
        for where in sorted(mine - announced):
            announce(args, running[where])
            told += 1
            if args.count and told >= args.count:
                return 0
        announced = mine
        if not args.json and len(running) != shown:
            shown = len(running)
            print(ngettext("waiting on {n} game", "waiting on {n} games", shown), flush=True)
        wake.wait(args.interval)
        wake.clear()
