"""Benchmark: random complete 4-player Wind City games through the pure rules engine.

Run: python -m bench.windcity_engine [--games N] [--players P] [--rounds R] [--profile]
Prints games/s and moves/s on one core, per CPU second (robust on a shared machine):
first bot included (the games as played: setup, is_over, to_act, the bench's random bot,
apply_move), then the engine alone (the same games' moves replayed through setup,
is_over, to_act and apply_move, no bot). The random bot reads the state directly (it is
the bench's own bot) so that the figure measures the engine, not move listing; it draws
the same random numbers and makes the same moves as the first version of this bench, so
the games (moves/game, rejected tries/game) are the same as in the earlier figures.

Last, the playout path of the engine contract, as a search bot or the issue's engine
target (1,500 random 4-player games/s on one core) uses it: per game one ``fork`` of the
new game, then per move ``to_act``, ``legal_actions``, ``random.choice`` of a listed move
and ``play``; best of ``--rounds`` runs (CPU), with its ratio to the target. These games
pick among the listed moves (subset fields empty or ready-made), so they are not the
bot's games.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import permutations
from typing import Any

from services.windcity import rules as E
from services.windcity.rules import ENGINE, board
from services.windcity.rules.cards import CARDS, KAUF
from shared.engine import RuleError

# land section -> its non-beach squares (beach row apart)
_SECTION_SQUARES = {
    s: [sq for sq, (_, r) in board.POS.items() if board.SECTION[sq] == s and r != 5]
    for s in range(1, 5)
}
_BEACH = list(board.row_squares(5))
_BEACH_SET = frozenset(_BEACH)
_HURRICANE = [board.COLS[c] + "1" for c in range(12)]
_ROW = board.ROW
_ORDERS = [list(permutations((1, 2, 3, 4, 5), k)) for k in (1, 2, 3)]
# card -> size index -> ordering index -> (actions, usable without a target, has Kauf):
# the plan loop below looks its draw up instead of rebuilding the kinds each time.
_PLANS = {
    n: [
        [
            (
                list(acts),
                not any(card[a - 1][0] == KAUF for a in acts),
                not all(card[a - 1][0] == KAUF for a in acts),
            )
            for acts in by_size
        ]
        for by_size in _ORDERS
    ]
    for n, card in CARDS.items()
}


def _below(rnd: random.Random, n: int) -> int:
    """``rnd.choice``'s index (same draws: random.Random._randbelow_with_getrandbits)."""
    k = n.bit_length()
    r = rnd.getrandbits(k)
    while r >= n:
        r = rnd.getrandbits(k)
    return r


def _choice(rnd: random.Random, seq: list[str]) -> str:
    """``rnd.choice(seq)``, without its method calls."""
    return seq[_below(rnd, len(seq))]


def _placement(st: dict[str, Any], seat: int, rnd: random.Random) -> str:
    """A random square in a section where the seat still has quota (rarely rejected)."""
    n = st["num_players"]
    q = board.QUOTA[n]
    t = st["tally"][seat]
    open_ = [s for s in range(1, board.SECTIONS_IN_USE[n] + 1) if t[s] < q]
    s = open_[_below(rnd, len(open_))]
    if s == 1 and t[0] < board.BEACH_MAX[n] and (t[0] == 0 and t[1] == q - 1 or rnd.random() < 0.3):
        squares = _BEACH
    else:
        squares = _SECTION_SQUARES[s]
    size = len(squares)  # rnd.choice(squares), inline
    k = size.bit_length()
    r = rnd.getrandbits(k)
    while r >= size:
        r = rnd.getrandbits(k)
    return squares[r]


def bot_move(
    st: dict[str, Any], seat: int, rnd: random.Random, own: list[list[str]] | None = None
) -> dict[str, Any]:
    """A random legal move, composed from the state (any subset of renewals/insurance).

    ``own`` (per seat: the squares it built on, in building order) is the bot's memory
    of one game, filled on its first turn: houses are only built during setup and the
    board never re-orders them, so it lists a seat's houses in the board's order and the
    bot looks at its own squares instead of the whole board (same moves either way)."""
    phase = st["phase"]
    if phase == "houses":
        return {"type": "place_house", "square": _placement(st, seat, rnd)}
    if phase == "hurricane":
        return {"type": "place_hurricane", "square": _HURRICANE[rnd.randrange(12)]}
    houses = st["houses"]
    if own is None:
        own = []
    if not own:
        own.extend([] for _ in range(st["num_players"]))
        for sq, h in houses.items():
            own[h[0]].append(sq)
    mine = own[seat]
    money = st["money"][seat]
    rand = rnd.random
    gone = False  # some of our houses were destroyed: forget them afterwards
    if phase == "insure":
        squares = []
        for sq in mine:
            h = houses.get(sq)
            if h is None:
                gone = True
            elif not h[2] and rand() < 0.3:
                price = 6 if h[1] == 2 or sq in _BEACH_SET else 3
                if price <= money:
                    squares.append(sq)
                    money -= price
        if gone:
            mine[:] = [sq for sq in mine if sq in houses]
        return {"type": "insure", "squares": squares}
    # plan: our Kauf targets and our insured houses
    targets = []
    insured = []
    for sq in mine:
        h = houses.get(sq)
        if h is None:
            gone = True
            continue
        if h[2]:
            insured.append((sq, 3 if h[1] == 2 or _ROW[sq] == 5 else 2))
        if h[1] == 1 and _ROW[sq] != 5:
            targets.append(sq)
    if gone:
        mine[:] = [sq for sq in mine if sq in houses]
    plans = _PLANS[st["card"]]
    while True:
        # same distribution as rnd.sample(range(1, 6), rnd.randint(1, 3)), cheaper
        by_size = plans[int(rand() * 3)]
        acts, no_kauf, has_move = by_size[int(rand() * len(by_size))]
        if not has_move or (not no_kauf and not targets):
            continue
        break
    kauf = None if no_kauf else _choice(rnd, targets)
    renew = []
    for sq, price in insured:
        if sq != kauf and rand() < 0.5 and price <= money:
            renew.append(sq)
            money -= price
    return {"type": "plan", "actions": list(acts), "kauf": kauf, "renew": renew}


Record = list[tuple[int, dict[str, Any]]]


def play(seed: int, players: int, record: Record | None = None) -> tuple[int, int]:
    """One complete game; returns (accepted moves, rejected tries). With ``record``,
    appends every (seat, move) tried, for :func:`replay`."""
    rnd = random.Random(seed)
    st = E.setup(players, {}, seed)
    moves = rejected = 0
    apply, to_act, is_over = E.apply_move, E.to_act, E.is_over
    keep = record.append if record is not None else None
    own: list[list[str]] = []
    while not is_over(st):
        seats = to_act(st)
        seat = seats[0] if len(seats) == 1 else seats[_below(rnd, len(seats))]
        move = bot_move(st, seat, rnd, own)
        if keep is not None:
            keep((seat, move))
        try:
            st, _ = apply(st, seat, move)
        except RuleError:
            rejected += 1
            if rejected > 100_000:
                raise
            continue
        moves += 1
    return moves, rejected


def replay(seed: int, players: int, record: Record) -> None:
    """The engine's share of a game: the same calls as :func:`play`, minus the bot."""
    st = E.setup(players, {}, seed)
    apply, to_act, is_over = E.apply_move, E.to_act, E.is_over
    for seat, move in record:
        is_over(st)
        to_act(st)
        try:
            st, _ = apply(st, seat, move)
        except RuleError:
            continue
    assert is_over(st)


TARGET = 1500
"""The issue's engine target: random 4-player games/s on one core."""


def playouts(games: int, players: int, seed: int = 0) -> int:
    """``games`` random games on the playout path (fork, legal_actions, play); returns
    the number of moves played."""
    rnd = random.Random(seed)
    choice = rnd.choice
    fork, legal, play_, to_act, is_over = (
        ENGINE.fork,
        ENGINE.legal_actions,
        ENGINE.play,
        ENGINE.to_act,
        ENGINE.is_over,
    )
    moves = 0
    for g in range(games):
        st = fork(ENGINE.setup(players, {}, g))
        while not is_over(st):
            seats = to_act(st)
            seat = seats[0] if len(seats) == 1 else choice(seats)
            play_(st, seat, choice(legal(st, seat)))
            moves += 1
    return moves


def playout_cpu(games: int, players: int, rounds: int) -> tuple[float, int]:
    """The best CPU seconds of ``rounds`` runs of :func:`playouts`, and its moves."""
    best, moves = float("inf"), 0
    for _ in range(rounds):
        c0 = time.process_time()
        moves = playouts(games, players)
        best = min(best, time.process_time() - c0)
    return best, moves


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5, help="playout runs; the best counts")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args(argv)
    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx(
            "for i in range(args.games): play(i, args.players)\nplayouts(args.games, args.players)",
            globals(),
            locals(),
            "/tmp/wc.prof",
        )
        pstats.Stats("/tmp/wc.prof").sort_stats("tottime").print_stats(20)
        return
    records: list[Record] = [[] for _ in range(args.games)]
    t0, c0 = time.perf_counter(), time.process_time()
    moves = rejected = 0
    for i in range(args.games):
        m, r = play(i, args.players, records[i])
        moves += m
        rejected += r
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    c1 = time.process_time()
    for i in range(args.games):
        replay(i, args.players, records[i])
    engine = time.process_time() - c1
    cmd = "python -m bench.windcity_engine " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"command: {cmd.strip()}")
    print(
        f"windcity engine: {args.games} complete {args.players}-player games in {dt:.2f} s wall, "
        f"{cpu:.2f} s CPU: {args.games / cpu:.0f} games/s, {moves / cpu:.0f} moves/s (CPU) "
        f"({moves / args.games:.1f} moves/game, {rejected / args.games:.1f} rejected tries/game)"
    )
    print(
        f"engine alone (the same moves replayed through setup/to_act/is_over/apply_move, "
        f"no bot; {engine:.2f} s CPU): {args.games / engine:.0f} games/s, "
        f"{moves / engine:.0f} moves/s"
    )
    cpu, played = playout_cpu(args.games, args.players, args.rounds)
    rate = args.games / cpu
    print(
        f"playout path (fork per game; to_act, legal_actions, random.choice, play per move; "
        f"best of {args.rounds}, {cpu:.2f} s CPU): {rate:.0f} games/s, "
        f"{played / cpu:.0f} moves/s ({played / args.games:.1f} moves/game), "
        f"{rate / TARGET:.2f}x the {TARGET} games/s target"
    )


if __name__ == "__main__":
    main()
