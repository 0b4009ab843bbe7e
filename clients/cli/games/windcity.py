"""Everything the CLI knows about Wind City: drawing a view, the event lines
(``windcity_events.py``), the legend and the short move notation
(``windcity_notation.py``: ``C7``, ``plan 1,3 kauf=C9``, ``insure D8 E9``). Pure (no
I/O); speaks only the service's JSON.
"""

from __future__ import annotations

import re
from typing import Any

from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .. import words
from ..i18n import N_, _
from ..style import (
    Json,
    player_names,
    seat_colour,
    seat_label,
    simple_table,
)
from .windcity_events import EVENTS as EVENTS  # the event lines (a module of their own)
from .windcity_notation import format_move as format_move  # the notation (a module of its own)
from .windcity_notation import parse as parse

Move = dict[str, Any]
NAME = "windcity"
COMPACT_BESIDE = True
"""Watch screens may put the (narrow) compact board beside the status."""

COLS = "ABCDEFGHIJKL"

SEA_LAST_ROW = 4

BEACH_ROW = 5


def section_rows(section: int) -> tuple[int, int]:
    """The first and last row of land section ``section`` (1–4): L1 is rows 5–9, L2
    10–14, L3 15–19, L4 20–24 (the beach row belongs to L1)."""
    return 5 * section, 5 * section + 4


def _section_tag(state: Json, row: int) -> str:
    """`` L2`` on the northernmost row of each land section in use, else ``""``."""
    sections = int(state.get("land_sections") or 4)
    for section in range(1, sections + 1):
        if row == section_rows(section)[1]:
            return f" L{section}"
    return ""


def _terrain(row: int) -> tuple[str, str]:
    """The text of an empty square in ``row`` and the row's background: sea, beach, land."""
    if row <= SEA_LAST_ROW:
        return " ~ ", "on blue"
    if row == BEACH_ROW:
        return " . ", "on yellow"
    return " · ", "on green"


def square_text(state: Json, square: str) -> str:
    """The 3-character text of one Wind City square.

    `` @ `` hurricane; ``<seat><kind><insured>`` a house, kind ``h`` house, ``B`` beach
    house, ``D`` duplex, ``*`` insured (e.g. ``2B*``); ``(5)``/``( )`` an observatory
    with/without its marker; `` ~ `` sea; `` . `` empty beach; `` · `` empty land.
    """
    if state.get("hurricane") == square:
        return " @ "
    house = _houses(state).get(square)
    if house is not None:
        kind = "D" if house.get("duplex") else ("B" if house.get("beach") else "h")
        return f"{house['owner']}{kind}{'*' if house.get('insured') else ' '}"
    for o in state.get("observatories") or []:
        if o["square"] == square:
            return "(5)" if o.get("marker") else "( )"
    return _terrain(int(square[1:]))[0]


def _houses(state: Json) -> dict[str, Json]:
    return {h["square"]: h for h in state.get("houses") or []}


def board(state: Json) -> Panel:
    """The play area, north edge at the top, row 1 (sea) at the bottom, columns A–L."""
    houses = _houses(state)
    columns = "   " + "".join(f" {c} " for c in COLS)
    text = Text(columns + "\n")
    for row in range(int(state.get("north_edge") or 24), 0, -1):
        bg = _terrain(row)[1]
        text.append(f"{row:>2} ")
        for col in COLS:
            sq = f"{col}{row}"
            cell = square_text(state, sq)
            if cell == " @ ":
                style = "bold white on red"
            elif sq in houses:
                style = f"bold {seat_colour(houses[sq]['owner'])} {bg}"
                if houses[sq].get("insured"):
                    style += " underline"
            else:
                style = f"black {bg}"
            text.append(cell, style=style)
        text.append(f" {row}")
        text.append(_section_tag(state, row), style="dim")
        text.append("\n")
    text.append(columns)
    text.append("\n" + _("@ hurricane  Nh house of seat N  NB beach house  ND duplex  * insured"))
    text.append("\n" + _("(5) observatory with marker  ~ sea  . beach  · land"), style="dim")
    text.append("\n" + sections_line(state), style="dim")
    return Panel(text, title="Wind City", expand=False)


def sections_line(state: Json) -> str:
    """The land sections in use and the houses each player may build in each."""
    sections = int(state.get("land_sections") or 4)
    rows = ", ".join("L{} {}–{}".format(s, *section_rows(s)) for s in range(1, sections + 1))
    quota = state.get("quota")
    each = _(": {quota} houses each", quota=quota) if quota else ""
    return _("sections (rows) {rows}", rows=rows) + each


def status(state: Json) -> str:
    """Turn, phase, where the hurricane is and the deck size."""
    return _(
        "turn {turn}/{max_turns}  phase {phase}  hurricane {hurricane}  deck {deck}",
        turn=state.get("turn"),
        max_turns=state.get("max_turns"),
        phase=words.phase(state.get("phase")),
        hurricane=state.get("hurricane") or "-",
        deck=state.get("deck_size"),
    )


def players(view: Json) -> Table:
    """Players: money, houses on the board and in stock, still in the game."""
    state = view.get("state") or {}
    names = player_names(view)
    pending = set(state.get("pending") or [])
    heads = (_("seat"), _("money"), _("on board"), _("stock"), _("in game"))
    table = simple_table(_("Players"), heads)
    for p in state.get("players", []):
        label = seat_label(p["seat"], names)
        if p["seat"] == state.get("active"):
            label.append(_(" ◀ active"))
        elif p["seat"] in pending:
            label.append(_(" (insuring)"))
        table.add_row(
            label,
            str(p.get("money")),
            str(p.get("houses_on_board")),
            str(p.get("stock")),
            _("playing") if p.get("in_game", True) else _("out"),
        )
    return table


def players_compact(view: Json) -> list[Text]:
    """One line per player for narrow screens: money, houses built and left, who acts."""
    state = view.get("state") or {}
    names = player_names(view)
    pending = set(state.get("pending") or [])
    out = []
    for p in state.get("players", []):
        line = seat_label(p["seat"], names)
        line.append(
            _(" ${money} {built} built", money=p.get("money"), built=p.get("houses_on_board"))
        )
        if p.get("stock"):
            line.append(_(" {stock} left", stock=p.get("stock")))
        if not p.get("in_game", True):
            line.append(" " + _("out"), style="dim")
        elif p["seat"] == state.get("active"):
            line.append(" ◀", style="bold")
        elif p["seat"] in pending:
            line.append(_(" insuring"))
        out.append(line)
    return out


def _action(a: Json) -> str:
    if a.get("kind") == "kauf":
        return f"Kauf·{a.get('cost')}"
    return f"{a.get('dir')}{a.get('steps')}·{a.get('cost')}"


def _priced(items: list[Json]) -> str:
    return " ".join(f"{r['square']}({r['price']})" for r in items)


def private(state: Json) -> Text | None:
    """Your drawn card, plan, renewable and insurable houses (only in your own view)."""
    you = state.get("you")
    if not isinstance(you, dict):
        return None
    t = Text()
    if you.get("card"):
        card = you["card"]
        acts = "  ".join(f"{i}:{_action(a)}" for i, a in enumerate(card["actions"], 1))
        t.append(_("Your card {number}: {actions}", number=card.get("number"), actions=acts))
        t.append("\n", style="bold")
    if you.get("plan"):
        plan = you["plan"]
        actions, kauf = plan.get("actions"), plan.get("kauf")
        t.append(_("Your plan: actions {actions} kauf={kauf}", actions=actions, kauf=kauf) + "\n")
    if you.get("renewable"):
        t.append(_("renewable: {houses}", houses=_priced(you["renewable"])) + "\n")
    if you.get("insurable"):
        t.append(_("insurable: {houses}", houses=_priced(you["insurable"])))
    return t if t.plain.strip() else None


def _busy_rows(state: Json) -> set[int]:
    """Rows with something on them: a house, the hurricane or an observatory (and while
    houses are placed, each section's labelled row)."""
    squares = [h["square"] for h in state.get("houses") or []]
    squares += [o["square"] for o in state.get("observatories") or []]
    if state.get("hurricane"):
        squares.append(state["hurricane"])
    busy = {int(sq[1:]) for sq in squares}
    if state.get("phase") == "houses":
        busy |= {row for row in range(1, 25) if _section_tag(state, row)}
    return busy


def _fold(rows: list[int], busy: set[int], run: int) -> list[tuple[int, int]]:
    """Rows north to south as ``(row, row)``, runs of ``run`` or more empty rows as
    one ``(first, last)`` entry."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j] not in busy:
            j += 1
        if j - i >= run:
            out.append((rows[i], rows[j - 1]))
            i = j
        else:
            out.append((rows[i], rows[i]))
            i += 1
    return out


def board_compact(state: Json, max_lines: int | None = None) -> Text:
    """The play area without a frame in at most ``max_lines`` lines: runs of empty rows
    fold into one line each; if that is still too tall, the rows around the hurricane."""
    busy = _busy_rows(state)
    houses = _houses(state)
    rows = list(range(int(state.get("north_edge") or 24), 0, -1))
    budget = (max_lines or 10_000) - 1  # the column header takes a line
    entries = _fold(rows, busy, 3)
    if len(entries) > budget:
        entries = _fold(rows, busy, 2)
    hidden = N_("rows {last}–{first} empty")
    if len(entries) > budget:  # a window of rows around the hurricane, the rest elided
        hurricane = state.get("hurricane")
        focus = rows.index(int(hurricane[1:])) if hurricane else len(rows) - 1
        size = max(1, budget - 2)
        start = min(max(0, focus - size // 2), max(0, len(rows) - size))
        window = rows[start : start + size]
        entries = [(r, r) for r in window]
        if start > 0:
            entries.insert(0, (rows[0], rows[start - 1]))
        if start + size < len(rows):
            entries.append((rows[start + size], rows[-1]))
        hidden = N_("rows {last}–{first} not shown")
    text = Text("   " + "".join(f" {c} " for c in COLS) + "\n")
    for first, last in entries:
        if first != last:
            text.append(f"   ⋮ {_(hidden, last=last, first=first)}\n", style="dim")
            continue
        text.append(f"{first:>2} ")
        for col in COLS:
            sq = f"{col}{first}"
            if state.get("hurricane") == sq:
                style = "bold white on red"
            else:
                style = f"bold {seat_colour(houses[sq]['owner'])}" if sq in houses else "dim"
            text.append(square_text(state, sq), style=style)
        text.append(_section_tag(state, first), style="dim")
        text.append("\n")
    return text


def menu_hint(moves: list[Move]) -> str:
    """What to type besides a number, when that is not obvious."""
    kinds = {m.get("type") for m in moves}
    if kinds & {"place_house", "place_hurricane"}:
        return _("or type a square")
    if "plan" in kinds:
        return _("or e.g. plan 1,3 kauf=C9")
    return _("or e.g. insure A5 B6") if "insure" in kinds else ""


LEGEND = N_(
    "Legend: @ hurricane; Nh, NB, ND a house, beach house, duplex of seat N; * insured; "
    "(5)/( ) an observatory with/without its marker; ~ sea, . beach, · land. "
    "Card N:DIRsteps·cost: action N moves the hurricane steps squares in direction "
    "DIR for that cost; Kauf·cost builds a duplex. "
    "L1, L2, ... beside a row number: the northernmost row of a land section (L1 is rows "
    "5–9, L2 10–14, L3 15–19, L4 20–24); each player may build the same number of houses "
    "in each section. "
    "Moves: a square (C7) builds a house (or places the hurricane), "
    "plan 1,3 kauf=C9 renew=C7 plays actions 1 and 3, insure D8 E9 "
    "(insure nothing: no insurance)."
)

_SCORE_ROWS = (
    ("houses", N_("houses (10 each)")),
    ("beach", N_("beach houses (20 each)")),
    ("duplex", N_("duplexes (20 each)")),
    ("house_points", N_("house points")),
    ("money_points", N_("money points")),
    ("in_game", N_("still in the game")),
)


def _yes_no(value: Any) -> Any:
    return (_("playing") if value else _("out")) if isinstance(value, bool) else value


def score_rows(body: Json) -> tuple[list[tuple[str, list[Any]]], list[Any]]:
    """The ``GET /score`` body as labelled rows (per seat breakdown) and the totals."""
    seats = body.get("seats")
    if not seats:
        return [], body.get("totals") or []
    keys = _SCORE_ROWS if body.get("score_money", True) else _SCORE_ROWS[:4] + _SCORE_ROWS[5:]
    rows = [(_(label), [_yes_no(s.get(key)) for s in seats]) for key, label in keys]
    return rows, [s.get("total") for s in seats]


RESULT_COLUMNS = (
    ("total", N_("total"), str),
    ("house_points", N_("house points"), str),
    ("money", N_("money"), str),
    ("in_game", N_("still in"), _yes_no),
)
"""The standings' keys as the result table shows them: (key, heading msgid, format)."""

RESULT_ORDER = N_("ranked by: still in the game, then total, then house points")


def end_reason(result: Json) -> str:
    """Why the game ended, in words."""
    reason = result.get("reason")
    if reason == "north_edge":
        return _("the hurricane left the board at the north edge")
    if reason == "last_player":
        return _("only one player is left in the game")
    if reason == "max_turns":
        return _(
            "safety stop: the turn limit was reached after {turns} turns", turns=result.get("turns")
        )
    return str(reason or "")


_SECTION = re.compile(r"(?:\bsection|\bSektion|セクション) L(\d)\b")
"""A land section as the services name it in English, German and Japanese refusals."""


def problem_detail(detail: str) -> str:
    """A refusal's text with the rows of any land section it names (the board shows
    ``L1``… beside the rows, not the section's extent)."""

    def rows(m: re.Match[str]) -> str:
        first, last = section_rows(int(m.group(1)))
        return m.group(0) + _(" (rows {first}–{last})", first=first, last=last)

    return _SECTION.sub(rows, detail)
