"""What every game's rendering shares: seat colours, names and labels, plain-text output."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from rich import box
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from .i18n import _

Json = dict[str, Any]

Names = dict[int, str]

SEAT_COLOURS = ("red", "blue", "yellow", "green", "magenta")


def seat_colour(seat: int | None) -> str:
    """The display colour of a seat (white for nobody)."""
    return "white" if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def to_text(renderable: RenderableType, width: int = 120) -> str:
    """Render to plain text (no colour codes) at ``width`` columns."""
    console = Console(file=io.StringIO(), width=width, color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def player_names(view: Json) -> Names:
    """Seat → name from the service view's ``players`` list."""
    return {p["seat"]: p.get("name", f"P{p['seat']}") for p in view.get("players") or []}


def name_of(names: Names, seat: Any) -> str:
    return names.get(seat, f"P{seat}")


def seat_label(seat: int | None, names: Names) -> Text:
    """``seat:name`` in the seat's colour."""
    if seat is None:
        return Text("-")
    return Text(f"{seat}:{name_of(names, seat)}", style=f"bold {seat_colour(seat)}")


def seat_labels(seats: Iterable[int], names: Names) -> Text:
    return Text(", ").join(seat_label(s, names) for s in seats)


def winners_text(winners: Iterable[int], names: Names) -> str:
    return ", ".join(names.get(w, str(w)) for w in winners)


def winners_of(result: Json) -> list[int]:
    """The result's winners, without a seat that resigned: when every seat resigned the
    services rank them all first (each "winner"), yet nobody won."""
    resigned = {r.get("seat") for r in result.get("standings") or [] if r.get("resigned")}
    return [w for w in result.get("winners") or [] if w not in resigned]


def simple_table(title: str, columns: Iterable[str]) -> Table:
    """A simple table with these column headings."""
    out = Table(title=title, box=box.SIMPLE_HEAD)
    for col in columns:
        out.add_column(col)
    return out


def rating_value(value: Any) -> str:
    """A rating as players see it (the answers' ``rating``: everyone starts at 1000)."""
    return str(round(float(value)))


def rating_change(entry: Json) -> str:
    """One seat's line of a rated result's ``ratings``: ``1000 → 1138 (+138)``; a bot's
    fixed rating: ``1720 (bot, fixed)``; nothing for a result stored before answers
    carried ``rating``."""
    if "rating" not in (entry.get("before") or {}):
        return ""
    before = int(entry["before"]["rating"])
    after = int((entry.get("after") or {}).get("rating", before))
    if entry.get("bot"):
        return _("{rating} (bot, fixed)", rating=rating_value(after))
    return f"{rating_value(before)} → {rating_value(after)} ({after - before:+d})"


def win_share(value: Any) -> str:
    """A win share (wins over rated games) as a percentage."""
    return f"{100 * float(value or 0):.0f}%"


Describe = Callable[[Json, str, Callable[[Any], str]], str]
"""An event formatter: the event, the acting seat's name (``who``) and ``name(seat)``."""


class NotationError(ValueError):
    """The text is not a move in either notation."""


def ints(tokens: list[str], what: str) -> list[int]:
    """The tokens as integers, or NotationError naming ``what``."""
    try:
        return [int(t) for t in tokens]
    except ValueError as exc:
        got = repr(" ".join(tokens))
        raise NotationError(_("{what}: expected numbers, got {got}", what=what, got=got)) from exc
