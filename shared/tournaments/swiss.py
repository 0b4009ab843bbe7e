"""The Swiss pairing of tables for free-for-all games of 2-5 players.

``pair_round(ranked, size, min_size, met, byes_had, blocked)`` seats the players of
``ranked`` (standings order, leader first) at tables:

- **Table sizes.** As many tables of ``size`` as fit; the ``r`` players left over sit at
  one smaller table when ``r >= min_size`` (the game's minimum), else each gets a bye.
  Fewer players than ``min_size``: everyone gets a bye.
- **Byes** go to the players with the fewest byes so far, the lowest in the standings
  first among them (so no one gets a second bye while someone has had none).
- **The leaders together.** Tables are filled from the top of the standings: the best
  unseated player opens a table and the next players in order join it, the smaller
  table last. A player who would repeat an opponent (``met``) or sit with someone they
  block or who blocks them (``blocked``) is passed over for the next player in order
  within a window of ``WINDOW`` places, and the least costly candidate is taken when all
  conflict; then a repair pass swaps players (never the leader, and nobody of a first
  table without conflicts: the leaders stay together) between nearby tables when that
  lowers the conflicts. A blocked pair costs ``BLOCK_COST`` repeats.
- **Small rounds** (at most ``EXACT_UP_TO`` players after the byes) are searched
  exhaustively: the fewest conflicts with the leader at a full table, then the order
  above.

Linear in the players (times ``WINDOW`` and the table size): 10,000 players are paired
in well under a second (bench/tournament.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

WINDOW = 48
BLOCK_COST = 1000
EXACT_UP_TO = 10
REPAIR_REACH = 4  # tables either side a repair swap looks at

Met = Mapping[str, Mapping[str, int]]
Blocked = Mapping[str, frozenset[str] | set[str]]


@dataclass
class Round:
    tables: list[list[str]]
    byes: list[str] = field(default_factory=list)


def table_sizes(n: int, size: int, min_size: int) -> tuple[list[int], int]:
    """The table sizes (largest first) and the number of byes for ``n`` players."""
    if n < min_size:
        return [], n
    full, rest = divmod(n, size)
    sizes = [size] * full
    if rest >= min_size:
        return sizes + [rest], 0
    return sizes, rest


def choose_byes(ranked: Sequence[str], count: int, byes_had: Mapping[str, int]) -> list[str]:
    """``count`` players for a bye: fewest byes so far, lowest in the standings first."""
    if count <= 0:
        return []
    order = sorted(range(len(ranked)), key=lambda i: (byes_had.get(ranked[i], 0), -i))
    return [ranked[i] for i in order[:count]]


def pair_cost(a: str, b: str, met: Met, blocked: Blocked) -> int:
    cost = met.get(a, {}).get(b, 0)
    if b in blocked.get(a, ()) or a in blocked.get(b, ()):
        cost += BLOCK_COST
    return cost


def table_cost(table: Sequence[str], met: Met, blocked: Blocked) -> int:
    return sum(pair_cost(a, b, met, blocked) for a, b in combinations(table, 2))


def pair_round(
    ranked: Sequence[str],
    size: int,
    min_size: int,
    met: Met | None = None,
    byes_had: Mapping[str, int] | None = None,
    blocked: Blocked | None = None,
) -> Round:
    """Seat ``ranked`` (leader first) at tables; see the module's docstring."""
    if not 2 <= min_size <= size:
        raise ValueError("need 2 <= min_size <= size")
    if len(set(ranked)) != len(ranked):
        raise ValueError("a player is listed twice")
    met = met or {}
    blocked = blocked or {}
    sizes, nbyes = table_sizes(len(ranked), size, min_size)
    byes = choose_byes(ranked, nbyes, byes_had or {})
    out = set(byes)
    seated = [p for p in ranked if p not in out]
    if len(seated) <= EXACT_UP_TO:
        tables = exact(seated, sizes, met, blocked)
    else:
        tables = greedy(seated, sizes, met, blocked)
        repair(tables, met, blocked)
    return Round(tables=tables, byes=byes)


def greedy(
    seated: Sequence[str], sizes: Sequence[int], met: Met, blocked: Blocked
) -> list[list[str]]:
    """Tables from the top: the first unseated player opens, the nearest fitting join."""
    n = len(seated)
    nxt = list(range(1, n + 1))  # a linked list of the unseated, in standings order
    prv = list(range(-1, n - 1))
    head: int = 0

    def unlink(i: int) -> None:
        nonlocal head
        if prv[i] >= 0:
            nxt[prv[i]] = nxt[i]
        else:
            head = nxt[i]
        if nxt[i] < n:
            prv[nxt[i]] = prv[i]

    tables: list[list[str]] = []
    for s in sizes:
        opener = head
        unlink(opener)
        table = [seated[opener]]
        while len(table) < s:
            best, best_cost, j, looked = -1, -1, head, 0
            while j < n and looked < WINDOW:
                cost = sum(pair_cost(seated[j], t, met, blocked) for t in table)
                if best < 0 or cost < best_cost:
                    best, best_cost = j, cost
                    if cost == 0:
                        break
                j = nxt[j]
                looked += 1
            unlink(best)
            table.append(seated[best])
        tables.append(table)
    return tables


def _swap_gain(a: list[str], b: list[str], i: int, j: int, met: Met, blocked: Blocked) -> int:
    p, q = a[i], b[j]
    rest_a = a[:i] + a[i + 1 :]
    rest_b = b[:j] + b[j + 1 :]
    before = sum(pair_cost(p, x, met, blocked) for x in rest_a) + sum(
        pair_cost(q, x, met, blocked) for x in rest_b
    )
    after = sum(pair_cost(q, x, met, blocked) for x in rest_a) + sum(
        pair_cost(p, x, met, blocked) for x in rest_b
    )
    return before - after


def repair(tables: list[list[str]], met: Met, blocked: Blocked, passes: int = 3) -> None:
    """Swap players between nearby tables while a swap lowers the conflicts."""
    for _ in range(passes):
        improved = False
        for ta, a in enumerate(tables):
            if table_cost(a, met, blocked) == 0:
                continue
            lo, hi = max(0, ta - REPAIR_REACH), min(len(tables), ta + REPAIR_REACH + 1)
            improved |= _repair_table(tables, ta, range(lo, hi), met, blocked)
        if not improved:
            return


def _repair_table(
    tables: list[list[str]], ta: int, reach: range, met: Met, blocked: Blocked
) -> bool:
    a = tables[ta]
    improved = False
    leaders_apart = table_cost(tables[0], met, blocked) > 0  # else the leaders stay together
    for i in range(1 if ta == 0 else 0, len(a)):  # the leader stays at the first table
        if all(pair_cost(a[i], x, met, blocked) == 0 for x in a if x != a[i]):
            continue
        for tb in reach:
            if tb == ta or (tb == 0 and not leaders_apart):
                continue
            b = tables[tb]
            swapped = next(
                (
                    j
                    for j in range(1 if tb == 0 else 0, len(b))
                    if _swap_gain(a, b, i, j, met, blocked) > 0
                ),
                None,
            )
            if swapped is not None:
                a[i], b[swapped] = b[swapped], a[i]
                improved = True
                break
    return improved


def exact(
    seated: Sequence[str], sizes: Sequence[int], met: Met, blocked: Blocked
) -> list[list[str]]:
    """The partition with the fewest conflicts; among equals, the first from the top."""
    best: list[list[list[str]]] = []
    best_cost = [-1]

    def search(rest: list[str], left: list[int], acc: list[list[str]], cost: int) -> None:
        if best_cost[0] >= 0 and cost >= best_cost[0]:
            return
        if not rest:
            best[:] = [[list(t) for t in acc]]
            best_cost[0] = cost
            return
        opener, others = rest[0], rest[1:]
        sizes = sorted(set(left), reverse=True)
        for s in sizes[:1] if not acc else sizes:  # the leader at a full table
            remaining = list(left)
            remaining.remove(s)
            for mates in combinations(others, s - 1):
                table = [opener, *mates]
                taken = set(mates)
                acc.append(table)
                search(
                    [p for p in others if p not in taken],
                    remaining,
                    acc,
                    cost + table_cost(table, met, blocked),
                )
                acc.pop()
                if best_cost[0] == 0:
                    return

    search(list(seated), list(sizes), [], 0)
    tables = best[0] if best else []
    return sorted(tables, key=lambda t: -len(t))  # the smaller table last (a stable sort)
