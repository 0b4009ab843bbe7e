"""The ``boardgames`` subcommands: one function per command, ``(args) -> exit code``.

Every command prints either rich output for people or, with ``--json``, one JSON
document on stdout for scripts. Errors go to stderr as one line (JSON with ``--json``),
never a traceback, and set the exit code: 1 when the service refused the request or
could not be reached, 2 for a usage or notation error.

The commands live by what they do: :mod:`~clients.cli.commands_tables` (new, list,
join, quick, rematch, start, cancel, resign, leave), :mod:`~clients.cli.commands_moves` (show,
moves, move, score, log, events, verify), :mod:`~clients.cli.commands_live` (play,
watch, bot, demo); what they share is in :mod:`~clients.cli.commands_kit`. This module
runs one (:func:`run`): the game id from the command line, errors to exit codes.
"""

from __future__ import annotations

import argparse
import contextlib
import re
from urllib.parse import parse_qs

from . import chat
from .analysis import cmd_analysis, cmd_hint
from .commands_kit import (
    Command,
    Json,
    UsageError,
    console,
    emit,
    fail,
    game_id_of,
    host_token,
    make_client,
    player_key,
    seat_token,
)
from .commands_live import cmd_bot, cmd_demo, cmd_play, cmd_watch
from .commands_moves import (
    cmd_events,
    cmd_log,
    cmd_move,
    cmd_moves,
    cmd_score,
    cmd_show,
    cmd_verify,
)
from .commands_tables import (
    cmd_cancel,
    cmd_join,
    cmd_leave,
    cmd_list,
    cmd_new,
    cmd_quick,
    cmd_rematch,
    cmd_resign,
    cmd_start,
    parse_options,
)
from .errors import ApiError, TransportError, describe_problem
from .games import game_module
from .i18n import _
from .notation import NotationError

# A game id as the services make them (16 hex digits): lets ``move GAME_ID 3 7 2`` work.
GAME_ID = re.compile(r"^[0-9a-f]{16}$")
# An invite link given for a game id, or just its path: the browser page's
# (``<service>/play?game=<id>&invite=<code>``) or the older ``<service>/games/<id>?invite=<code>``.
LINK = re.compile(r"^(?P<base>.*?)/games/(?P<id>[^/?#]+)/?(?:\?(?P<query>[^#]*))?(?:#.*)?$")
PLAY_LINK = re.compile(r"^(?P<base>.*?)/play/?\?(?P<query>[^#]*)(?:#.*)?$")

COMMANDS: dict[str, Command] = {
    "new": cmd_new,
    "resign": cmd_resign,
    "leave": cmd_leave,
    "list": cmd_list,
    "join": cmd_join,
    "rematch": cmd_rematch,
    "quick": cmd_quick,
    "start": cmd_start,
    "cancel": cmd_cancel,
    "show": cmd_show,
    "moves": cmd_moves,
    "move": cmd_move,
    "score": cmd_score,
    "hint": cmd_hint,
    "analysis": cmd_analysis,
    "log": cmd_log,
    "events": cmd_events,
    "verify": cmd_verify,
    "play": cmd_play,
    "watch": cmd_watch,
    "bot": cmd_bot,
    "demo": cmd_demo,
    **chat.COMMANDS,  # say, chat, phrases, mute, block, report
}


def run(args: argparse.Namespace, commands: dict[str, Command] | None = None) -> int:
    """Run a parsed command line, mapping errors to messages and exit codes."""
    try:
        resolve_game_id(args)
        return (commands or COMMANDS)[args.command](args)
    except ApiError as exc:
        problem = {"error": "api", "status": exc.status, "code": exc.code}
        detail = describe_problem(exc)
        with contextlib.suppress(ValueError):  # in the game's words (Wind City's sections)
            detail = game_module(getattr(args, "game", "")).problem_detail(detail)
        fail(args, {**problem, "detail": detail, "problem": exc.problem})
        return 1
    except (UsageError, NotationError) as exc:
        fail(args, {"error": "usage", "detail": str(exc)})
        return 2
    except TransportError as exc:
        fail(args, {"error": "transport", "detail": str(exc)})
        return 1
    except KeyboardInterrupt:
        return 130
    except TimeoutError as exc:
        fail(args, {"error": "timeout", "detail": str(exc)})
        return 1
    except Exception as exc:  # never a traceback: one line saying what went wrong
        detail = str(exc).splitlines()[0] if str(exc) else ""
        fail(args, {"error": "unexpected", "detail": f"{type(exc).__name__}: {detail}"})
        return 1


def resolve_game_id(args: argparse.Namespace) -> None:
    """Fold the positional game id (or a leading one in ``move``) into ``args.game_id``.

    An invite link (``<service URL>/play?game=<id>&invite=<code>``, or the older
    ``<service URL>/games/<id>?invite=<code>``) stands for its game id,
    sets ``--invite`` and, when ``--url`` is not given, the service's URL."""
    pos = _from_link(args, getattr(args, "game_id_pos", None))
    moves = getattr(args, "move", None)
    if not pos and moves and len(moves) > 1 and GAME_ID.match(moves[0]):
        pos, args.move = moves[0], moves[1:]
    given = _from_link(args, getattr(args, "game_id", None))
    if pos and given and pos != given:
        raise UsageError(
            _("two game ids: {first} and -g {second}; give one", first=pos, second=given)
        )
    if pos:
        args.game_id = pos


def _from_link(args: argparse.Namespace, value: str | None) -> str | None:
    """The game id of ``value``: itself, or the id in an invite link (see resolve_game_id)."""
    if not value:
        return value
    match = LINK.match(value) or PLAY_LINK.match(value)
    query = parse_qs((match and match["query"]) or "")
    game_id = (match and match.groupdict().get("id")) or (query.get("game") or [None])[0]
    if not match or not game_id:
        return value
    watch = (query.get("watch") or [None])[0]
    if watch and hasattr(args, "watch_code") and not args.watch_code:
        args.watch_code = watch  # a watch link: its code reads a `link` game
    code = (query.get("invite") or [None])[0]
    if code and hasattr(args, "invite"):
        if args.invite and args.invite != code:
            raise UsageError(
                _(
                    "two invite codes: {code} (in the link) and --invite {invite}",
                    code=code,
                    invite=args.invite,
                )
            )
        args.invite = code
    base = match["base"]
    if base.startswith(("http://", "https://")) and hasattr(args, "url") and not args.url:
        args.url = base
    return game_id


__all__ = [
    "COMMANDS",
    "GAME_ID",
    "LINK",
    "Command",
    "Json",
    "UsageError",
    "cmd_bot",
    "cmd_cancel",
    "cmd_demo",
    "cmd_events",
    "cmd_join",
    "cmd_leave",
    "cmd_list",
    "cmd_log",
    "cmd_move",
    "cmd_moves",
    "cmd_new",
    "cmd_play",
    "cmd_quick",
    "cmd_rematch",
    "cmd_resign",
    "cmd_score",
    "cmd_show",
    "cmd_start",
    "cmd_verify",
    "cmd_watch",
    "console",
    "emit",
    "game_id_of",
    "host_token",
    "make_client",
    "parse_options",
    "player_key",
    "resolve_game_id",
    "run",
    "seat_token",
]
