"""A game's board, moves and record: ``show``, ``moves``, ``move``, ``score``, ``log``,
``events`` and ``verify`` (each ``(args) -> exit code``, see :mod:`clients.cli.commands`).
"""

from __future__ import annotations

import argparse
import contextlib

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text

from . import render
from .commands_kit import UsageError, client_and_game, emit, fail, seat_token
from .i18n import N_, _, ngettext
from .notation import format_move, parse_move
from .verify import verify

CHECKS = {"over": N_("over"), "commitment": N_("commitment"), "replay": N_("replay")}
"""The names of ``verify``'s checks as shown (``--json`` keeps the keys)."""


def cmd_show(args: argparse.Namespace) -> int:
    """Your seat's view when you have one (and no ``--spectator``), else the public view."""
    client, gid = client_and_game(args)
    token = None
    if not args.spectator:
        with contextlib.suppress(UsageError):  # no seat of yours: the public view
            token, _seat = seat_token(args, client, gid)
    view = client.view(gid, token=token, spectator=token is None)
    emit(args, view, Group(render.render_view(args.game, view), render.legend(args.game)))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    token, seat = seat_token(args, client, gid)
    moves = client.legal_moves(gid, token=token)
    whose = _("your seat") if seat is None else _("seat {seat}", seat=seat)
    head = ngettext(
        "{n} legal move for {whose}:", "{n} legal moves for {whose}:", len(moves), whose=whose
    )
    text = Text(head + "\n")
    for i, m in enumerate(moves, 1):
        text.append(f"{i:>4}. {format_move(args.game, m)}\n")
    emit(args, {"seat": seat, "moves": moves}, text)
    return 0


def cmd_move(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    token, seat = seat_token(args, client, gid)
    text = " ".join(args.move)
    legal = None
    if args.game == "windcity" and len(text.split()) == 1 and not text.startswith("{"):
        legal = client.legal_moves(gid, token=token)  # a bare square: house or hurricane?
    move = parse_move(args.game, text, legal)
    answer = client.move(gid, move, token=token, if_match=args.if_match)
    names = render.player_names(answer.get("game") or {})
    said = _("seat {seat}: {move}", seat=seat, move=format_move(args.game, move))
    out = Text(said + "\n", style="bold")
    for ev in answer.get("events", []):
        out.append("  " + render.describe_event(args.game, ev, names) + "\n")
    emit(args, answer, out)
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    score = client.score(gid)
    if args.json:
        emit(args, score)
    else:
        emit(args, score, render.render_score(args.game, score, client.view(gid, spectator=True)))
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    log = client.log(gid)
    text = Text(
        "".join(render.describe_event(args.game, ev) + "\n" for ev in log.get("events", []))
    )
    if log.get("seed") is not None:
        text.append(_("seed: {seed}", seed=log["seed"]) + "\n")
    emit(args, log, text)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a finished game's seed commitment and replay its moves with the rules."""
    client, gid = client_and_game(args)
    report = verify(args.game, client.log(gid), args.commitment)
    if args.json:
        emit(args, {"id": gid, "verified": report.ok, "checks": report.checks})
    else:
        text = Text()
        for check in report.checks:
            mark, style = (_("ok"), "green") if check["ok"] else (_("FAIL"), "red")
            text.append(mark + " " * max(1, 5 - cell_len(mark)), style=style)
            name = str(check["check"])
            text.append(f"{_(CHECKS[name]) if name in CHECKS else name}: {check['detail']}\n")
        if report.ok:
            text.append(
                _(
                    "game {id} verified: the shuffle was committed to and the game "
                    "followed the rules",
                    id=gid,
                ),
                style="bold",
            )
        emit(args, None, text)
    if report.ok:
        return 0
    detail = _("game {id} not verified: {reason}", id=gid, reason=report.failure())
    fail(args, {"error": "unverified", "detail": detail})
    return 1


def cmd_events(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    data = client.events(gid, after=args.after, wait=args.wait)
    text = Text()
    for ev in data.get("events", []):
        text.append(f"{ev.get('id')}  {render.describe_event(args.game, ev)}\n")
    emit(args, data, text)
    return 0
