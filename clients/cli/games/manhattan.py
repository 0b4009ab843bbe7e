"""Everything the CLI knows about Manhattan: drawing a view, the event lines, the legend
and the short move notation. Pure (no I/O); speaks only the service's JSON.

Notation: ``3 7 2`` (place: city 3, board lot 7, 2 floors; also ``place 3 7 2``),
``select 1 1 2 2 3 4``, ``discard 5``, ``forfeit 2``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich import box
from rich.cells import set_cell_size
from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .. import words
from ..i18n import N_, _, ngettext
from ..style import (
    Describe,
    Json,
    NotationError,
    ints,
    player_names,
    seat_colour,
    seat_label,
    simple_table,
)

Move = dict[str, Any]
NAME = "manhattan"
COMPACT_BESIDE = False
"""Watch screens put the compact board above the status (it is wide)."""


def cell_lines(lot: Json) -> list[str]:
    """The three text lines of one Manhattan lot cell.

    Line 1: the lot number and, when built, ``h<height> S<owner seat>``.
    Lines 2–3: the floors each seat holds in it, owner first, two per line: ``2:5 0:1``.
    """
    pieces = lot.get("pieces") or []
    if not pieces:
        return [f"{lot['lot']}", "", ""]
    held: dict[int, int] = {}
    for p in pieces:
        held[p["seat"]] = held.get(p["seat"], 0) + p["floors"]
    owner = lot.get("owner", pieces[-1]["seat"])
    parts = [f"{s}:{held[s]}" for s in sorted(held, key=lambda s: (s != owner, -held[s], s))]
    return [
        f"{lot['lot']} h{lot.get('height', sum(held.values()))} S{owner}",
        " ".join(parts[:2]),
        " ".join(parts[2:]),
    ]


def _cell(lot: Json) -> Text:
    """A lot cell: its first line in the owner's colour, each ``seat:floors`` in that seat's."""
    first, *held_lines = cell_lines(lot)
    owner = lot.get("owner")
    cell = Text(first, style="dim" if owner is None else f"bold {seat_colour(owner)}")
    for line in held_lines:
        parts = (Text(p, style=seat_colour(int(p.split(":")[0]))) for p in line.split())
        cell.append("\n").append_text(Text(" ").join(parts))
    return cell


def city_panel(city: Json) -> Panel:
    """One city as a 3×3 grid (lots 1 2 3 north row … 7 8 9 south row)."""
    grid = Table(box=box.SQUARE, show_header=False, padding=(0, 0), show_lines=True)
    for _col in range(3):
        grid.add_column(width=9, no_wrap=True)
    lots = {lot["lot"]: lot for lot in city.get("lots", [])}
    for first in (1, 4, 7):
        grid.add_row(
            *(_cell(lots.get(n, {"lot": n, "pieces": []})) for n in range(first, first + 3))
        )
    title = f"{city['city']} {words.city(city.get('name', ''))}".strip()
    return Panel(grid, title=title, box=box.ROUNDED, padding=(0, 0), expand=False)


def board(state: Json) -> Group:
    """The six cities as two rows of three."""
    cities = sorted(state.get("cities", []), key=lambda c: c["city"])
    return Group(
        *(Columns([city_panel(c) for c in cities[i : i + 3]]) for i in range(0, len(cities), 3))
    )


def status(state: Json) -> str:
    """Round, phase, start player, deck and the current promo card."""
    line = _(
        "round {round}/{rounds}  phase {phase}  start player {start}  deck {deck}",
        round=state.get("round"),
        rounds=state.get("rounds"),
        phase=words.phase(state.get("phase")),
        start=state.get("start_player"),
        deck=state.get("deck_size"),
    )
    promo = (state.get("promo") or {}).get("current")
    return line + _("  promo: {card}", card=promo) if promo else line


def players(view: Json) -> Table:
    """Players: side, stock by size, selected pieces, hand size, score; ◀ marks who acts."""
    state = view.get("state") or {}
    names = player_names(view)
    current = state.get("current_player") if state.get("phase") != "over" else None
    heads = (_("seat"), _("side"), _("stock"), _("selected"), _("hand"), _("score"))
    table = simple_table(_("Players"), heads)
    for p in state.get("players", []):
        label = seat_label(p["seat"], names)
        if p["seat"] == current:
            label.append(" ◀")
        stock = p.get("stock", {})
        table.add_row(
            label,
            p.get("side", ""),
            " ".join(f"{f}f×{stock.get(str(f), 0)}" for f in (1, 2, 3, 4)),
            " ".join(str(f) for f in p.get("selected", [])) or "-",
            str(p.get("hand_size", "")),
            str(p.get("score", 0)),
        )
    return table


def players_compact(view: Json) -> list[Text]:
    """Two lines per player for narrow screens: score, selected pieces and who acts; the
    pieces left by size."""
    state = view.get("state") or {}
    names = player_names(view)
    current = state.get("current_player") if state.get("phase") != "over" else None
    out = []
    for p in state.get("players", []):
        line = seat_label(p["seat"], names)
        line.append(_(" {score} pts", score=p.get("score", 0)))
        if p.get("selected"):
            line.append(_(" sel {pieces}", pieces="".join(str(f) for f in p["selected"])))
        if p["seat"] == current:
            line.append(" ◀", style="bold")
        stock = p.get("stock", {})
        left = " ".join(f"{f}f×{stock.get(str(f), 0)}" for f in (1, 2, 3, 4))
        out += [line, Text(f"  {left}", style="dim")]
    return out


def private(state: Json) -> Text | None:
    """Your own hand: printed card → board lot it allows (``None`` for spectators)."""
    hand = state.get("hand")
    if not hand:
        return None
    t = Text(_("Your hand (card→board lot): "), style="bold")
    return t.append("  ".join(f"{c['card']}→{c['lot']}" for c in hand))


def _placed(e: Json, who: str, name: Callable[[Any], str]) -> str:
    prev = e.get("previous_owner")
    took = _(" (takes it over)") if prev is not None and prev != e.get("owner") else ""
    floors = ngettext("{n} floor", "{n} floors", int(e.get("floors") or 0))
    return (
        _(
            "{who} built {floors} in city {city} lot {lot} → height {height}",
            who=who,
            floors=floors,
            city=e.get("city"),
            lot=e.get("lot"),
            height=e.get("height"),
        )
        + took
    )


def menu_hint(moves: list[Move]) -> str:
    """What the menu's entries read as, when that is not obvious."""
    return _("CITY LOT FLOORS") if any(m.get("type") == "place" for m in moves) else ""


def board_compact(state: Json, max_lines: int | None = None) -> Text:
    """The six cities in two rows of three, a lot as ``HEIGHT S SEAT`` (``3S1``) or ``.``."""
    cities = sorted(state.get("cities", []), key=lambda c: c["city"])
    out = Text()
    for first in range(0, len(cities), 3):
        row = cities[first : first + 3]
        names = (f"{c['city']} {words.city(c.get('name', ''))}" for c in row)
        out.append("   ".join(set_cell_size(name, 14) for name in names))
        out.append("\n")
        for lot_row in (1, 4, 7):
            for i, city in enumerate(row):
                lots = {lot["lot"]: lot for lot in city.get("lots", [])}
                for n in range(lot_row, lot_row + 3):
                    lot = lots.get(n) or {}
                    owner = lot.get("owner")
                    if owner is None or not lot.get("pieces"):
                        out.append(" .  ", style="dim")
                    else:
                        height = lot.get("height") or sum(p["floors"] for p in lot["pieces"])
                        cell = f"{height}S{owner}".ljust(4)
                        out.append(cell, style=f"bold {seat_colour(owner)}")
                    out.append(" " if n < lot_row + 2 else "")
                out.append("   " if i < len(row) - 1 else "\n")
    return out


def parse(text: str, legal: list[Move] | None = None) -> Move:
    """Parse a Manhattan move in short notation."""
    toks = text.replace(",", " ").split()
    if not toks:
        raise NotationError(_("empty move"))
    head = toks[0].lower()
    if head == "select":
        pieces = ints(toks[1:], "select")
        if not pieces:
            raise NotationError(_("select: name the pieces, e.g. select 1 1 2 2 3 4"))
        return {"type": "select", "pieces": pieces}
    if head == "discard":
        nums = ints(toks[1:], "discard")
        if len(nums) != 1:
            raise NotationError(_("discard: one lot, e.g. discard 5"))
        return {"type": "discard", "lot": nums[0]}
    if head == "forfeit":
        nums = ints(toks[1:], "forfeit")
        if len(nums) != 1:
            raise NotationError(_("forfeit: one piece size, e.g. forfeit 2"))
        return {"type": "forfeit", "floors": nums[0]}
    if head == "place":
        toks = toks[1:]
    nums = ints(toks, "place")
    if len(nums) != 3:
        raise NotationError(_("place: CITY LOT FLOORS, e.g. 3 7 2"))
    city, lot, floors = nums
    return {"type": "place", "city": city, "lot": lot, "floors": floors}


EVENTS: dict[str, Describe] = {
    "pieces_selected": lambda e, who, name: _(
        "{who} selected {pieces}", who=who, pieces=" ".join(map(str, e.get("pieces", [])))
    ),
    "piece_placed": _placed,
    "card_discarded": lambda e, who, name: _(
        "{who} discarded card {card} (lot {lot})", who=who, card=e.get("card"), lot=e.get("lot")
    ),
    "piece_forfeited": lambda e, who, name: _(
        "{who} forfeited a {floors}-floor piece", who=who, floors=e.get("floors")
    ),
    "round_scored": lambda e, who, name: _(
        "round {round} scored; totals: {totals}",
        round=e.get("round"),
        totals=", ".join(f"{name(s)} {t}" for s, t in enumerate(e.get("totals") or [])),
    ),
    "round_started": lambda e, who, name: _(
        "round {round} starts; {who} plays first",
        round=e.get("round"),
        who=name(e.get("start_player")),
    ),
    "deck_reshuffled": lambda e, *rest: _(
        "the deck is reshuffled ({size} cards)", size=e.get("size")
    ),
}

LEGEND = N_(
    "Legend: lots are numbered 1 2 3 / 4 5 6 / 7 8 9 (north row first). A built lot "
    "reads LOT hHEIGHT S<seat>: its height and the seat that owns it (S0 = seat 0); "
    "below, SEAT:FLOORS for every seat with floors there, owner first. "
    "Stock NfxK: K pieces of N floors left. Hand CARD→LOT: a card as printed and the "
    "board lot it lets you build on from your side of the table (any city). "
    "Moves: CITY LOT FLOORS (3 7 2 = a 2-floor piece on lot 7 of city 3), "
    "select 1 1 2 2 3 4, discard LOT, forfeit FLOORS."
)


_CATEGORIES = {
    "tallest": N_("tallest building"),
    "majority": N_("city majorities"),
    "buildings": N_("buildings"),
}


def score_rows(body: Json) -> tuple[list[tuple[str, list[Any]]], list[Any]]:
    """The ``GET /score`` body as labelled rows (per round and category) and the totals;
    a round's promotion card only when one was scored."""
    rows = []
    for r in body.get("rounds", []):
        for c, pts in r.get("categories", {}).items():
            if c == "promo":
                card = r.get("promo_scored") or r.get("promo")
                if not card:
                    continue
                label = _("promotion card {card}", card=card)
            else:
                label = _(_CATEGORIES[c]) if c in _CATEGORIES else c
            rows.append((_("round {round}: {label}", round=r["round"], label=label), pts))
    return rows, body.get("totals") or []


RESULT_COLUMNS = (
    ("total", N_("total"), str),
    ("tallest", N_("tie-break 1: tallest"), str),
    ("majorities", N_("tie-break 2: majorities"), str),
)
"""The standings' keys as the result table shows them: (key, heading msgid, format)."""

RESULT_ORDER = N_(
    "ties broken by the height of the tallest building one owns, then by the number "
    "of cities where one holds the majority"
)


def end_reason(result: Json) -> str:
    """Why the game ended, in words (Manhattan always ends after its last round)."""
    return ""


def problem_detail(detail: str) -> str:
    """A refusal's text as shown (Manhattan's need no translation)."""
    return detail


def format_move(move: Move) -> str | None:
    """The short notation of a move body (``None``: it has none)."""
    t = move.get("type")
    if t == "place":
        return f"{move['city']} {move['lot']} {move['floors']}"
    if t == "select":
        return "select " + " ".join(str(p) for p in move["pieces"])
    if t == "discard":
        return f"discard {move['lot']}"
    if t == "forfeit":
        return f"forfeit {move['floors']}"
    return None
