"""The checks of a move's fields that several moves share: no unexpected field, a list
of distinct squares, a square holding one's own house."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shared.engine import RuleError

from . import board
from .state import House

_POS = board.POS


def bad_field(move: Iterable[str], allowed: tuple[str, ...]) -> None:
    """Refuse the first of ``move``'s fields that is not ``allowed``."""
    for key in move:
        if key not in allowed:
            raise RuleError("bad-move", "unexpected field {key!r}", key=key)


def square_list(value: Any, what: str) -> list[str]:
    """``value``, which must be a list of distinct squares (``what``: the field)."""
    if not isinstance(value, list):
        raise RuleError("bad-move", "{what} must be a list of squares", what=what)
    for sq in value:
        if not isinstance(sq, str) or sq not in _POS:
            raise RuleError("bad-square", "{sq!r} is not a square", sq=sq)
    if len(value) > 1 and len(set(value)) != len(value):
        raise RuleError("bad-move", "{what} lists a square twice", what=what)
    return value


def own_house(houses: dict[str, House], seat: int, square: str) -> House:
    """The house on ``square``, which must be ``seat``'s own."""
    h = houses.get(square)
    if h is None or h.owner != seat:
        raise RuleError("not-your-house", "you have no house on {square}", square=square)
    return h
