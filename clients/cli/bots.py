"""Bot strategies, the loop that plays a seat over HTTP, and bot-only games.

A strategy is ``choose(view, legal, rng) -> move``: ``view`` is the service's game view
(``{"you", "to_act", "state", ...}``), ``legal`` the seat's legal moves. Strategies are
pure functions of what the seat may see, so they run the same against the service and
against an in-process engine (``clients/cli/evaluate.py``).

The strategies are the rules packages' own (``services/<game>/rules/bots.py``, the ones
the server's worker plays bot seats with): they look ahead with the engine's scoring, so
no rule is copied here. They are loaded when a bot is asked for, never at import, as
``verify`` loads the rules (``tests/cli/test_boundary.py``): the pure rules bring only
``shared.rng`` and ``shared.engine`` with them, never Flask or Redis.
"""

from __future__ import annotations

import importlib
import random
import threading
from collections.abc import Callable
from typing import Any

from .client import GameClient, client_for, is_over, my_turn
from .errors import Conflict, PreconditionFailed, UnprocessableEntity

Json = dict[str, Any]
Strategy = Callable[[Json, list[Json], random.Random], Json]
GAMES = ("manhattan", "windcity")
LOCAL_LEVELS = ("random", "greedy")
"""The levels this process can play (the rules packages' own strategies)."""
SERVER_LEVELS = ("medium", "strong")
"""The search levels, which only the services' worker plays (seated with ``add_bot``)."""


def strategy(game: str, name: str) -> Strategy:
    """The strategy ``name`` ("random" or "greedy") for ``game``, from its rules package."""
    if game not in GAMES:
        raise ValueError(f"no strategy {name!r} for {game!r}")
    bots: dict[str, Strategy] = importlib.import_module(f"services.{game}.rules.bots").BOTS
    if name not in bots:
        raise ValueError(f"no strategy {name!r} for {game!r}")
    return bots[name]


def random_strategy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """A uniformly random legal move (any game)."""
    return rng.choice(legal)


def play_seat(
    client: GameClient,
    game_id: str,
    choose: Strategy,
    *,
    rng: random.Random | None = None,
    on_move: Callable[[Json, Json], None] | None = None,
    turn_timeout: float | None = 300.0,
    poll_wait: float = 10.0,
) -> Json:
    """Play the client's seat (``client.token``) until the game ends; return the final view.

    Waits for each turn with :meth:`GameClient.wait_for_turn`; ``on_move(move, answer)``
    is called after every move made.
    """
    rng = rng or random.Random()

    def wait(view: Json | None = None) -> Json:
        return client.wait_for_turn(game_id, timeout=turn_timeout, poll_wait=poll_wait, view=view)

    fallback = False  # after our own choice was refused, play a listed move instead
    view = wait()
    while not is_over(view):
        if not my_turn(view):
            view = wait(view)
            continue
        view = client.view(game_id, legal_moves=True)  # the view and the moves in one read
        legal = view.pop("legal_moves", None) or []
        if not legal:
            view = wait()
            continue
        move = rng.choice(legal) if fallback else choose(view, legal, rng)
        try:
            answer = client.move(game_id, move, if_match=view.get("version"))
        except (Conflict, PreconditionFailed, UnprocessableEntity):
            fresh = client.view(game_id)  # the game moved on under us, or the move was bad
            fallback = fresh.get("version") == view.get("version")
            view = fresh
            continue
        fallback = False
        if on_move:
            on_move(move, answer)
        view = answer.get("game") or client.view(game_id)
    return view


def start_bots(
    game: str, url: str | None, gid: str, strategies: list[str], errors: list[BaseException]
) -> list[threading.Thread]:
    """Join one bot per strategy to an open game and start a thread playing each seat.

    The threads are daemons, so a bot's exception is appended to ``errors`` for the caller.
    """
    threads = []
    for i, name in enumerate(strategies):
        bot = client_for(game, url)
        bot.join(gid, f"{name}-bot-{i + 1}")
        choose = strategy(game, name)

        def run(bot: GameClient = bot, choose: Strategy = choose, i: int = i) -> None:
            try:
                play_seat(bot, gid, choose, rng=random.Random(i))
            except BaseException as exc:
                errors.append(exc)

        t = threading.Thread(target=run, name=f"bot-{game}-{i}", daemon=True)
        threads.append(t)
        t.start()
    return threads


def run_demo_game(
    game: str, url: str | None, seed: int | None, strategies: list[str]
) -> tuple[Json, Json]:
    """Create a game, seat one bot per strategy, start it, wait for the end: (view, score)."""
    host = client_for(game, url)
    gid = host.create(len(strategies), **({"seed": seed} if seed is not None else {}))["id"]
    errors: list[BaseException] = []
    threads = start_bots(game, url, gid, strategies, errors)
    host.start(gid)
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return host.view(gid), host.score(gid)
