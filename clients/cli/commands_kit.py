"""What every ``boardgames`` command shares: printing (rich for people, JSON for
scripts), errors as one line, and finding the game, the seat and the token to act with.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console

from .client import GameClient, client_for
from .i18n import _
from .tokens_store import TokenStore

Json = dict[str, Any]
Command = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A command line that cannot be carried out (exit code 2)."""


def console() -> Console:
    return Console(highlight=False)


def emit(args: argparse.Namespace, data: Any, renderable: Any = None) -> None:
    """Print ``data`` as JSON (``--json``) or ``renderable`` (default: ``data`` as JSON)."""
    if args.json or renderable is None:
        print(json.dumps(data, indent=None if args.json else 2, sort_keys=True))
    else:
        console().print(renderable)


def fail(args: argparse.Namespace, problem: Json) -> None:
    """The error as one line on stderr (JSON with ``--json``)."""
    if getattr(args, "json", False):
        print(json.dumps(problem, sort_keys=True), file=sys.stderr)
    elif "code" in problem:
        print(
            _("error: {detail} ({code})", code=problem["code"], detail=problem["detail"]),
            file=sys.stderr,
        )
    else:
        print(_("error: {detail}", detail=problem["detail"]), file=sys.stderr)


def make_client(args: argparse.Namespace, token: str | None = None) -> GameClient:
    """A client of ``--url`` (default: the game's service URL)."""
    return client_for(args.game, args.url, token)


def game_id_of(args: argparse.Namespace) -> str:
    """``--game-id`` or the game last created/joined for this game."""
    gid = args.game_id or TokenStore().last_game(args.game)
    if not gid:
        raise UsageError(_("no --game-id given and no game remembered; create or join one first"))
    return gid


def client_and_game(args: argparse.Namespace) -> tuple[GameClient, str]:
    return make_client(args), game_id_of(args)


def seat_token(
    args: argparse.Namespace, client: GameClient, game_id: str
) -> tuple[str, int | None]:
    """The bearer token to act with: ``--token``, ``--seat``, your only seat, or the seat to act."""
    if args.token:
        return args.token, args.seat
    seats = TokenStore().seats(args.game, game_id)
    if not seats:
        key = player_key(args)
        if key:  # a game joined elsewhere: the player key acts for the player's seat
            return key, args.seat
        raise UsageError(
            _("no seat of yours is remembered for {id}; join it or pass --token", id=game_id)
        )
    if args.seat is not None:
        if args.seat not in seats:
            raise UsageError(
                _(
                    "seat {seat} of {id} is not yours (yours: {yours})",
                    seat=args.seat,
                    id=game_id,
                    yours=sorted(seats),
                )
            )
        seat = args.seat
    elif len(seats) == 1:
        seat = next(iter(seats))
    else:
        to_act = client.view(game_id, spectator=True).get("to_act") or []
        seat = next((s for s in to_act if s in seats), min(seats))
    return seats[seat]["token"], seat


def player_key(args: argparse.Namespace) -> str | None:
    """Your stored player key (``boardgames register``), unless ``--no-player``."""
    if getattr(args, "no_player", False):
        return None
    player = TokenStore().player()
    return player["key"] if player else None


def host_token(args: argparse.Namespace, game_id: str) -> str:
    """``--token`` or the stored host token of ``game_id``."""
    tok = args.token or TokenStore().host_token(args.game, game_id)
    if not tok:
        raise UsageError(_("no host token remembered for {id}; pass --token", id=game_id))
    return tok
