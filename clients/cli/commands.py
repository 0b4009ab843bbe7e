"""The ``boardgames`` subcommands: one function per command, ``(args) -> exit code``.

Every command prints either rich output for people or, with ``--json``, one JSON
document on stdout for scripts. Errors go to stderr as one line (JSON with ``--json``),
never a traceback, and set the exit code: 1 when the service refused the request or
could not be reached, 2 for a usage or notation error.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import random
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from . import render
from .bots import play_seat, run_demo_game, start_bots, strategy
from .client import GAMES, TERMINAL_EVENTS, GameClient, client_for, is_over
from .errors import ApiError, NotFound, TransportError, describe_problem
from .games import game_module
from .notation import NotationError, format_move, parse_move
from .play import PlaySession
from .tokens_store import TokenStore
from .verify import verify

Json = dict[str, Any]
# A game id as the services make them (16 hex digits): lets ``move GAME_ID 3 7 2`` work.
GAME_ID = re.compile(r"^[0-9a-f]{16}$")
# An invite link (``<service>/games/<id>?invite=<code>``, or just its path) given for a game id.
LINK = re.compile(r"^(?P<base>.*?)/games/(?P<id>[^/?#]+)/?(?:\?(?P<query>[^#]*))?(?:#.*)?$")


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


# ----------------------------------------------------------------------------- helpers


def make_client(args: argparse.Namespace, token: str | None = None) -> GameClient:
    """A client of ``--url`` (default: the game's service URL)."""
    return client_for(args.game, args.url, token)


def game_id_of(args: argparse.Namespace) -> str:
    """``--game-id`` or the game last created/joined for this game."""
    gid = args.game_id or TokenStore().last_game(args.game)
    if not gid:
        raise UsageError("no --game-id given and no game remembered; create or join one first")
    return gid


def _client_and_game(args: argparse.Namespace) -> tuple[GameClient, str]:
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
        raise UsageError(f"no seat of yours is remembered for {game_id}; join it or pass --token")
    if args.seat is not None:
        if args.seat not in seats:
            raise UsageError(f"seat {args.seat} of {game_id} is not yours (yours: {sorted(seats)})")
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
    if args.private:
        opts["visibility"] = "unlisted"
    if args.when_full:
        opts["start"] = "when_full"
    opts.update(_option_pairs(args.option))
    return opts


def _create(game: str, client: GameClient, players: int, **options: Any) -> Json:
    """Create a game and remember its host token (and invite code, when unlisted)."""
    data = client.create(players, **options)
    store = TokenStore()
    store.add_host(game, data["id"], data["host_token"], client.base_url)
    if data.get("invite_code"):
        store.add_invite(game, data["id"], data["invite_code"], client.base_url)
    return data


def _join(
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
        raise UsageError("pass --name NAME (or register a player first: boardgames register NAME)")
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


def _option_pairs(items: list[str] | None) -> Json:
    """``--option key=value`` flags as options (JSON values, else strings)."""
    opts: Json = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        if not sep:
            raise UsageError(f"--option {item!r}: expected key=value")
        try:
            opts[key] = json.loads(raw)
        except ValueError:
            opts[key] = raw
    return opts


# ----------------------------------------------------------------------------- commands


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
    data = _create(args.game, client, players, **options)
    out: Json = {"id": data["id"], "host_token": data["host_token"], "game": data.get("game")}
    text = Text(f"created {args.game} game {data['id']}", style="bold")
    name = args.join or ("you" if bots else None)
    if name:
        joined = _join(args.game, client, data["id"], name, key=player_key(args))
        out.update(seat=joined["seat"], token=joined["token"], game=joined.get("game"))
        text.append(f"; you sit at seat {joined['seat']}")
    if bots:
        for _ in range(bots):
            client.add_bot(data["id"], args.strategy, host_token=data["host_token"])
        out["game"] = client.start(data["id"], data["host_token"])
        text.append(f"; started against {bots} {args.strategy} server {_bots(bots)}")
    if data.get("invite_code"):
        link = client.base_url + data.get("join_link", f"/games/{data['id']}")
        out.update(invite_code=data["invite_code"], join_link=link)
        text.append("\nprivate game: only those with the invite can join", style="not bold")
        text.append(f"\ninvite link: {link}\ninvite code: {data['invite_code']}", style="not bold")
        text.append(
            f"\njoin with: boardgames {args.game} join '{link}' --name NAME", style="not bold"
        )
    emit(args, out, text)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """One page of games as a table."""
    page = make_client(args).list_games(status=args.status, limit=args.limit)
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
    """Take a seat (bound to your player when you have one; ``--invite`` for a private game)."""
    key = player_key(args)
    if args.name is None and key is None:
        raise UsageError("pass --name NAME (or register a player first: boardgames register NAME)")
    client, gid = _client_and_game(args)
    data = _join(args.game, client, gid, args.name, key=key, invite=args.invite)
    out = {"id": gid, "seat": data["seat"], "token": data["token"], "game": data.get("game")}
    mine = " (your player's seat)" if key else ""
    emit(args, out, Text(f"joined {gid} as {data['name']}: seat {data['seat']}{mine}"))
    return 0


def cmd_quick(args: argparse.Namespace) -> int:
    """Quick match (``POST /matches``): a seat at an open public table, with your player."""
    key = player_key(args)
    if not key:
        raise UsageError("quick needs a player: boardgames register NAME first")
    client = make_client(args)
    options = _option_pairs(args.option)
    if args.clock:
        options["clock"] = {"turn_seconds": args.clock}
    if args.bots_after is not None:
        options["bots_after"] = args.bots_after
    try:
        data = client.quick_match(key, args.players, **options)
    except NotFound as exc:
        if exc.code != "not-found":
            raise
        detail = (
            f"{client.base_url} has no quick match (POST /matches answered 404): "
            f"create a game with 'boardgames {args.game} new' or join one instead"
        )
        _fail(args, {"error": "unsupported", "detail": detail})
        return 1
    gid, seat = data["game_id"], data["seat"]
    view = data.get("game") or {}
    name = render.player_names(view).get(seat) or str(seat)
    TokenStore().add_seat(args.game, gid, seat, data.get("token") or key, name, client.base_url)
    out = {"id": gid, "seat": seat, "token": data.get("token"), "game": view}
    status = view.get("status", "")
    waiting = "; waiting for players (it starts when full)" if status == "open" else ""
    text = Text(f"{args.game} game {gid}: you sit at seat {seat}, {status}{waiting}")
    text.append(f"\nplay it with: boardgames {args.game} play {gid}", style="not bold")
    emit(args, out, text)
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    client, gid = _client_and_game(args)
    view = client.start(gid, host_token(args, gid))
    emit(args, view, render.render_view(args.game, view))
    return 0


def cmd_resign(args: argparse.Namespace) -> int:
    client, gid = _client_and_game(args)
    view = client.resign(gid, token=seat_token(args, client, gid)[0])
    emit(args, view, Text(f"{gid}: you resigned; a bot plays your seat to the end"))
    return 0


def cmd_leave(args: argparse.Namespace) -> int:
    client, gid = _client_and_game(args)
    view = client.leave(gid, token=seat_token(args, client, gid)[0])
    emit(args, view, Text(f"{gid}: you left the game"))
    return 0


def cmd_cancel(args: argparse.Namespace) -> int:
    client, gid = _client_and_game(args)
    view = client.cancel(gid, host_token(args, gid))
    emit(args, view, Text(f"{gid}: {view.get('status')}"))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Your seat's view when you have one (and no ``--spectator``), else the public view."""
    client, gid = _client_and_game(args)
    token = None
    if not args.spectator:
        with contextlib.suppress(UsageError):  # no seat of yours: the public view
            token, _ = seat_token(args, client, gid)
    view = client.view(gid, token=token, spectator=token is None)
    emit(args, view, Group(render.render_view(args.game, view), render.legend(args.game)))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    client, gid = _client_and_game(args)
    token, seat = seat_token(args, client, gid)
    moves = client.legal_moves(gid, token=token)
    whose = "your seat" if seat is None else f"seat {seat}"
    text = Text(f"{len(moves)} legal move(s) for {whose}:\n")
    for i, m in enumerate(moves, 1):
        text.append(f"{i:>4}. {format_move(args.game, m)}\n")
    emit(args, {"seat": seat, "moves": moves}, text)
    return 0


def cmd_move(args: argparse.Namespace) -> int:
    client, gid = _client_and_game(args)
    token, seat = seat_token(args, client, gid)
    text = " ".join(args.move)
    legal = None
    if args.game == "windcity" and len(text.split()) == 1 and not text.startswith("{"):
        legal = client.legal_moves(gid, token=token)  # a bare square: house or hurricane?
    move = parse_move(args.game, text, legal)
    answer = client.move(gid, move, token=token, if_match=args.if_match)
    names = render.player_names(answer.get("game") or {})
    out = Text(f"seat {seat}: {format_move(args.game, move)}\n", style="bold")
    for ev in answer.get("events", []):
        out.append("  " + render.describe_event(args.game, ev, names) + "\n")
    emit(args, answer, out)
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    client, gid = _client_and_game(args)
    score = client.score(gid)
    if args.json:
        emit(args, score)
    else:
        emit(args, score, render.render_score(args.game, score, client.view(gid, spectator=True)))
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    client, gid = _client_and_game(args)
    log = client.log(gid)
    text = Text(
        "".join(render.describe_event(args.game, ev) + "\n" for ev in log.get("events", []))
    )
    if log.get("seed") is not None:
        text.append(f"seed: {log['seed']}\n")
    emit(args, log, text)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a finished game's seed commitment and replay its moves with the rules."""
    client, gid = _client_and_game(args)
    report = verify(args.game, client.log(gid), args.commitment)
    if args.json:
        emit(args, {"id": gid, "verified": report.ok, "checks": report.checks})
    else:
        text = Text()
        for check in report.checks:
            mark, style = ("ok  ", "green") if check["ok"] else ("FAIL", "red")
            text.append(f"{mark} ", style=style)
            text.append(f"{check['check']}: {check['detail']}\n")
        if report.ok:
            text.append(
                f"game {gid} verified: the shuffle was committed to and the game "
                "followed the rules",
                style="bold",
            )
        emit(args, None, text)
    if report.ok:
        return 0
    _fail(args, {"error": "unverified", "detail": f"game {gid} not verified: {report.failure()}"})
    return 1


def cmd_events(args: argparse.Namespace) -> int:
    client, gid = _client_and_game(args)
    data = client.events(gid, after=args.after, wait=args.wait)
    text = Text()
    for ev in data.get("events", []):
        text.append(f"{ev.get('id')}  {render.describe_event(args.game, ev)}\n")
    emit(args, data, text)
    return 0


def _bots(n: int) -> str:
    return "bot" if n == 1 else "bots"


def cmd_play(args: argparse.Namespace) -> int:
    """Interactive play: wait for your turn, draw the board, pick from a menu or type a move."""
    con = console()
    client = make_client(args)
    bots: list[threading.Thread] = []
    if args.bots and not args.game_id:
        seed = {"seed": args.seed} if args.seed else {}
        gid = args.game_id = _create(args.game, client, args.bots + 1, **seed)["id"]
        _join(args.game, client, gid, args.name or "you", key=player_key(args))
        bots = start_bots(args.game, client.base_url, gid, [args.strategy] * args.bots, [])
        client.start(gid)
        con.print(f"new game {gid}: you against {args.bots} {args.strategy} {_bots(args.bots)}")
    gid = args.game_id = game_id_of(args)
    if not TokenStore().seats(args.game, gid) and not args.token:
        key = player_key(args)
        seated = key is not None and client.view(gid, token=key).get("you") is not None
        if not seated:
            if not args.name and not key:
                raise UsageError("you have no seat in this game: pass --name to join it")
            _join(args.game, client, gid, args.name, key=key, invite=args.invite)
    client.token, _ = seat_token(args, client, gid)
    layout = "compact" if args.compact else "full" if args.full else "auto"
    code = PlaySession(con, args.game, client, gid, layout).run()
    for t in bots:
        t.join(timeout=5)
    return code


def cmd_watch(args: argparse.Namespace) -> int:
    """A live spectator view that redraws on every event."""
    client = make_client(args)
    gid = game_id_of(args)
    view = client.view(gid, spectator=True)
    events = _follow(client, gid, str(view.get("version", 0)), args.wait)
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
            recent.extend(render.describe_event(args.game, e, names) for e in evs)
            view = client.view(gid, spectator=True)
            live.update(screen())
    return 0


def _follow(client: GameClient, gid: str, after: str, wait: float) -> Iterator[list[Json]]:
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
    client, gid = _client_and_game(args)
    client.token = args.seat_token or seat_token(args, client, gid)[0]

    def say(move: Json, answer: Json) -> None:
        if not args.quiet and not args.json:
            print(f"{args.strategy} bot: {format_move(args.game, move)}", flush=True)

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
    "resign": cmd_resign,
    "leave": cmd_leave,
    "list": cmd_list,
    "join": cmd_join,
    "quick": cmd_quick,
    "start": cmd_start,
    "cancel": cmd_cancel,
    "show": cmd_show,
    "moves": cmd_moves,
    "move": cmd_move,
    "score": cmd_score,
    "log": cmd_log,
    "events": cmd_events,
    "verify": cmd_verify,
    "play": cmd_play,
    "watch": cmd_watch,
    "bot": cmd_bot,
    "demo": cmd_demo,
}


Command = Callable[[argparse.Namespace], int]


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
        _fail(args, {**problem, "detail": detail, "problem": exc.problem})
        return 1
    except (UsageError, NotationError) as exc:
        _fail(args, {"error": "usage", "detail": str(exc)})
        return 2
    except TransportError as exc:
        _fail(args, {"error": "transport", "detail": str(exc)})
        return 1
    except KeyboardInterrupt:
        return 130
    except TimeoutError as exc:
        _fail(args, {"error": "timeout", "detail": str(exc)})
        return 1
    except Exception as exc:  # never a traceback: one line saying what went wrong
        detail = str(exc).splitlines()[0] if str(exc) else ""
        _fail(args, {"error": "unexpected", "detail": f"{type(exc).__name__}: {detail}"})
        return 1


def resolve_game_id(args: argparse.Namespace) -> None:
    """Fold the positional game id (or a leading one in ``move``) into ``args.game_id``.

    An invite link (``<service URL>/games/<id>?invite=<code>``) stands for its game id,
    sets ``--invite`` and, when ``--url`` is not given, the service's URL."""
    pos = _from_link(args, getattr(args, "game_id_pos", None))
    moves = getattr(args, "move", None)
    if not pos and moves and len(moves) > 1 and GAME_ID.match(moves[0]):
        pos, args.move = moves[0], moves[1:]
    given = _from_link(args, getattr(args, "game_id", None))
    if pos and given and pos != given:
        raise UsageError(f"two game ids: {pos} and -g {given}; give one")
    if pos:
        args.game_id = pos


def _from_link(args: argparse.Namespace, value: str | None) -> str | None:
    """The game id of ``value``: itself, or the id in an invite link (see resolve_game_id)."""
    match = LINK.match(value or "")
    if not value or not match:
        return value
    code = (parse_qs(match["query"] or "").get("invite") or [None])[0]
    if code and hasattr(args, "invite"):
        if args.invite and args.invite != code:
            raise UsageError(f"two invite codes: {code} (in the link) and --invite {args.invite}")
        args.invite = code
    base = match["base"]
    if base.startswith(("http://", "https://")) and hasattr(args, "url") and not args.url:
        args.url = base
    return match["id"]


def _fail(args: argparse.Namespace, problem: Json) -> None:
    """The error as one line on stderr (JSON with ``--json``)."""
    if getattr(args, "json", False):
        print(json.dumps(problem, sort_keys=True), file=sys.stderr)
    else:
        code = f" {problem['code']}" if "code" in problem else ""
        print(f"error:{code} {problem['detail']}", file=sys.stderr)
