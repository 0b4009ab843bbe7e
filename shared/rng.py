"""A seeded RNG (splitmix64) whose whole state is one integer kept in the game state.

Python's ``random.Random`` state is large and version-dependent; one integer is compact,
JSON-friendly and makes replays byte-identical. Pure: the rules of every game use it.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The initial generator state for a game seed (any int)."""
    return int(seed) & MASK


def next_u64(s: int) -> tuple[int, int]:
    """Advance the state: ``(new_state, 64-bit output)``."""
    s = (s + 0x9E3779B97F4A7C15) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


def below(s: int, n: int) -> tuple[int, int]:
    """``(new_state, a number in 0..n-1)``; the modulo bias is negligible for small ``n``."""
    s, z = next_u64(s)
    return s, z % n


def shuffle(s: int, items: list[T]) -> tuple[int, list[T]]:
    """``(new_state, a shuffled copy of items)`` by Fisher-Yates: ``below(s, i + 1)`` per
    item, its splitmix64 step inlined (setups and reshuffles call this)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        s = (s + 0x9E3779B97F4A7C15) & MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = (z ^ (z >> 31)) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return s, out
