"""Greedy vs random, in-process: ``python -m clients.cli.evaluate [--games 200]``.

Plays Manhattan games with the pure engine (``services/manhattan/rules``, imported here
only, for speed; the client itself never imports it): one greedy bot against random
bots, the greedy seat rotating, and prints the greedy bot's win rate next to the rate a
random bot would have (1 / players). ``--game windcity`` does the same for Wind City.
"""

from __future__ import annotations

import argparse
import importlib
import random
import time
from typing import Any

from .bots import strategy


def engine_view(engine: Any, state: dict, seat: int, game: str) -> dict:
    """The service-shaped view of ``seat`` built from the in-process engine."""
    return {
        "game": game,
        "status": "finished" if engine.is_over(state) else "running",
        "you": seat,
        "to_act": engine.to_act(state),
        "state": engine.view(state, seat),
    }


def play_game(
    game: str, strategies: list[str], seed: int, options: dict | None = None
) -> dict[str, Any]:
    """Play one game to the end with one strategy per seat; return the engine's result."""
    engine = importlib.import_module(f"services.{game}.rules").ENGINE
    n = len(strategies)
    choosers = [strategy(game, s) for s in strategies]
    rng = random.Random(seed)
    state = engine.setup(n, options or {}, seed)
    moves = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        legal = engine.legal_moves(state, seat)
        move = choosers[seat](engine_view(engine, state, seat, game), legal, rng)
        state, _ = engine.apply_move(state, seat, move)
        moves += 1
    return {"result": engine.result(state), "moves": moves}


def evaluate(game: str, games: int, players: int, seed: int = 0) -> dict[str, float]:
    """Win rate of one greedy seat against ``players - 1`` random seats over ``games`` games.

    A shared win counts as 1/k of a win for each of the k winners.
    """
    wins = 0.0
    for g in range(games):
        greedy_seat = g % players
        strategies = ["random"] * players
        strategies[greedy_seat] = "greedy"
        res = play_game(game, strategies, seed + g)["result"]
        winners = res["winners"]
        if greedy_seat in winners:
            wins += 1 / len(winners)
    return {
        "games": games,
        "players": players,
        "greedy_win_rate": wins / games,
        "baseline": 1 / players,
    }


def main(argv: list[str] | None = None) -> None:
    """Print the greedy bot's win rate (the numbers quoted in ``docs/cli.md``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    out = evaluate(args.game, args.games, args.players, args.seed)
    dt = time.perf_counter() - t0
    print(
        f"{args.game}: greedy won {out['greedy_win_rate']:.1%} of {args.games} games "
        f"against {args.players - 1} random bots (a random bot's share: {out['baseline']:.1%}); "
        f"{dt:.1f}s"
    )


if __name__ == "__main__":
    main()
