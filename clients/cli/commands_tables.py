"""Tables and seats: ``new``, ``list``, ``join``, ``quick``, ``start``, ``cancel``,
``resign`` and ``leave`` (each ``(args) -> exit code``, see :mod:`clients.cli.commands`).
The host and seat tokens they get are kept in the token file (:mod:`clients.cli.tokens_store`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any
from urllib.parse import urlencode

from rich.table import Table
from rich.text import Text

from . import render, words
from .client import GameClient
from .commands_kit import (
    Json,
    UsageError,
    client_and_game,
    emit,
    fail,
    host_token,
    make_client,
    player_key,
    seat_token,
)
from .errors import NotFound
from .i18n import N_, _, ngettext
from .tokens_store import TokenStore

NEED_NAME = N_("pass --name NAME (or register a player first: boardgames register NAME)")
LIST_COLUMNS = (N_("id"), N_("status"), N_("seats"), N_("players"), N_("to act"), N_("created"))


def parse_options(args: argparse.Namespace) -> Json:
    """The create-game options from the flags and ``--option key=value`` (JSON values)."""
    opts: Json = {}
    if args.seed is not None:
        opts["seed"] = args.seed
    if args.game == "manhattan":
        if args.six_rounds:
            opts["six_rounds"] = True
        if args.promo_cards:
            opts["promo_cards"] = True
    else:
        if args.play_area:
            opts["play_area"] = args.play_area
        if args.max_turns is not None:
            opts["max_turns"] = args.max_turns
        if args.no_score_money:
            opts["score_money"] = False
    if args.private:
        opts["visibility"] = "unlisted"
    if args.when_full:
        opts["start"] = "when_full"
    opts.update(option_pairs(args.option))
    return opts


def create(game: str, client: GameClient, players: int, **options: Any) -> Json:
    """Create a game and remember its host token (and invite code, when unlisted)."""
    data = client.create(players, **options)
    store = TokenStore()
    store.add_host(game, data["id"], data["host_token"], client.base_url)
    if data.get("invite_code"):
        store.add_invite(game, data["id"], data["invite_code"], client.base_url)
    return data


def join(
    game: str,
    client: GameClient,
    game_id: str,
    name: str | None,
    *,
    key: str | None = None,
    invite: str | None = None,
) -> Json:
    """Take a seat and remember its token. With your player ``key`` the seat is bound to
    your player and ``name`` may be ``None`` (your player's name); ``invite`` defaults to
    the stored invite code of a private game you created."""
    if name is None and key is None:
        raise UsageError(_(NEED_NAME))
    store = TokenStore()
    invite = invite or store.invite(game, game_id)
    data = client.join(game_id, name, invite=invite, player_key=key)
    seat = data["seat"]
    if name is None:
        names = render.player_names(data.get("game") or {})
        name = names.get(seat) or str(seat)
    data.setdefault("name", name)
    token: str = data.get("token") or key or ""
    store.add_seat(game, game_id, seat, token, name, client.base_url)
    return data


def option_pairs(items: list[str] | None) -> Json:
    """``--option key=value`` flags as options (JSON values, else strings)."""
    opts: Json = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        if not sep:
            raise UsageError(_("--option {item}: expected key=value", item=repr(item)))
        try:
            opts[key] = json.loads(raw)
        except ValueError:
            opts[key] = raw
    return opts


def cmd_new(args: argparse.Namespace) -> int:
    """Create a game; remember its host token (and your seat with ``--join NAME``).

    With ``--bots N``: N server bots take seats after you and the game starts, so one
    person plays alone against the server (the worker plays the bots). With
    ``--private`` the game is unlisted: prints its invite link and code.
    """
    client = make_client(args)
    options = parse_options(args)
    if args.clock:
        options["clock"] = {"turn_seconds": args.clock}
    bots = args.bots or 0
    players = args.players or (bots + 1 if bots else 4)
    data = create(args.game, client, players, **options)
    out: Json = {"id": data["id"], "host_token": data["host_token"], "game": data.get("game")}
    text = Text(
        _("created {game} game {id}", game=words.game(args.game), id=data["id"]), style="bold"
    )
    name = args.join or ("you" if bots else None)
    if name:
        joined = join(args.game, client, data["id"], name, key=player_key(args))
        out.update(seat=joined["seat"], token=joined["token"], game=joined.get("game"))
        text.append(_("; you sit at seat {seat}", seat=joined["seat"]))
    if bots:
        for _n in range(bots):
            client.add_bot(data["id"], args.strategy, host_token=data["host_token"])
        out["game"] = client.start(data["id"], data["host_token"])
        text.append(
            ngettext(
                "; started against {n} {strategy} server bot",
                "; started against {n} {strategy} server bots",
                bots,
                strategy=words.level(args.strategy),
            )
        )
    if data.get("invite_code"):
        query = urlencode({"game": data["id"], "invite": data["invite_code"]})
        link = client.base_url + (data.get("join_link") or f"/play?{query}")
        out.update(invite_code=data["invite_code"], join_link=link)
        lines = (
            _("private game: only those with the invite can join"),
            _("invite link: {link}", link=link),
            _("invite code: {code}", code=data["invite_code"]),
            _("join with: {command}", command=f"boardgames {args.game} join '{link}' --name NAME"),
        )
        text.append("".join("\n" + line for line in lines), style="not bold")
    emit(args, out, text)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """One page of games as a table."""
    page = make_client(args).list_games(status=args.status, limit=args.limit)
    table = Table(box=None)
    for col in LIST_COLUMNS:  # only the players wrap: an id is never cut
        table.add_column(_(col), no_wrap=col != N_("players"), overflow="fold")
    for g in page.get("games", []):
        table.add_row(
            g["id"],
            words.status(g.get("status")),
            str((g.get("options") or {}).get("players", "")),
            ", ".join(p.get("name", "") for p in g.get("players", [])),
            " ".join(str(s) for s in g.get("to_act") or []),
            words.when(g.get("created_at"), short=True),
        )
    emit(args, page, table if page.get("games") else Text(_("no games")))
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    """Take a seat (bound to your player when you have one; ``--invite`` for a private game)."""
    key = player_key(args)
    if args.name is None and key is None:
        raise UsageError(_(NEED_NAME))
    client, gid = client_and_game(args)
    data = join(args.game, client, gid, args.name, key=key, invite=args.invite)
    out = {"id": gid, "seat": data["seat"], "token": data["token"], "game": data.get("game")}
    line = _("joined {id} as {name}: seat {seat}", id=gid, name=data["name"], seat=data["seat"])
    emit(args, out, Text(line + (_(" (your player's seat)") if key else "")))
    return 0


def cmd_quick(args: argparse.Namespace) -> int:
    """Quick match (``POST /matches``): a seat at an open public table, with your player."""
    key = player_key(args)
    if not key:
        raise UsageError(_("quick needs a player: boardgames register NAME first"))
    client = make_client(args)
    options = option_pairs(args.option)
    if args.clock:
        options["clock"] = {"turn_seconds": args.clock}
    if args.bots_after is not None:
        options["bots_after"] = args.bots_after
    try:
        data = client.quick_match(key, args.players, **options)
    except NotFound as exc:
        if exc.code != "not-found":
            raise
        detail = _(
            "{url} has no quick match (POST /matches answered 404): "
            "create a game with '{new}' or join one instead",
            url=client.base_url,
            new=f"boardgames {args.game} new",
        )
        fail(args, {"error": "unsupported", "detail": detail})
        return 1
    gid, seat = data["game_id"], data["seat"]
    view = data.get("game") or {}
    name = render.player_names(view).get(seat) or str(seat)
    TokenStore().add_seat(args.game, gid, seat, data.get("token") or key, name, client.base_url)
    out = {"id": gid, "seat": seat, "token": data.get("token"), "game": view}
    status = view.get("status", "")
    line = _(
        "{game} game {id}: you sit at seat {seat}, {status}",
        game=words.game(args.game),
        id=gid,
        seat=seat,
        status=words.status(status),
    )
    waiting = _("; waiting for players (it starts when full)") if status == "open" else ""
    text = Text(line + waiting)
    play = f"boardgames {args.game} play {gid}"
    text.append("\n" + _("play it with: {command}", command=play), style="not bold")
    emit(args, out, text)
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    view = client.start(gid, host_token(args, gid))
    emit(args, view, render.render_view(args.game, view))
    return 0


def cmd_resign(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    view = client.resign(gid, token=seat_token(args, client, gid)[0])
    emit(args, view, Text(_("{id}: you resigned; a bot plays your seat to the end", id=gid)))
    return 0


def cmd_leave(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    view = client.leave(gid, token=seat_token(args, client, gid)[0])
    emit(args, view, Text(_("{id}: you left the game", id=gid)))
    return 0


def cmd_cancel(args: argparse.Namespace) -> int:
    client, gid = client_and_game(args)
    view = client.cancel(gid, host_token(args, gid))
    emit(args, view, Text(f"{gid}: {words.status(view.get('status'))}"))
    return 0


def cmd_rematch(args: argparse.Namespace) -> int:
    """``POST /games/{id}/rematch``: the next game with the same table (the same one for
    every player), and your seat in it taken back with your old seat's token."""
    client, gid = client_and_game(args)
    token, _seat = seat_token(args, client, gid)
    data = client.rematch(gid, token=token)
    next_id = data["game_id"]
    store = TokenStore()
    if data.get("host_token"):
        store.add_host(args.game, next_id, data["host_token"], client.base_url)
    joined = client.join(next_id, None, player_key=token)
    names = render.player_names(joined.get("game") or {})
    name = names.get(joined["seat"]) or str(joined["seat"])
    mine = joined.get("token") or token
    store.add_seat(args.game, next_id, joined["seat"], mine, name, client.base_url)
    view = joined.get("game") or data.get("game") or {}
    out = {"id": next_id, "seat": joined["seat"], "token": mine, "game": view}
    text = Text(
        _(
            "next game {id}: you sit at seat {seat}; it starts when every seat is taken",
            id=next_id,
            seat=joined["seat"],
        ),
        style="bold",
    )
    play = f"boardgames {args.game} play {next_id}"
    text.append("\n" + _("play it with: {command}", command=play), style="not bold")
    emit(args, out, text)
    return 0
