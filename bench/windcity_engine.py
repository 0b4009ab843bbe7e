"""Benchmark: random complete 4-player Wind City games through the pure rules engine.

Run: python -m bench.windcity_engine [--games N] [--players P] [--profile]
Prints games/s and moves/s on one core, per CPU second (robust on a shared machine),
bot included, and for the engine alone. The random bot reads the state directly (it is
the bench's own bot) so that the figure measures the engine, not move listing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import permutations

from services.windcity import rules as E
from services.windcity.rules import board
from services.windcity.rules.cards import CARDS, KAUF
from shared.engine import RuleError

# land section -> its non-beach squares (beach row apart)
_SECTION_SQUARES = {
    s: [sq for sq, (_, r) in board.POS.items() if board.SECTION[sq] == s and r != 5]
    for s in range(1, 5)
}
_BEACH = list(board.row_squares(5))
_BEACH_SET = frozenset(_BEACH)
_ORDERS = [list(permutations((1, 2, 3, 4, 5), k)) for k in (1, 2, 3)]


def _placement(st: dict, seat: int, rnd: random.Random) -> str:
    """A random square in a section where the seat still has quota (rarely rejected)."""
    n = st["num_players"]
    q = board.QUOTA[n]
    t = st["tally"][seat]
    open_ = [s for s in range(1, board.SECTIONS_IN_USE[n] + 1) if t[s] < q]
    s = rnd.choice(open_)
    if s == 1 and t[0] < board.BEACH_MAX[n] and (t[0] == 0 and t[1] == q - 1 or rnd.random() < 0.3):
        return rnd.choice(_BEACH)
    return rnd.choice(_SECTION_SQUARES[s])


def bot_move(st: dict, seat: int, rnd: random.Random) -> dict:
    """A random legal move, composed from the state (any subset of renewals/insurance)."""
    phase = st["phase"]
    if phase == "hurricane":
        return {"type": "place_hurricane", "square": board.COLS[rnd.randrange(12)] + "1"}
    if phase == "houses":
        return {"type": "place_house", "square": _placement(st, seat, rnd)}
    houses = st["houses"]
    money = st["money"][seat]
    if phase == "plan":
        card = CARDS[st["card"]]
        targets = [
            sq for sq, h in houses.items() if h[0] == seat and h[1] == 1 and board.ROW[sq] != 5
        ]
        rand = rnd.random
        while True:
            # same distribution as rnd.sample(range(1, 6), rnd.randint(1, 3)), cheaper
            by_size = _ORDERS[int(rand() * 3)]
            acts = list(by_size[int(rand() * len(by_size))])
            kinds = [card[a - 1][0] for a in acts]
            if all(k == KAUF for k in kinds) or (KAUF in kinds and not targets):
                continue
            break
        kauf = rnd.choice(targets) if KAUF in kinds else None
        renew = []
        for sq, h in houses.items():
            if h[0] == seat and h[2] and sq != kauf and rnd.random() < 0.5:
                price = 3 if h[1] == 2 or board.ROW[sq] == 5 else 2
                if price <= money:
                    renew.append(sq)
                    money -= price
        return {"type": "plan", "actions": acts, "kauf": kauf, "renew": renew}
    squares = []
    for sq in [sq for sq, h in houses.items() if h[0] == seat and not h[2]]:
        if rnd.random() < 0.3:
            h = houses[sq]
            price = 6 if h[1] == 2 or sq in _BEACH_SET else 3
            if price <= money:
                squares.append(sq)
                money -= price
    return {"type": "insure", "squares": squares}


def play(seed: int, players: int) -> tuple[int, int, float]:
    """One complete game; returns (accepted moves, rejected tries, seconds in the engine)."""
    clock = time.perf_counter
    rnd = random.Random(seed)
    t = clock()
    st = E.setup(players, {}, seed)
    engine = clock() - t
    moves = rejected = 0
    apply, to_act = E.apply_move, E.to_act
    while True:
        t = clock()
        over = E.is_over(st)
        seats = None if over else to_act(st)
        engine += clock() - t
        if over:
            break
        seat = seats[0] if len(seats) == 1 else rnd.choice(seats)
        move = bot_move(st, seat, rnd)
        t = clock()
        try:
            st, _ = apply(st, seat, move)
        except RuleError:
            engine += clock() - t
            rejected += 1
            if rejected > 100_000:
                raise
            continue
        engine += clock() - t
        moves += 1
    return moves, rejected, engine


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args(argv)
    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx(
            "for i in range(args.games): play(i, args.players)", globals(), locals(), "/tmp/wc.prof"
        )
        pstats.Stats("/tmp/wc.prof").sort_stats("tottime").print_stats(20)
        return
    t0, c0 = time.perf_counter(), time.process_time()
    moves = rejected = 0
    engine = 0.0
    for i in range(args.games):
        m, r, e = play(i, args.players)
        moves += m
        rejected += r
        engine += e
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    engine *= cpu / dt  # the engine's share of the wall time, applied to CPU time
    cmd = "python -m bench.windcity_engine " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"command: {cmd.strip()}")
    print(
        f"windcity engine: {args.games} complete {args.players}-player games in {dt:.2f} s wall, "
        f"{cpu:.2f} s CPU: {args.games / cpu:.0f} games/s, {moves / cpu:.0f} moves/s (CPU) "
        f"({moves / args.games:.1f} moves/game, {rejected / args.games:.1f} rejected tries/game)"
    )
    print(
        f"engine alone (time inside setup/to_act/is_over/apply_move, bot excluded): "
        f"{args.games / engine:.0f} games/s, {moves / engine:.0f} moves/s"
    )


if __name__ == "__main__":
    main()
