"""Playing and watching: ``play``, ``watch``, ``bot`` and ``demo`` (each
``(args) -> exit code``, see :mod:`clients.cli.commands`).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

from rich.console import RenderableType
from rich.live import Live

from . import chat, render, words
from .bots import LOCAL_LEVELS, play_seat, run_demo_game, start_bots, strategy
from .client import GAMES, TERMINAL_EVENTS, GameClient, is_over
from .commands_kit import (
    Json,
    UsageError,
    client_and_game,
    console,
    emit,
    game_id_of,
    make_client,
    player_key,
    seat_token,
)
from .commands_tables import create, join
from .event_feed import after_version
from .i18n import _, ngettext
from .notation import format_move
from .play import PlaySession
from .tokens_store import TokenStore


def cmd_play(args: argparse.Namespace) -> int:
    """Interactive play: wait for your turn, draw the board, pick from a menu or type a move."""
    con = console()
    client = make_client(args)
    bots: list[threading.Thread] = []
    if args.bots and not args.game_id:
        seed = {"seed": args.seed} if args.seed else {}
        made = create(args.game, client, args.bots + 1, **seed)
        gid = args.game_id = made["id"]
        join(args.game, client, gid, args.name or "you", key=player_key(args))
        if args.strategy in LOCAL_LEVELS:  # played by threads of this process
            bots = start_bots(args.game, client.base_url, gid, [args.strategy] * args.bots, [])
        else:  # a search level: the services' worker plays it
            for _n in range(args.bots):
                client.add_bot(gid, args.strategy, host_token=made["host_token"])
        client.start(gid, made["host_token"])
        con.print(
            ngettext(
                "new game {id}: you against {n} {strategy} bot",
                "new game {id}: you against {n} {strategy} bots",
                args.bots,
                id=gid,
                strategy=words.level(args.strategy),
            )
        )
    gid = args.game_id = game_id_of(args)
    if not TokenStore().seats(args.game, gid) and not args.token:
        key = player_key(args)
        seated = key is not None and client.view(gid, token=key).get("you") is not None
        if not seated:
            if not args.name and not key:
                raise UsageError(_("you have no seat in this game: pass --name to join it"))
            join(args.game, client, gid, args.name, key=key, invite=args.invite)
    client.token, _seat = seat_token(args, client, gid)
    layout = "compact" if args.compact else "full" if args.full else "auto"
    code = PlaySession(con, args.game, client, gid, layout).run()
    for t in bots:
        t.join(timeout=5)
    return code


def cmd_watch(args: argparse.Namespace) -> int:
    """A live spectator view that redraws on every event."""
    client = make_client(args)
    client.watch_code = args.watch_code  # a `link` game: its spectators read with the code
    gid = game_id_of(args)
    view = client.view(gid, spectator=True)
    events = follow(client, gid, after_version(view.get("version", 0)), args.wait)
    if args.json:  # for scripts: one JSON line per event, then the final view
        for ev in itertools.chain.from_iterable(events):
            print(json.dumps(ev, sort_keys=True), flush=True)
        print(json.dumps(client.view(gid, spectator=True), sort_keys=True))
        return 0
    recent: list[str] = []
    con = console()

    def screen() -> RenderableType:  # fitted to the terminal (80x24 included)
        width, height = con.size
        height = height if con.is_terminal else 10_000  # piped: no screen to fit
        return render.watch_screen(args.game, view, recent, width, height)

    with Live(screen(), console=con, refresh_per_second=4, transient=False) as live:
        for evs in events:
            names = render.player_names(view)
            recent.extend(chat.event_line(args.game, e, names) for e in evs)
            view = client.view(gid, spectator=True)
            live.update(screen())
    return 0


def follow(client: GameClient, gid: str, after: str, wait: float) -> Iterator[list[Json]]:
    """Yield each new batch of a game's events after ``after`` until the game is over."""
    for evs in client.event_batches(gid, after, wait=wait):
        if evs:
            yield evs
            if any(e.get("type") in TERMINAL_EVENTS for e in evs):
                return
        elif is_over(client.view(gid, spectator=True)):
            return


def cmd_bot(args: argparse.Namespace) -> int:
    """Play one seat with a strategy until the game ends."""
    client, gid = client_and_game(args)
    client.token = args.seat_token or seat_token(args, client, gid)[0]

    def say(move: Json, answer: Json) -> None:
        if not args.quiet and not args.json:
            line = _(
                "{strategy} bot: {move}",
                strategy=words.level(args.strategy),
                move=format_move(args.game, move),
            )
            print(line, flush=True)

    choose = strategy(args.game, args.strategy)
    view = play_seat(client, gid, choose, rng=random.Random(args.seed), on_move=say)
    out = {"id": gid, "status": view.get("status"), "result": view.get("result")}
    emit(args, out, render.render_result(view))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """A game of each, four bots a side, played to the end against the running services."""
    con = console()
    results: dict[str, Any] = {}
    failures: list[BaseException] = []
    strategies = ["greedy", "random", "greedy", "random"]

    def one(game: str) -> None:
        try:
            t0 = time.perf_counter()
            view, score = run_demo_game(game, getattr(args, f"{game}_url"), args.seed, strategies)
            results[game] = {"view": view, "score": score, "seconds": time.perf_counter() - t0}
        except BaseException as exc:
            failures.append(exc)

    if not args.json:
        con.print(_("demo: a game of each with four bots (greedy, random, greedy, random)…"))
    threads = [threading.Thread(target=one, args=(g,)) for g in GAMES]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]
    if args.json:
        out = {
            g: {
                "id": r["view"]["id"],
                "status": r["view"]["status"],
                "result": r["view"].get("result"),
                "score": r["score"],
                "players": r["view"].get("players"),
                "seconds": round(r["seconds"], 2),
            }
            for g, r in results.items()
        }
        print(json.dumps(out, sort_keys=True))
        return 0
    for game in GAMES:
        r = results[game]
        seconds = f"{r['seconds']:.1f}"
        con.rule(
            _("{game}: game {id} ({seconds}s)", game=game, id=r["view"]["id"], seconds=seconds)
        )
        con.print(render.render_view(game, r["view"]))
        con.print(render.render_score(game, r["score"], r["view"]))
    return 0
