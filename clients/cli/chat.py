"""The table chat in the CLI: ``say``, ``chat``, ``phrases``, ``mute``, ``block`` and
``report`` (each ``(args) -> exit code``, see :mod:`clients.cli.commands`), one line per
message for ``play`` and ``watch`` (which read them among the game's events: ``{"type":
"chat", "message": {...}}``), and ``play``'s own ``say`` and ``phrases`` at its prompt.

A message's words come from other people: they are printed as plain text (never rich
markup) with terminal control characters taken out. A canned phrase is shown in the
CLI's language: the service sends its ``phrase_text`` in the language asked for.
"""

from __future__ import annotations

import argparse
import re
import shlex
import time
import unicodedata
from typing import Any

from rich.console import Console
from rich.text import Text

from . import render
from .commands_kit import (
    Json,
    UsageError,
    client_and_game,
    emit,
    game_id_of,
    make_client,
    player_key,
    seat_token,
)
from .errors import ApiError, describe_problem
from .i18n import N_, _

GAME_ID = re.compile(r"^[0-9a-f]{16}$")
REASONS = ("spam", "abuse", "cheating", "hate", "other")
"""A report's reasons (the service's fixed list)."""
KEEP = {"\u200c", "\u200d"}  # joiners (emoji, Indic scripts): not control characters


def clean(text: str) -> str:
    """``text`` without what a terminal would act on: control and format characters
    (escape sequences, bidi overrides) become a space; a line break stays one line."""
    out = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch in KEEP or category not in ("Cc", "Cf"):
            out.append(ch)
        else:
            out.append(" " if ch != "\n" else " / ")
    return "".join(out)


def words_of(message: Json) -> str:
    """What a message says (in the CLI's language for a canned phrase)."""
    if message.get("deleted"):
        return _("(message removed by a moderator)")
    if message.get("phrase"):
        return clean(str(message.get("phrase_text") or message["phrase"]))
    return clean(str(message.get("text") or ""))


def sender(message: Json) -> str:
    """``0:ann`` for a seat (as the CLI names seats), ``ann (spectator)`` otherwise."""
    name = clean(str(message.get("name") or ""))
    seat = message.get("seat")
    if seat is None:
        return _("{name} (spectator)", name=name)
    return f"{seat}:{name}"


def line(message: Json) -> str:
    """One line for a message: ``[12:03] 0:ann: Good game``."""
    at = message.get("at")
    clock = time.strftime("%H:%M", time.localtime(at / 1000)) if isinstance(at, int | float) else ""
    said = _("{who}: {text}", who=sender(message), text=words_of(message))
    return f"[{clock}] {said}" if clock else said


def event_line(game: str, event: Json, names: render.Names) -> str:
    """A line for any event of the stream: a chat message, or the game's own words."""
    if event.get("type") == "chat":
        return line(event.get("message") or {})
    return render.describe_event(game, event, names)


def print_message(con: Console, message: Json) -> None:
    """A message as plain text (the words cannot be read as rich markup)."""
    con.print(Text("  " + line(message), style="magenta"))


# ----------------------------------------------------------------------- the commands


def _token(args: argparse.Namespace, client: Any, gid: str) -> str:
    return str(seat_token(args, client, gid)[0])


def _split_game_id(args: argparse.Namespace, words: list[str]) -> list[str]:
    """``say GAME_ID TEXT...``: a leading game id goes to ``args.game_id``."""
    if len(words) > 1 and GAME_ID.match(words[0]) and not args.game_id:
        args.game_id = words[0]
        return words[1:]
    return words


def cmd_say(args: argparse.Namespace) -> int:
    """Send a message (or ``--phrase CODE``) to the table as your seat."""
    words = _split_game_id(args, list(args.text or []))
    if not args.phrase and not words:
        raise UsageError(_("say what? give the text, or --phrase CODE (see phrases)"))
    client, gid = client_and_game(args)
    text = " ".join(words) if words else None
    message = client.say(gid, text=text, phrase=args.phrase, token=_token(args, client, gid))
    emit(args, message, Text(line(message)))
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    """A game's messages so far, oldest first, as you may read them."""
    client, gid = client_and_game(args)
    try:
        token: str | None = _token(args, client, gid)
    except UsageError:
        token = None  # no seat of ours: read as a spectator (with a link game's code)
        client.watch_code = args.watch_code
    if args.after or args.limit:
        page = client.chat(gid, token, after=args.after, limit=args.limit, channel=args.channel)
    else:
        page = {"messages": client.chat_all(gid, token, channel=args.channel)}
    messages = page.get("messages") or []
    lines = [line(m) for m in messages] or [_("no messages yet")]
    emit(args, page, Text("\n".join(lines)))
    return 0


def cmd_phrases(args: argparse.Namespace) -> int:
    """The canned phrases: their codes (for ``say --phrase``) and words."""
    phrases = make_client(args).phrases()
    table = "\n".join(f"{p['code']:<16} {clean(str(p['text']))}" for p in phrases)
    emit(args, {"phrases": phrases}, Text(table))
    return 0


def cmd_mute(args: argparse.Namespace) -> int:
    """Hide (``--undo``: show again) a seat's messages from you at this table."""
    target = args.target
    if not (target.isdigit() or target.startswith("player:")):
        raise UsageError(_("mute a seat number or player:PLAYER_ID, not {target}", target=target))
    client, gid = client_and_game(args)
    answer = client.mute(gid, target, token=_token(args, client, gid), on=not args.undo)
    said = _("{target} unmuted", target=target) if args.undo else _("{target} muted", target=target)
    emit(args, answer or {"target": target, "muted": not args.undo}, Text(said))
    return 0


def cmd_block(args: argparse.Namespace) -> int:
    """Block (``--undo``: unblock) a player everywhere: no messages, no shared table."""
    key = player_key(args)
    if not key:
        raise UsageError(_("blocking is for players: boardgames register NAME first"))
    client = make_client(args)
    answer = client.block(args.player_id, key, on=not args.undo)
    said = (
        _("{player} unblocked", player=args.player_id)
        if args.undo
        else _("{player} blocked", player=args.player_id)
    )
    emit(args, answer or {"player": args.player_id, "blocked": not args.undo}, Text(said))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Report a message (``MESSAGE_ID``) or a player (``--player``) to the moderators."""
    client = make_client(args)
    if args.player:
        token = player_key(args) or args.token
        answer = client.report_player(args.player, args.reason, args.note, token=token)
    else:
        if not args.message_id:
            raise UsageError(_("report which message? give its id (see chat --json) or --player"))
        gid = game_id_of(args)
        # With your player key when you have one: the report is then your player's (its
        # export, its erasure); else as your seat.
        token = player_key(args) or _token(args, client, gid)
        answer = client.report_message(gid, args.message_id, args.reason, args.note, token=token)
    emit(args, answer, Text(_("reported: the moderators will look at it")))
    return 0


COMMANDS = {
    "say": cmd_say,
    "chat": cmd_chat,
    "phrases": cmd_phrases,
    "mute": cmd_mute,
    "block": cmd_block,
    "report": cmd_report,
}


def add_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    """The chat commands of one game's subparser."""
    p = sub.add_parser("say", parents=[common], help=_("say something at the table (your seat)"))
    p.add_argument("text", nargs="*", metavar="TEXT", help=_("[GAME_ID] then the message"))
    p.add_argument(
        "-p", "--phrase", metavar="CODE", help=_("a canned phrase instead (see phrases)")
    )
    p = sub.add_parser("chat", parents=[common], help=_("the table's messages so far"))
    p.add_argument(
        "game_id_pos", nargs="?", metavar="GAME_ID|LINK", help=_("game id or watch link")
    )
    p.add_argument("--watch-code", metavar="CODE", help=_("the game's watch code (its watch link)"))
    p.add_argument("--after", metavar="ID", help=_("only the messages after this id"))
    p.add_argument("--limit", type=int, metavar="N")
    p.add_argument("--channel", choices=["players", "spectators"])
    sub.add_parser("phrases", parents=[common], help=_("the canned phrases and their codes"))
    p = sub.add_parser("mute", parents=[common], help=_("hide a seat's messages from you"))
    p.add_argument("target", metavar="SEAT", help=_("a seat number, or player:PLAYER_ID"))
    p.add_argument("--undo", action="store_true", help=_("unmute"))
    p = sub.add_parser("block", parents=[common], help=_("block a player (everywhere)"))
    p.add_argument("player_id", metavar="PLAYER_ID")
    p.add_argument("--undo", action="store_true", help=_("unblock"))
    p = sub.add_parser("report", parents=[common], help=_("report a message or a player"))
    p.add_argument("message_id", nargs="?", metavar="MESSAGE_ID")
    p.add_argument("--player", metavar="PLAYER_ID", help=_("report this player instead"))
    p.add_argument("--reason", choices=REASONS, required=True)
    p.add_argument("--note", help=_("a word for the moderators"))


# ------------------------------------------------------------------ play's prompt

PLAY_HELP = N_("""\
  say TEXT   say something at the table; say --phrase gg sends a canned phrase
  phrases    the canned phrases; chat: the table's messages so far""")


class PlayChat:
    """The chat of a ``play`` session: messages shown once, ``say`` at the prompt."""

    def __init__(self, con: Console, client: Any, gid: str) -> None:
        self.con, self.client, self.gid = con, client, gid
        self.shown: set[str] = set()

    def arrived(self, events: list[Json]) -> None:
        """Print the chat messages among ``events`` as they arrive (``play``'s wait)."""
        self.show(events)

    def show(self, events: list[Json]) -> list[Json]:
        """Print the chat messages among ``events`` not shown yet; the other events."""
        rest = []
        for event in events:
            if event.get("type") != "chat":
                rest.append(event)
                continue
            message = event.get("message") or {}
            if message.get("id") not in self.shown:
                self.shown.add(str(message.get("id")))
                print_message(self.con, message)
        return rest

    def command(self, raw: str) -> bool:
        """Carry out ``say ...``, ``phrases`` or ``chat``; whether ``raw`` was one."""
        word, _sep, rest = raw.strip().partition(" ")
        word = word.lower()
        if word == "phrases":
            for p in self.client.phrases():
                self.con.print(Text(f"  {p['code']:<16} {clean(str(p['text']))}"))
            return True
        if word == "chat":
            for message in self.client.chat_all(self.gid)[-20:]:
                self.shown.add(str(message.get("id")))
                print_message(self.con, message)
            return True
        if word != "say":
            return False
        try:
            parts = shlex.split(rest)
        except ValueError:
            parts = rest.split()
        phrase = None
        if parts[:1] in (["--phrase"], ["-p"]) and len(parts) > 1:
            phrase = parts[1]
        if not (phrase or rest.strip()):
            self.con.print(Text(_("say what? say TEXT, or say --phrase CODE"), style="yellow"))
            return True
        try:
            message = self.client.say(
                self.gid, text=None if phrase else rest.strip(), phrase=phrase
            )
        except ApiError as exc:  # refused (too fast, too long...): say why, play on
            self.con.print(Text(f"{exc.code}: {describe_problem(exc)}", style="red"))
            return True
        self.shown.add(str(message.get("id")))
        print_message(self.con, message)
        return True
