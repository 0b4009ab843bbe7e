"""``boardgames tournament play GAME ID``: take part in a tournament from the terminal.

It registers your player when registration is still open (you asked to play it), checks
you in when the tournament has a check-in window (once it opens), waits for the start,
and follows you from table to table: each time the worker seats
you (a Swiss round's table, or an arena's next one), it plays that game with ``play``'s
own loop (:class:`clients.cli.play.PlaySession`, your player key acting for your seat),
and when the game is over it waits for your next seat. A bye, a round still being
played by others and the start are said once each. When the tournament is over it
prints the final standings. ``q`` (or the end of the input) leaves the game and the
command; the game goes on, the clock and then the takeover bot play your seat, and the
same command takes you back.

The CLI knows only HTTP: it reads ``GET /tournaments/{id}`` every ``--poll`` seconds
while it waits (docs/api.md, "Tournaments").
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from rich.table import Table
from rich.text import Text

from .client import client_for, is_over
from .commands_kit import UsageError, console
from .i18n import _, ngettext
from .play import PlaySession
from .players import _need_player

Json = dict[str, Any]
OVER = ("finished", "cancelled")


def standings_table(page: Json) -> Table:
    """A page of ``GET /tournaments/{id}/standings`` as a table (names as plain text)."""
    done = page.get("round") or 0  # an arena has no rounds
    table = Table(
        title=_("standings after round {n}", n=done) if done else _("standings"), box=None
    )
    for head in (_("place"), _("name"), _("points"), _("Buchholz"), _("games")):
        table.add_column(head)
    for row in page.get("items") or []:
        games = str(len(row.get("games") or []))
        table.add_row(
            str(row["place"]), Text(row["name"]), str(row["points"]), str(row["buchholz"]), games
        )
    return table


def seat_of(doc: Json, me: str) -> tuple[Json | None, bool]:
    """The table ``me`` sits at now (``None``: none), and whether ``me`` has this
    Swiss round's bye."""
    if doc["status"] != "running":
        return None, False
    if doc.get("format") == "arena":
        tables = doc.get("live") or []
        return next((t for t in tables if me in t["players"]), None), False
    current = doc["history"][-1] if doc["history"] else None
    if current is None or current["state"] == "done":
        return None, False
    table = next((t for t in current["tables"] if me in t["players"]), None)
    return {**table, "state": current["state"]} if table else None, me in current["byes"]


class Follower:
    """One player following one tournament (``tournament play``)."""

    def __init__(self, args: argparse.Namespace, player: Json) -> None:
        self.args, self.me, self.key = args, player["id"], player["key"]
        self.client = client_for(args.which, args.url, player["key"])
        self.path = f"/tournaments/{args.tournament}"
        self.con = console()
        self.said = ""
        self.played: set[str] = set()

    def read(self) -> Json:
        doc: Json = self.client._request("GET", self.path, retry=True)
        return doc

    def say(self, line: str, style: str = "dim") -> None:
        """Print ``line`` unless it is the last line said (a wait is said once)."""
        if line != self.said:
            self.con.print(Text(line, style=style))
            self.said = line

    def join(self) -> Json:
        """The tournament, with your player registered in it (registering it if need be)."""
        doc = self.read()
        if self.me in doc["entries"]:
            return doc
        if doc["status"] != "registering":
            raise UsageError(
                _("you are not registered for {name}, and it has started", name=doc["name"])
            )
        doc = self.client._request("POST", f"{self.path}/players", token=self.key)
        self.say(_("registered for {name}", name=doc["name"]), "green")
        return doc

    def run(self) -> int:
        doc = self.join()
        while doc["status"] not in OVER:
            entry = doc["entries"].get(self.me) or {}
            if entry.get("withdrawn"):
                self.say(_("you are withdrawn: you are seated no more"), "yellow")
                break
            if doc["status"] == "registering":
                doc = self.check_in(doc, entry)
                self.say(self.waiting_line(doc))
            else:
                table, bye = seat_of(doc, self.me)
                if table and table["state"] == "playing" and table["game"] not in self.played:
                    if not self.play(doc, table):
                        return 0
                    doc = self.read()
                    continue
                if table and table["state"] == "seating":
                    self.say(_("your table is being set up…"))
                elif bye:
                    line = ngettext(
                        "round {round}: you have a bye ({n} point)",
                        "round {round}: you have a bye ({n} points)",
                        doc["bye_points"],
                        round=doc["round"],
                    )
                    self.say(line, "cyan")
                elif doc.get("format") == "arena":
                    self.say(_("waiting for your next table…"))
                else:
                    self.say(_("waiting for the next round…"))
            time.sleep(self.args.poll)
            doc = self.read()
        self.finish(doc)
        return 0

    def check_in(self, doc: Json, entry: Json) -> Json:
        """Check in once the tournament's check-in window is open (it has one)."""
        window, start = doc.get("checkin_seconds"), doc.get("starts_at")
        if not window or not start or entry.get("checked_in"):
            return doc
        if time.time() * 1000 < start - window * 1000:
            return doc
        doc = self.client._request("POST", f"{self.path}/checkin", token=self.key)
        self.say(_("checked in for {name}", name=doc["name"]), "green")
        return doc

    def waiting_line(self, doc: Json) -> str:
        if doc.get("starts_at"):
            when = time.strftime("%H:%M:%S", time.localtime(doc["starts_at"] / 1000))
            return _("waiting for the start at {time}…", time=when)
        return _("waiting for the host to start it…")

    def play(self, doc: Json, table: Json) -> bool:
        """Play the game at ``table``; whether to go on following the tournament."""
        gid = table["game"]
        others = [doc["entries"][p]["name"] for p in table["players"] if p != self.me]
        if doc.get("format") == "arena":
            head = _("your table: game {id} against {names}", id=gid, names=", ".join(others))
        else:
            head = _(
                "round {round}: game {id} against {names}",
                round=doc["round"],
                id=gid,
                names=", ".join(others),
            )
        self.con.rule(Text(head))
        self.said = ""
        layout = "compact" if self.args.compact else "full" if self.args.full else "auto"
        code = PlaySession(self.con, self.args.which, self.client, gid, layout).run()
        self.played.add(gid)
        if code == 0 and not is_over(self.client.view(gid)):  # q, or the input ended
            self.con.print(
                Text(_("you left the game; the same command takes you back"), style="yellow")
            )
            return False
        if code != 0:
            self.say(_("a bot plays your seat now; on to your next table"), "yellow")
        return True

    def finish(self, doc: Json) -> None:
        if doc["status"] == "cancelled":
            self.con.print(Text(_("{name} was cancelled", name=doc["name"]), style="yellow"))
            return
        page = self.client._request("GET", f"{self.path}/standings", retry=True)
        self.con.rule(Text(_("{name} is over", name=doc["name"])))
        self.con.print(standings_table(page))
        mine = next((r for r in page.get("items") or [] if r["player"] == self.me), None)
        if mine:
            line = _(
                "you finished in place {place} with {points} points",
                place=mine["place"],
                points=mine["points"],
            )
            self.con.print(Text(line, style="bold"))


def cmd_play(args: argparse.Namespace) -> int:
    """``tournament play``: register if need be, then play each of your tables."""
    if args.poll <= 0:
        raise UsageError(_("--poll: more than 0 seconds"))
    return Follower(args, _need_player()).run()
