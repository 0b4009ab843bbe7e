"""What a game needs to become an environment: its fixed enumeration of actions and its
fixed-size encoding of a seat's view (:class:`Codec`), and :class:`Features`, the writer
the encodings share."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from shared.engine import Engine, Move

Key = Hashable
"""What identifies a listed move game-wide: its type and fields (see each game's ``key``)."""


class Features:
    """Writes an observation: numbers scaled into 0..1, appended in a fixed order.

    Every method appends the same count of numbers whatever the values, so the layout
    (and the length) is fixed by the code alone; values beyond a scale are clipped to 1.
    """

    def __init__(self) -> None:
        self.values: list[float] = []

    def scalar(self, x: float, scale: float) -> None:
        """``x / scale`` (clipped into 0..1)."""
        self.values.append(min(max(x / scale, 0.0), 1.0))

    def scalars(self, xs: Iterable[float], scale: float) -> None:
        for x in xs:
            self.scalar(x, scale)

    def flag(self, on: bool) -> None:
        self.values.append(1.0 if on else 0.0)

    def one_hot(self, i: int | None, n: int) -> None:
        """``n`` numbers, 1 at ``i`` (none with ``i`` None)."""
        out = [0.0] * n
        if i is not None:
            out[i] = 1.0
        self.values.extend(out)

    def counts(self, items: Iterable[int], n: int, scale: float, start: int = 1) -> None:
        """How often each value ``start..start+n-1`` occurs in ``items``, over ``scale``."""
        out = [0.0] * n
        for x in items:
            out[x - start] += 1.0
        self.scalars(out, scale)

    def array(self) -> NDArray[np.float32]:
        return np.asarray(self.values, dtype=np.float32)


@dataclass(frozen=True)
class Codec:
    """One game as an environment sees it.

    ``actions`` enumerates every move kind the game can ever list (the action space is
    ``Discrete(len(actions))``); ``key`` maps a listed move to its entry. ``encode`` turns
    ``engine.view(state, seat)`` (with the seat and the number of players) into the
    observation vector: only the view, so a seat's observation never holds what it
    cannot see.
    """

    engine: Engine
    actions: Sequence[Key]
    key: Callable[[Move], Key]
    encode: Callable[[dict[str, Any], int, int], NDArray[np.float32]]
    index: dict[Key, int] = field(init=False)

    def __post_init__(self) -> None:
        index = {k: i for i, k in enumerate(self.actions)}
        assert len(index) == len(self.actions), "action kinds must be distinct"
        object.__setattr__(self, "index", index)

    @property
    def size(self) -> int:
        """The observation's length (that of a new game's first view)."""
        state = self.engine.setup(self.engine.MIN_PLAYERS, {}, 0)
        return len(self.encode(self.engine.view(state, 0), 0, self.engine.MIN_PLAYERS))


def relative(seat: int, me: int, n: int) -> int:
    """``seat`` as seen from ``me``: 0 is ``me``, 1 the next seat in play order..."""
    return (seat - me) % n
