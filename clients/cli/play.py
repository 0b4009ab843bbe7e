"""``boardgames play``: wait for your turn, show the board and a menu, send your move.

Each turn reads the view and the legal moves in one request, prints what happened since
your last move, then draws either the full view (a big terminal, or piped output) or a
compact screen that fits the terminal (``render.play_screen``: 80x24 included), and
reads moves until the service accepts one.

The game does not stand still while you choose: in Wind City's insurance market every
other seat answers at the same time, bots and the turn clock move, and a move is sent
with ``If-Match`` (the version it was chosen at). When that version is gone (412), the
session reads the game again, prints what happened meanwhile and then either sends the
same move again at the new version (you are still to act and your legal moves are
exactly the same, so the choice still stands), or shows the new menu (your options
changed), or goes back to waiting (it is no longer your turn). You are never left
retrying a stale version.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.text import Text

from . import render
from .analysis import hint_line
from .chat import PLAY_HELP, PlayChat
from .client import GameClient, is_over, my_turn
from .errors import ApiError, Conflict, PreconditionFailed, describe_problem
from .event_feed import after_version
from .games import game_module
from .i18n import N_, _
from .menu import Menu
from .notation import NotationError, format_move, parse_move


def add_screen_args(parser: argparse.ArgumentParser) -> None:
    """``--compact`` / ``--full``: how a play session draws its screen."""
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--compact",
        action="store_true",
        help=_(
            "a screen that fits the terminal (80x24): compact board, paged menu "
            "(default when the full view does not fit)"
        ),
    )
    size.add_argument("--full", action="store_true", help=_("always the full board and menu"))


Json = dict[str, Any]
MAX_RESENDS = 20
"""Times one choice is sent again at a newer version before the player is asked again."""
# Codes of a refusal that means the game moved on (not that the move itself is wrong).
MOVED_ON = {"not-your-turn", "already-answered", "wrong-phase", "game-over", "version-mismatch"}
GONE = {"seat-abandoned", "seat-resigned"}

HELP = N_("""\
Type the number of a move, or any legal move in notation (it need not be on the page
shown), or a JSON move body. Also:
  n / p      next / previous page of the menu (Enter: the next page, or the screen again)
  /TEXT      show only the moves whose notation contains these words (/3 7, /insure);
             / alone shows them all again
  b          draw the full board (it scrolls; Enter: the screen again)
  hint       the move the bot would play here (uses one of your hints)
  ?          this help and the legend
  q          quit (the game goes on; play again later with the same command)""")


@dataclass
class Turn:
    """What one turn is chosen from: the view, its legal moves, the menu of them."""

    view: Json
    legal: list[Json]
    menu: Menu


class Quit(Exception):
    """The player typed q or closed the input."""


class PlaySession:
    """One player's interactive session in one game (the client holds the seat's token)."""

    def __init__(
        self,
        con: Console,
        game: str,
        client: GameClient,
        game_id: str,
        layout: str = "auto",
        read: Callable[[str], str] | None = None,
    ) -> None:
        self.con, self.game, self.client, self.gid = con, game, client, game_id
        self.layout = layout  # "auto", "full" or "compact"
        self.read = read or (lambda prompt: input(prompt))  # input as it is when called
        self.ui = game_module(game)
        self.cursor: int | None = None  # events up to this version have been shown
        self.shown_legend = False
        self.drawn = "full"  # the layout of the last screen drawn
        self.chat = PlayChat(con, client, game_id)  # messages shown as they come, `say`

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game is over (0), the player quits (0) or the seat is gone (1)."""
        view: Json | None = None
        while True:
            if view is None or not (is_over(view) or my_turn(view)):
                self.con.print(Text(_("waiting for your turn…"), style="dim"))
                view = self.client.wait_for_turn(
                    self.gid, poll_wait=20, on_events=self.chat.arrived
                )
            view = self.client.view(self.gid, legal_moves=True)  # the view and moves at once
            legal = view.pop("legal_moves", None) or []
            if is_over(view):
                self.finish(view)
                return 0
            if not my_turn(view) or not legal:
                self.print_events(self.events_until(view))
                if my_turn(view):  # listed to act but no move yet: look again shortly
                    time.sleep(1)
                continue
            try:
                answer = self.play_turn(Turn(view, legal, Menu.of(self.game, legal)))
            except Quit:
                return 0
            except ApiError as exc:
                if exc.code not in GONE:
                    raise
                self.con.print(Text(f"{exc.code}: {self.problem(exc)}", style="red"))
                return 1
            view = answer.get("game") if answer else None

    def play_turn(self, turn: Turn) -> Json | None:
        """Show the turn, read choices until a move is accepted; the service's answer, or
        ``None`` when the turn passed without our move (the game moved on)."""
        self.show(turn, self.events_until(turn.view))
        while True:
            raw = self.ask()
            if self.command(raw, turn):
                continue
            try:
                move = self.choose(raw, turn)
            except NotationError as exc:
                self.con.print(Text(str(exc), style="red"))
                continue
            outcome = self.send(turn, move)
            if outcome is turn:  # refused (the message is on screen): choose again
                continue
            if isinstance(outcome, Turn):  # new options: show them, choose again
                turn = outcome
                continue
            return outcome

    def ask(self) -> str:
        prompt = _("your move (number, notation, JSON, ? or q): ")
        if self.drawn == "compact":
            prompt = _("your move (number or notation; ? help, q quit): ")
        try:
            return self.read(prompt).strip()
        except EOFError:
            raise Quit() from None

    def command(self, raw: str, turn: Turn) -> bool:
        """Carry out a menu command (paging, filter, help, board, quit); whether it was one."""
        word = raw.lower()
        if word in ("q", "quit", "exit"):
            raise Quit()
        if self.chat.command(raw):  # say TEXT, say --phrase gg, phrases, chat
            return True
        if word in ("", "n", "+", "p", "-"):  # Enter on a one-page menu: draw it again
            turn.menu.turn(-1 if word in ("p", "-") else 1)
        elif raw.startswith("/"):
            turn.menu.filter(raw[1:])
        elif word in ("?", "h", "help"):  # left on screen: Enter draws the menu again
            self.con.print(_(HELP), markup=False)
            self.con.print(_(PLAY_HELP), markup=False)
            self.con.print(render.legend(self.game), style="dim")
            return True
        elif word in ("b", "board"):
            self.con.print(render.render_view(self.game, turn.view))
            return True
        elif word == "hint":
            self.con.print(hint_line(self.game, self.client, self.gid))
            return True
        else:
            return False
        if self.drawn == "compact":
            self.show(turn, [])
        else:
            self.print_menu(turn)
        return True

    def choose(self, raw: str, turn: Turn) -> Json:
        """The move a line of input names: a menu number, notation or JSON."""
        if raw.isdigit():
            return turn.menu.pick(raw)
        return parse_move(self.game, raw, turn.legal)

    def send(self, turn: Turn, move: Json) -> Json | Turn | None:
        """Send ``move`` chosen at ``turn``; see the module docstring for a stale version.

        Returns the service's answer; ``turn`` itself when the move was refused (choose
        again); a new :class:`Turn`, already shown, when the options changed; ``None``
        when it is no longer our turn."""
        for _attempt in range(MAX_RESENDS):
            try:
                answer: Json = self.client.move(self.gid, move, if_match=turn.view.get("version"))
            except (PreconditionFailed, Conflict) as exc:
                if exc.code in GONE:  # a bot plays our seat now (timeouts, resigned)
                    raise
                if not isinstance(exc, PreconditionFailed) and exc.code not in MOVED_ON:
                    self.con.print(Text(f"{exc.code}: {self.problem(exc)}", style="red"))
                    return turn
                fresh = self.client.view(self.gid, legal_moves=True)
                legal = fresh.pop("legal_moves", None) or []
                meanwhile = self.events_until(fresh)
                if is_over(fresh) or not my_turn(fresh) or not legal:
                    self.print_events(meanwhile, _("while you chose:"))
                    self.con.print(Text(_("it is no longer your turn"), style="yellow"))
                    return None
                if legal != turn.legal:
                    new = Turn(fresh, legal, Menu.of(self.game, legal))
                    self.show(new, [*meanwhile, _("(your options changed: choose again)")])
                    return new
                self.print_events(meanwhile, _("while you chose:"))
                again, version = format_move(self.game, move), fresh.get("version")
                note = _(
                    "your options are the same: {move} sent again at v{version}",
                    move=again,
                    version=version,
                )
                self.con.print(Text(note, style="dim"))
                turn = Turn(fresh, legal, turn.menu)
                continue
            except ApiError as exc:
                if exc.code in GONE:
                    raise
                self.con.print(Text(f"{exc.code}: {self.problem(exc)}", style="red"))
                return turn
            names = render.player_names(answer.get("game") or turn.view)
            for ev in answer.get("events", []):
                self.con.print("  " + render.describe_event(self.game, ev, names), style="green")
            self.cursor = (answer.get("game") or {}).get("version", self.cursor)
            return answer
        self.con.print(
            Text(_("the game keeps moving under this move: choose again"), style="yellow")
        )
        return turn

    # -- output ---------------------------------------------------------------------------

    def problem(self, exc: ApiError) -> str:
        return str(self.ui.problem_detail(describe_problem(exc)))

    def events_until(self, view: Json) -> list[str]:
        """Lines for the events after the last version shown up to ``view``'s (the cursor
        moves there). The first time: none (the board shows where the game stands)."""
        version = int(view.get("version") or 0)
        if self.cursor is None or version <= self.cursor:
            self.cursor = max(version, self.cursor or 0)
            return []
        names = render.player_names(view)
        after = after_version(self.cursor)  # the chat of that version too (shown once)
        evs = self.client.events(self.gid, after=after, limit=1000).get("events", [])
        self.cursor = version
        evs = self.chat.show([ev for ev in evs if int(ev.get("version") or 0) <= version])
        return [render.describe_event(self.game, ev, names) for ev in evs]

    def print_events(self, lines: list[str], heading: str | None = None) -> None:
        if lines and heading:
            self.con.print(Text(heading, style="yellow"))
        for line in lines:  # players' names in them: plain text, never markup
            self.con.print(Text("  " + line, style="cyan"))

    def layout_for(self, view: Json) -> str:
        """``full`` or ``compact``: as asked, else compact when the full view and a few
        menu lines would not fit the terminal (never when the output is not a terminal)."""
        if self.layout != "auto":
            return self.layout
        if not self.con.is_terminal:
            return "full"
        width, height = self.con.size
        full = render.to_text(render.render_view(self.game, view), width)
        return "compact" if len(full.splitlines()) + 8 > height else "full"

    def show(self, turn: Turn, recent: list[str]) -> None:
        """``recent`` (what happened since our last move), then the board and the menu;
        on a compact screen the newest events are part of it."""
        self.drawn = self.layout_for(turn.view)
        if not self.shown_legend:
            self.con.print(render.legend(self.game), style="dim")
            self.shown_legend = True
        if self.drawn == "full":
            self.print_events(recent)
            self.con.print(render.render_view(self.game, turn.view))
            self.print_menu(turn)
            return
        width, height = self.con.size
        screen, shown = render.play_screen(self.game, turn.view, turn.menu, recent, width, height)
        self.print_events(recent[: len(recent) - shown])
        self.con.print(screen, no_wrap=True, overflow="crop")

    def print_menu(self, turn: Turn) -> None:
        for line in turn.menu.lines(self.con.size.width):
            self.con.print(line, no_wrap=True, overflow="crop")

    def finish(self, view: Json) -> None:
        """The end: what happened last, the final board, the score and the result."""
        self.print_events(self.events_until(view))
        score = render.render_score(self.game, self.client.score(self.gid), view)
        if self.layout_for(view) == "full":
            self.con.print(render.render_view(self.game, view))  # the result included
            self.con.print(score)
            return
        width, height = self.con.size
        self.con.print(render.compact_header(view, width))
        self.con.print(self.ui.board_compact(view.get("state") or {}, height - 12))
        self.con.print(score)
        self.con.print(render.render_result(view))
