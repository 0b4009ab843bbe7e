"""A player's data: ``boardgames player ID`` (anyone's public profile),
``boardgames export`` (everything both services store about you, as one document) and
``boardgames delete-player`` (erase your player).

Both services share one player registry, so one key works at both; each service stores
and exports the games of its own game (``docs/api.md``, "The player's data"). The
export joins the two answers: ``{"player", "services": {"manhattan": <its export>,
"windcity": <its export>}}``; a service that does not answer is named in ``errors``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.text import Text

from . import ratings
from .client import GAMES, client_for, default_url
from .commands_kit import Command, UsageError, emit
from .errors import ApiError, TransportError, describe_problem
from .i18n import _, ngettext
from .tokens_store import TokenStore

Json = dict[str, Any]


def add_parser(games: Any) -> None:
    """``player``, ``export`` and ``delete-player``, under the top-level subparsers."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    for game in GAMES:
        common.add_argument(
            f"--{game}-url", help=_("the {game} service's URL", game=game), metavar="URL"
        )

    p = games.add_parser("player", parents=[common], help=_("a player's public profile"))
    p.add_argument("player_id", metavar="PLAYER_ID", help=_("the player's id"))

    p = games.add_parser(
        "export", parents=[common], help=_("everything both services store about you")
    )
    p.add_argument(
        "--output", "-o", metavar="FILE", help=_("write the document to FILE (default: print it)")
    )

    p = games.add_parser(
        "delete-player",
        parents=[common],
        help=_("erase your player: its key, and its name in every game"),
    )
    p.add_argument("--yes", action="store_true", help=_("yes, erase it (it cannot be undone)"))


def _urls(args: argparse.Namespace) -> dict[str, str | None]:
    return {game: getattr(args, f"{game}_url", None) for game in GAMES}


def _my_key() -> tuple[str, str]:
    """The stored player's key and the URL it was registered at."""
    player = TokenStore().player()
    if not player:
        raise UsageError(_("no player yet: boardgames register NAME"))
    return player["key"], player.get("url") or default_url(GAMES[0])


def cmd_player(args: argparse.Namespace) -> int:
    """``GET /players/{id}`` at each service: the name and the rating in each game."""
    found: Json | None = None
    rated: dict[str, Json | None] = {}
    failure: Exception | None = None
    for game, url in _urls(args).items():
        try:
            profile = client_for(game, url).player(args.player_id)
        except (ApiError, TransportError) as exc:
            failure = failure or exc
            continue
        found = found or profile
        rated[game] = (profile.get("ratings") or {}).get(game)
    if found is None:
        assert failure is not None
        raise failure
    out = {"id": found.get("id"), "name": found.get("name"), "ratings": rated}
    head = Text(str(found.get("name")), style="bold").append(
        _(" (player {id})", id=found.get("id")), style="not bold"
    )
    lines = [ratings.rating_line(game, rating) for game, rating in rated.items()]
    emit(args, out, Group(head, *lines))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``GET /players/me/export`` at each service, joined into one document."""
    key, _url = _my_key()
    services: dict[str, Json] = {}
    errors: list[Json] = []
    for game, url in _urls(args).items():
        client = client_for(game, url)
        try:
            services[game] = client.export_me(key)
        except (ApiError, TransportError) as exc:
            if len(errors) + 1 == len(GAMES) and not services:
                raise
            detail = describe_problem(exc) if isinstance(exc, ApiError) else str(exc)
            errors.append({"game": game, "url": client.base_url, "detail": detail})
    player = next((s.get("player") for s in services.values() if s.get("player")), None)
    document = {"player": player, "services": services, "errors": errors}
    for err in errors:
        print(_("warning: {game} ({url}): {detail}", **err), file=sys.stderr)
    if not args.output:
        print(json.dumps(document, indent=None if args.json else 2, ensure_ascii=False))
        return 0
    Path(args.output).write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    count = sum(len(s.get("games") or []) for s in services.values())
    said = ngettext(
        "exported {n} game from {services} to {path}",
        "exported {n} games from {services} to {path}",
        count,
        services=", ".join(services),
        path=args.output,
    )
    emit(args, {"output": args.output, "games": count, "errors": errors}, Text(said))
    return 0


def cmd_delete_player(args: argparse.Namespace) -> int:
    """``DELETE /players/me`` (at the service where you registered), then forget the key."""
    key, url = _my_key()
    if not args.yes:
        raise UsageError(
            _(
                "this erases your player (its key stops working; your name is removed "
                "from every game); add --yes to do it"
            )
        )
    client_for(GAMES[0], url).delete_me(key)
    TokenStore().forget_player()
    said = _("your player is erased; its key is forgotten here")
    emit(args, {"deleted": True}, Text(said))
    return 0


COMMANDS: dict[str, Command] = {
    "player": cmd_player,
    "export": cmd_export,
    "delete-player": cmd_delete_player,
}
