"""Hints and analysis after the game: ``hint`` (also a word of ``play``) and
``analysis`` (each ``(args) -> exit code``, see :mod:`clients.cli.commands`)."""

from __future__ import annotations

import argparse

from rich.text import Text

from .client import GameClient, Json
from .commands_kit import client_and_game, emit, fail, seat_token
from .errors import ApiError, describe_problem
from .i18n import _
from .notation import format_move

BAR = 20
"""Cells of a chance bar (100%)."""


def hint_line(game: str, client: GameClient, game_id: str, token: str | None = None) -> Text:
    """One line: the bot's move for the seat and the hints left, or the refusal."""
    try:
        hint = client.hint(game_id, token=token)
    except ApiError as exc:
        return Text(f"{exc.code}: {describe_problem(exc)}", style="red")
    said = _(
        "hint ({level} bot): {move} ({left} hints left)",
        level=hint["level"],
        move=format_move(game, hint["move"]),
        left=hint["left"],
    )
    return Text(said, style="bold cyan")


def cmd_hint(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    token, _seat = seat_token(args, client, gid)
    if args.json:
        emit(args, client.hint(gid, token=token))
        return 0
    line = hint_line(args.game, client, gid, token)
    emit(args, {}, line)
    return 1 if line.style == "red" else 0


def bar(chance: float) -> str:
    full = round(chance * BAR)
    return "█" * full + "·" * (BAR - full)


def render_analysis(game: str, body: Json, names: dict[int, str]) -> Text:
    """Each seat's chance at the start, every quarter of the game and the end, then
    each seat's biggest drops with the bot's preferred move."""
    text = Text()
    points = body["chances"]
    last = len(points) - 1
    marks = sorted({0, last // 4, last // 2, 3 * last // 4, last})
    text.append(_("chance to win, by move:") + "\n", style="bold")
    for seat in range(body["seats"]):
        name = names.get(seat, _("seat {seat}", seat=seat))
        cells = "  ".join(f"{points[i]['chances'][seat]:>4.0%}" for i in marks)
        text.append(f"  {name:<14} {cells}  {bar(points[last]['chances'][seat])}\n")
    head = "  ".join(f"{points[i]['index']:>4}" for i in marks)
    text.append(f"  {_('move'):<14} {head}\n", style="dim")
    for entry in body["drops"]:
        name = names.get(entry["seat"], _("seat {seat}", seat=entry["seat"]))
        text.append(_("{name}: biggest drops", name=name) + "\n", style="bold")
        if not entry["drops"]:
            text.append("  " + _("none") + "\n", style="dim")
        for d in entry["drops"]:
            line = _(
                "move {index}: {move}, {before:.0%} → {after:.0%}; the bot: {preferred} ({by:+.0%})",  # noqa: E501
                index=d["index"],
                move=format_move(game, d["move"]),
                before=d["before"],
                after=d["after"],
                preferred=format_move(game, d["preferred"]),
                by=d["by"],
            )
            text.append("  " + line + "\n")
    return text


def cmd_analysis(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    body = client.analysis(gid)
    if body.get("code") == "analysis-pending":
        fail(args, body)
        return 2
    view = client.view(gid, spectator=True)
    names = {p["seat"]: p["name"] for p in view.get("players", [])}
    emit(args, body, render_analysis(args.game, body, names))
    return 0
