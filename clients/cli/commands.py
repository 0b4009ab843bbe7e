"""The ``boardgames`` subcommands: one function per command, ``(args) -> exit code``.

Every command prints either rich output for people or, with ``--json``, one JSON
document on stdout for scripts. Errors go to stderr (as JSON with ``--json``) and set
the exit code: 1 for an API error, 2 for a usage or notation error, 3 when the service
cannot be reached.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from . import render
from .bots import play_seat, strategy
from .client import GAMES, GameClient, client_for, default_url, is_over, my_turn
from .errors import ApiError, ServiceUnavailable, TransportError
from .notation import NotationError, format_move, parse_move
from .tokens_store import TokenStore

Json = dict[str, Any]


class UsageError(Exception):
    """A command line that cannot be carried out (exit code 2)."""


def console() -> Console:
    return Console(highlight=False)


def emit(args: argparse.Namespace, data: Any, renderable: Any = None) -> None:
    """Print ``data`` as JSON (``--json``) or ``renderable`` (default: ``data`` as JSON)."""
    if getattr(args, "json", False) or renderable is None:
        print(json.dumps(data, indent=None if args.json else 2, sort_keys=True))
    else:
        console().print(renderable)


# ----------------------------------------------------------------------------- helpers


def make_client(args: argparse.Namespace, token: str | None = None) -> GameClient:
    return client_for(args.game, getattr(args, "url", None) or default_url(args.game), token)


def game_id_of(args: argparse.Namespace) -> str:
    """``--game-id`` or the game last created/joined for this game."""
    gid = getattr(args, "game_id", None) or TokenStore().last_game(args.game)
    if not gid:
        raise UsageError("no --game-id given and no game remembered; create or join one first")
    return gid


def seat_token(
    args: argparse.Namespace, client: GameClient, game_id: str
) -> tuple[str, int | None]:
    """The bearer token to act with: ``--token``, ``--seat``, your only seat, or the seat to act."""
    if getattr(args, "token", None):
        return args.token, getattr(args, "seat", None)
    seats = TokenStore().seats(args.game, game_id)
    if not seats:
        raise UsageError(f"no seat of yours is remembered for {game_id}; join it or pass --token")
    if getattr(args, "seat", None) is not None:
        if args.seat not in seats:
            raise UsageError(f"seat {args.seat} of {game_id} is not yours (yours: {sorted(seats)})")
        return seats[args.seat]["token"], args.seat
    if len(seats) == 1:
        seat = next(iter(seats))
        return seats[seat]["token"], seat
    to_act = client.view(game_id, spectator=True).get("to_act") or []
    for seat in to_act:
        if seat in seats:
            return seats[seat]["token"], seat
    seat = min(seats)
    return seats[seat]["token"], seat


def host_token(args: argparse.Namespace, game_id: str) -> str:
    tok = getattr(args, "token", None) or TokenStore().host_token(args.game, game_id)
    if not tok:
        raise UsageError(f"no host token remembered for {game_id}; pass --token")
    return tok


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
    for item in args.option or []:
        key, sep, raw = item.partition("=")
        if not sep:
            raise UsageError(f"--option {item!r}: expected key=value")
        try:
            opts[key] = json.loads(raw)
        except ValueError:
            opts[key] = raw
    return opts


def default_players(game: str) -> int:
    return 4 if game == "manhattan" else 4


# ----------------------------------------------------------------------------- commands


def cmd_new(args: argparse.Namespace) -> int:
    """Create a game; remember its host token (and your seat with ``--join NAME``)."""
    client = make_client(args)
    data = client.create(args.players or default_players(args.game), **parse_options(args))
    store = TokenStore()
    store.add_host(args.game, data["id"], data["host_token"], client.base_url)
    out: Json = {"id": data["id"], "host_token": data["host_token"], "game": data.get("game")}
    if args.join:
        joined = client.join(data["id"], args.join)
        store.add_seat(args.game, data["id"], joined["seat"], joined["token"], args.join)
        out.update(seat=joined["seat"], token=joined["token"], game=joined.get("game"))
    text = Text(f"created {args.game} game {data['id']}", style="bold")
    if args.join:
        text.append(f"; you sit at seat {out['seat']}")
    emit(args, out, text)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    client = make_client(args)
    page = client.list_games(status=args.status, limit=args.limit)
    table = Table(box=None)
    for col in ("id", "status", "seats", "players", "to act", "created"):
        table.add_column(col)
    for g in page.get("games", []):
        table.add_row(
            g["id"],
            g.get("status", ""),
            str((g.get("options") or {}).get("players", "")),
            ", ".join(p.get("name", "") for p in g.get("players", [])),
            " ".join(str(s) for s in g.get("to_act") or []),
            g.get("created_at", ""),
        )
    emit(args, page, table if page.get("games") else Text("no games"))
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    client = make_client(args)
    gid = game_id_of(args)
    data = client.join(gid, args.name)
    TokenStore().add_seat(args.game, gid, data["seat"], data["token"], args.name, client.base_url)
    out = {"id": gid, "seat": data["seat"], "token": data["token"], "game": data.get("game")}
    emit(args, out, Text(f"joined {gid} as {args.name}: seat {data['seat']}"))
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    client = make_client(args)
    gid = game_id_of(args)
    view = client.start(gid, host_token(args, gid))
    emit(args, view, render.render_view(args.game, view))
    return 0


def cmd_cancel(args: argparse.Namespace) -> int:
    client = make_client(args)
    gid = game_id_of(args)
    view = client.cancel(gid, host_token(args, gid))
    emit(args, view, Text(f"{gid}: {view.get('status')}"))
    return 0


def _view_for(args: argparse.Namespace, client: GameClient, gid: str) -> Json:
    if getattr(args, "spectator", False):
        return client.view(gid, spectator=True)
    try:
        token, _ = seat_token(args, client, gid)
    except UsageError:
        return client.view(gid, spectator=True)
    return client.view(gid, token=token)


def cmd_show(args: argparse.Namespace) -> int:
    client = make_client(args)
    gid = game_id_of(args)
    view = _view_for(args, client, gid)
    emit(args, view, render.render_view(args.game, view))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    client = make_client(args)
    gid = game_id_of(args)
    token, seat = seat_token(args, client, gid)
    moves = client.legal_moves(gid, token=token)
    text = Text(f"{len(moves)} legal move(s) for seat {seat}:\n")
    for i, m in enumerate(moves, 1):
        text.append(f"{i:>4}. {format_move(args.game, m)}\n")
    emit(args, {"seat": seat, "moves": moves}, text)
    return 0


def cmd_move(args: argparse.Namespace) -> int:
    client = make_client(args)
    gid = game_id_of(args)
    token, seat = seat_token(args, client, gid)
    text = " ".join(args.move)
    legal = None
    if args.game == "windcity" and len(text.split()) == 1 and not text.startswith("{"):
        legal = client.legal_moves(gid, token=token)  # a bare square: house or hurricane?
    move = parse_move(args.game, text, legal)
    answer = client.move(gid, move, token=token, if_match=args.if_match)
    view = answer.get("game") or {}
    names = render.player_names(view)
    out = Text(f"seat {seat}: {format_move(args.game, move)}\n", style="bold")
    for ev in answer.get("events", []):
        out.append("  " + render.describe_event(args.game, ev, names) + "\n")
    emit(args, answer, out)
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    client = make_client(args)
    gid = game_id_of(args)
    score = client.score(gid)
    view = client.view(gid, spectator=True) if not args.json else None
    emit(args, score, None if args.json else render.render_score(args.game, score, view))
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    client = make_client(args)
    gid = game_id_of(args)
    log = client.log(gid)
    text = Text()
    for ev in log.get("events", []):
        text.append(render.describe_event(args.game, ev) + "\n")
    if log.get("seed") is not None:
        text.append(f"seed: {log['seed']}\n")
    emit(args, log, text)
    return 0


def cmd_events(args: argparse.Namespace) -> int:
    client = make_client(args)
    gid = game_id_of(args)
    data = client.events(gid, after=args.after, wait=args.wait)
    text = Text()
    for ev in data.get("events", []):
        text.append(f"{ev.get('id')}  {render.describe_event(args.game, ev)}\n")
    emit(args, data, text)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Interactive play: wait for your turn, draw the board, pick from a menu or type a move."""
    con = console()
    client = make_client(args)
    store = TokenStore()
    gid = getattr(args, "game_id", None)
    bots: list[threading.Thread] = []
    if not gid and args.bots:
        created = client.create(args.bots + 1, **({"seed": args.seed} if args.seed else {}))
        gid = created["id"]
        store.add_host(args.game, gid, created["host_token"], client.base_url)
        joined = client.join(gid, args.name or "you")
        store.add_seat(args.game, gid, joined["seat"], joined["token"], args.name or "you")
        bots = start_bots(args.game, client.base_url, gid, args.bots, args.strategy)
        client.start(gid, created["host_token"])
        con.print(f"new game {gid}: you against {args.bots} {args.strategy} bot(s)")
    gid = gid or game_id_of(args)
    args.game_id = gid
    if not store.seats(args.game, gid) and not args.token:
        if not args.name:
            raise UsageError("you have no seat in this game: pass --name to join it")
        joined = client.join(gid, args.name)
        store.add_seat(args.game, gid, joined["seat"], joined["token"], args.name)
    token, seat = seat_token(args, client, gid)
    client.token = token
    names: dict[int, str] = {}
    cursor: str | None = None  # events up to this version have been shown

    while True:
        con.print(Text("waiting for your turn…", style="dim"))
        view = client.wait_for_turn(gid, poll_wait=20)
        names = render.player_names(view)
        if cursor is not None:  # what the others did since our last move
            for ev in client.events(gid, after=cursor, limit=1000).get("events", []):
                if ev.get("seat") != seat or ev.get("type") in ("round_scored", "game_over"):
                    con.print("  " + render.describe_event(args.game, ev, names), style="cyan")
        cursor = str(view.get("version"))
        con.print(render.render_view(args.game, view))
        if is_over(view):
            con.print(render.render_score(args.game, client.score(gid), view))
            break
        if not my_turn(view):
            continue
        legal = client.legal_moves(gid)
        if any(m.get("type") == "place" for m in legal):
            con.print("place moves read CITY LOT FLOORS (board lot):", style="dim")
        for i, m in enumerate(legal[:60], 1):
            con.print(f"{i:>3}. {format_move(args.game, m)}", end="   " if i % 4 else "\n")
        if len(legal) > 60:
            con.print(f"\n… and {len(legal) - 60} more: type a move in short notation")
        con.print()
        while True:
            try:
                raw = input("your move (number, notation, JSON, or q): ").strip()
            except EOFError:
                return 0
            if raw.lower() in ("q", "quit", "exit"):
                return 0
            try:
                move = legal[int(raw) - 1] if raw.isdigit() else parse_move(args.game, raw, legal)
                answer = client.move(gid, move, if_match=view.get("version"))
            except (NotationError, IndexError) as exc:
                con.print(f"[red]{exc or 'no such number'}[/red]")
                continue
            except ApiError as exc:
                con.print(f"[red]{exc.code}: {exc.detail}[/red]")
                continue
            for ev in answer.get("events", []):
                con.print("  " + render.describe_event(args.game, ev, names), style="green")
            cursor = str(answer.get("game", {}).get("version", cursor))
            break
    for t in bots:
        t.join(timeout=5)
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    """A live spectator view that redraws on every event."""
    client = make_client(args)
    gid = args.watch_id or game_id_of(args)
    recent: list[str] = []
    view = client.view(gid, spectator=True)
    last_id = str(view.get("version", 0))

    def screen() -> Group:
        tail = Text("\n".join(recent[-8:]), style="cyan")
        return Group(render.render_view(args.game, view), Text("recent events:"), tail)

    if args.json:  # for scripts: one JSON line per event, then the final view
        for ev in _follow(client, gid, last_id, args.wait):
            print(json.dumps(ev, sort_keys=True), flush=True)
        print(json.dumps(client.view(gid, spectator=True), sort_keys=True))
        return 0
    with Live(screen(), console=console(), refresh_per_second=4, transient=False) as live:
        for evs in _follow(client, gid, last_id, args.wait, batches=True):
            names = render.player_names(view)
            recent.extend(render.describe_event(args.game, e, names) for e in evs)
            view = client.view(gid, spectator=True)
            live.update(screen())
    return 0


def _follow(client: GameClient, gid: str, after: str, wait: float, batches: bool = False):
    """Yield a game's events (or batches of them) from ``after`` until it is over.

    Long-polls; a dropped connection or a 503 is retried from the last id seen.
    """
    last_id = after
    failures = 0
    while True:
        try:
            batch = client.events(gid, after=last_id, wait=wait)
        except (TransportError, ServiceUnavailable):
            failures += 1
            time.sleep(min(0.2 * failures, 5))
            continue
        failures = 0
        evs = batch.get("events") or []
        if evs:
            last_id = evs[-1].get("id") or batch.get("last_id") or last_id
            if batches:
                yield evs
            else:
                yield from evs
        if any(e.get("type") in ("game_finished", "game_cancelled") for e in evs):
            return
        if not evs and is_over(client.view(gid, spectator=True)):
            return


def cmd_bot(args: argparse.Namespace) -> int:
    """Play one seat with a strategy until the game ends."""
    gid = game_id_of(args)
    token = args.seat_token or args.token
    if not token:
        token, _ = seat_token(args, make_client(args), gid)
    client = make_client(args, token)
    choose = strategy(args.game, args.strategy)
    rng = random.Random(args.seed)

    def say(move: Json, answer: Json) -> None:
        if not args.quiet and not args.json:
            print(f"{args.strategy} bot: {format_move(args.game, move)}", flush=True)

    view = play_seat(client, gid, choose, rng=rng, on_move=say)
    emit(
        args,
        {"id": gid, "status": view.get("status"), "result": view.get("result")},
        render.render_result(view),
    )
    return 0


def start_bots(
    game: str, url: str, gid: str, count: int, strategy_names: str | list[str]
) -> list[threading.Thread]:
    """Join ``count`` bots to an open game and start a thread playing each seat."""
    names = strategy_names if isinstance(strategy_names, list) else [strategy_names] * count
    threads = []
    errors: list[BaseException] = []
    for i in range(count):
        bot = client_for(game, url)
        bot.join(gid, f"{names[i]}-bot-{i + 1}")
        choose = strategy(game, names[i])

        def run(bot: GameClient = bot, choose=choose, i: int = i) -> None:
            try:
                play_seat(bot, gid, choose, rng=random.Random(i))
            except BaseException as exc:  # reported by the caller
                errors.append(exc)

        t = threading.Thread(target=run, name=f"bot-{game}-{i}", daemon=True)
        t.errors = errors  # type: ignore[attr-defined]
        threads.append(t)
        t.start()
    return threads


def run_demo_game(game: str, url: str, players: int, seed: int | None, strategies: list[str]):
    """Create a game, fill it with bots, start it, wait for the end; return (view, score)."""
    host = client_for(game, url)
    opts = {"seed": seed} if seed is not None else {}
    created = host.create(players, **opts)
    gid = created["id"]
    threads = start_bots(game, url, gid, players, strategies)
    host.start(gid, created["host_token"])
    for t in threads:
        t.join()
    errors = getattr(threads[0], "errors", []) if threads else []
    if errors:
        raise errors[0]
    return host.view(gid), host.score(gid)


def cmd_demo(args: argparse.Namespace) -> int:
    """A game of each, four bots a side, played to the end against the running services."""
    con = console()
    results: dict[str, Any] = {}
    failures: list[BaseException] = []
    strategies = ["greedy", "random", "greedy", "random"]

    def one(game: str) -> None:
        try:
            url = (args.manhattan_url if game == "manhattan" else args.windcity_url) or (
                default_url(game)
            )
            t0 = time.perf_counter()
            view, score = run_demo_game(game, url, 4, args.seed, strategies)
            results[game] = {"view": view, "score": score, "seconds": time.perf_counter() - t0}
        except BaseException as exc:
            failures.append(exc)

    if not args.json:
        con.print("demo: a game of each with four bots (greedy, random, greedy, random)…")
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
        con.rule(f"{game}: game {r['view']['id']} ({r['seconds']:.1f}s)")
        con.print(render.render_view(game, r["view"]))
        con.print(render.render_score(game, r["score"], r["view"]))
    return 0


COMMANDS = {
    "new": cmd_new,
    "list": cmd_list,
    "join": cmd_join,
    "start": cmd_start,
    "cancel": cmd_cancel,
    "show": cmd_show,
    "moves": cmd_moves,
    "move": cmd_move,
    "score": cmd_score,
    "log": cmd_log,
    "events": cmd_events,
    "play": cmd_play,
    "watch": cmd_watch,
    "bot": cmd_bot,
}


def run(args: argparse.Namespace) -> int:
    """Run a parsed command line, mapping errors to messages and exit codes."""
    try:
        if args.command == "demo":
            return cmd_demo(args)
        return COMMANDS[args.command](args)
    except ApiError as exc:
        _fail(args, {"error": "api", "status": exc.status, "code": exc.code, "detail": exc.detail})
        return 1
    except (UsageError, NotationError, ValueError) as exc:
        _fail(args, {"error": "usage", "detail": str(exc)})
        return 2
    except TransportError as exc:
        _fail(args, {"error": "transport", "detail": str(exc)})
        return 3
    except KeyboardInterrupt:
        return 130


def _fail(args: argparse.Namespace, problem: Json) -> None:
    if getattr(args, "json", False):
        print(json.dumps(problem, sort_keys=True), file=sys.stderr)
    else:
        code = f" {problem['code']}" if "code" in problem else ""
        print(f"error:{code} {problem['detail']}", file=sys.stderr)
