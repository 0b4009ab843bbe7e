"""Pure rendering: a game view dict (as the services return it) → a rich renderable.

Nothing here does I/O, so tests can render to text with :func:`to_text` and read the
board back cell by cell against the view it was drawn from.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

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


def _name(names: Names, seat: Any) -> str:
    return names.get(seat, f"P{seat}")


def _label(seat: int | None, names: Names) -> Text:
    """``seat:name`` in the seat's colour."""
    if seat is None:
        return Text("-")
    return Text(f"{seat}:{_name(names, seat)}", style=f"bold {seat_colour(seat)}")


def _labels(seats: Iterable[int], names: Names) -> Text:
    return Text(", ").join(_label(s, names) for s in seats)


def _winners(winners: Iterable[int], names: Names) -> str:
    return ", ".join(names.get(w, str(w)) for w in winners)


def _table(title: str, columns: Iterable[str]) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD)
    for col in columns:
        table.add_column(col)
    return table


def header(view: Json) -> Text:
    """One line: game, id, status, version and who is to act."""
    names = player_names(view)
    t = Text()
    t.append(f"{view.get('game', '?')} ", style="bold")
    t.append(f"{view.get('id', '')}  status={view.get('status')} v{view.get('version')}")
    if view.get("to_act"):
        t.append("  to act: ").append_text(_labels(view["to_act"], names))
    if view.get("you") is not None:
        t.append("  you: ").append_text(_label(view["you"], names))
    return t


def render_result(view: Json) -> Table:
    """Final standings from the view's ``result`` (any game)."""
    result = view.get("result") or {}
    names = player_names(view)
    rows = result.get("standings") or []
    keys = list(dict.fromkeys(k for r in rows for k in r if k not in ("seat", "rank")))
    table = _table("Result", ["rank", "player", *keys])
    for r in rows:
        table.add_row(
            str(r.get("rank", "")), _label(r.get("seat"), names), *(str(r.get(k)) for k in keys)
        )
    winners = result.get("winners") or []
    caption = "winner: " + _winners(winners, names) if winners else ""
    if result.get("reason"):
        caption += f" ({result['reason']})"
    table.caption = caption
    return table


# ----------------------------------------------------------------------------- Manhattan


def mh_cell_lines(lot: Json) -> list[str]:
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


def _mh_cell(lot: Json) -> Text:
    """A lot cell: its first line in the owner's colour, each ``seat:floors`` in that seat's."""
    first, *held_lines = mh_cell_lines(lot)
    owner = lot.get("owner")
    cell = Text(first, style="dim" if owner is None else f"bold {seat_colour(owner)}")
    for line in held_lines:
        parts = (Text(p, style=seat_colour(int(p.split(":")[0]))) for p in line.split())
        cell.append("\n").append_text(Text(" ").join(parts))
    return cell


def mh_city(city: Json) -> Panel:
    """One city as a 3×3 grid (lots 1 2 3 north row … 7 8 9 south row)."""
    grid = Table(box=box.SQUARE, show_header=False, padding=(0, 0), show_lines=True)
    for _ in range(3):
        grid.add_column(width=9, no_wrap=True)
    lots = {lot["lot"]: lot for lot in city.get("lots", [])}
    for first in (1, 4, 7):
        grid.add_row(
            *(_mh_cell(lots.get(n, {"lot": n, "pieces": []})) for n in range(first, first + 3))
        )
    title = f"{city['city']} {city.get('name', '')}".strip()
    return Panel(grid, title=title, box=box.ROUNDED, padding=(0, 0), expand=False)


def mh_board(state: Json) -> Group:
    """The six cities as two rows of three."""
    cities = sorted(state.get("cities", []), key=lambda c: c["city"])
    return Group(
        *(Columns([mh_city(c) for c in cities[i : i + 3]]) for i in range(0, len(cities), 3))
    )


def mh_status(state: Json) -> str:
    """Round, phase, start player, deck and the current promo card."""
    line = (
        f"round {state.get('round')}/{state.get('rounds')}  phase {state.get('phase')}  "
        f"start player {state.get('start_player')}  deck {state.get('deck_size')}"
    )
    promo = (state.get("promo") or {}).get("current")
    return f"{line}  promo: {promo}" if promo else line


def mh_players(view: Json) -> Table:
    """Players: side, stock by size, selected pieces, hand size, score; ◀ marks who acts."""
    state = view.get("state") or {}
    names = player_names(view)
    current = state.get("current_player") if state.get("phase") != "over" else None
    table = _table("Players", ("seat", "side", "stock", "selected", "hand", "score"))
    for p in state.get("players", []):
        label = _label(p["seat"], names)
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


def mh_hand(state: Json) -> Text | None:
    """Your own hand: printed card → board lot it allows (``None`` for spectators)."""
    hand = state.get("hand")
    if not hand:
        return None
    t = Text("Your hand (card→board lot): ", style="bold")
    return t.append("  ".join(f"{c['card']}→{c['lot']}" for c in hand))


# ----------------------------------------------------------------------------- Wind City

WC_COLS = "ABCDEFGHIJKL"
WC_SEA_LAST_ROW = 4
WC_BEACH_ROW = 5


def _wc_terrain(row: int) -> tuple[str, str]:
    """The text of an empty square in ``row`` and the row's background: sea, beach, land."""
    if row <= WC_SEA_LAST_ROW:
        return " ~ ", "on blue"
    if row == WC_BEACH_ROW:
        return " . ", "on yellow"
    return " · ", "on green"


def wc_cell(state: Json, square: str) -> str:
    """The 3-character text of one Wind City square.

    `` @ `` hurricane; ``<seat><kind><insured>`` a house, kind ``h`` house, ``B`` beach
    house, ``D`` duplex, ``*`` insured (e.g. ``2B*``); ``(5)``/``( )`` an observatory
    with/without its marker; `` ~ `` sea; `` . `` empty beach; `` · `` empty land.
    """
    if state.get("hurricane") == square:
        return " @ "
    house = _wc_houses(state).get(square)
    if house is not None:
        kind = "D" if house.get("duplex") else ("B" if house.get("beach") else "h")
        return f"{house['owner']}{kind}{'*' if house.get('insured') else ' '}"
    for o in state.get("observatories") or []:
        if o["square"] == square:
            return "(5)" if o.get("marker") else "( )"
    return _wc_terrain(int(square[1:]))[0]


def _wc_houses(state: Json) -> dict[str, Json]:
    return {h["square"]: h for h in state.get("houses") or []}


def wc_board(state: Json) -> Panel:
    """The play area, north edge at the top, row 1 (sea) at the bottom, columns A–L."""
    houses = _wc_houses(state)
    columns = "   " + "".join(f" {c} " for c in WC_COLS)
    text = Text(columns + "\n")
    for row in range(int(state.get("north_edge") or 24), 0, -1):
        bg = _wc_terrain(row)[1]
        text.append(f"{row:>2} ")
        for col in WC_COLS:
            sq = f"{col}{row}"
            cell = wc_cell(state, sq)
            if cell == " @ ":
                style = "bold white on red"
            elif sq in houses:
                style = f"bold {seat_colour(houses[sq]['owner'])} {bg}"
                if houses[sq].get("insured"):
                    style += " underline"
            else:
                style = f"black {bg}"
            text.append(cell, style=style)
        text.append(f" {row}\n")
    text.append(columns)
    text.append("\n@ hurricane  Nh house of seat N  NB beach house  ND duplex  * insured")
    text.append("\n(5) observatory with marker  ~ sea  . beach  · land", style="dim")
    return Panel(text, title="Wind City", expand=False)


def wc_status(state: Json) -> str:
    """Turn, phase, where the hurricane is and the deck size."""
    return (
        f"turn {state.get('turn')}/{state.get('max_turns')}  phase {state.get('phase')}  "
        f"hurricane {state.get('hurricane') or '-'}  deck {state.get('deck_size')}"
    )


def wc_players(view: Json) -> Table:
    """Players: money, houses on the board and in stock, still in the game."""
    state = view.get("state") or {}
    names = player_names(view)
    pending = set(state.get("pending") or [])
    table = _table("Players", ("seat", "money", "on board", "stock", "in game"))
    for p in state.get("players", []):
        label = _label(p["seat"], names)
        if p["seat"] == state.get("active"):
            label.append(" ◀ active")
        elif p["seat"] in pending:
            label.append(" (insuring)")
        table.add_row(
            label,
            str(p.get("money")),
            str(p.get("houses_on_board")),
            str(p.get("stock")),
            "yes" if p.get("in_game", True) else "out",
        )
    return table


def _wc_action(a: Json) -> str:
    if a.get("kind") == "kauf":
        return f"Kauf·{a.get('cost')}"
    return f"{a.get('dir')}{a.get('steps')}·{a.get('cost')}"


def _priced(items: list[Json]) -> str:
    return " ".join(f"{r['square']}({r['price']})" for r in items)


def wc_private(state: Json) -> Text | None:
    """Your drawn card, plan, renewable and insurable houses (only in your own view)."""
    you = state.get("you")
    if not isinstance(you, dict):
        return None
    t = Text()
    if you.get("card"):
        card = you["card"]
        acts = "  ".join(f"{i}:{_wc_action(a)}" for i, a in enumerate(card["actions"], 1))
        t.append(f"Your card {card.get('number')}: {acts}\n", style="bold")
    if you.get("plan"):
        plan = you["plan"]
        t.append(f"Your plan: actions {plan.get('actions')} kauf={plan.get('kauf')}\n")
    if you.get("renewable"):
        t.append(f"renewable: {_priced(you['renewable'])}\n")
    if you.get("insurable"):
        t.append(f"insurable: {_priced(you['insurable'])}")
    return t if t.plain.strip() else None


# ----------------------------------------------------------------------------- generic

# Per game: status line, board, players table, what only you may see.
_PARTS: dict[str, tuple[Callable[[Json], str], Callable, Callable, Callable]] = {
    "manhattan": (mh_status, mh_board, mh_players, mh_hand),
    "windcity": (wc_status, wc_board, wc_players, wc_private),
}


def render_view(game: str, view: Json) -> RenderableType:
    """The whole view: header, status line, board, players, your private part, result."""
    if game not in _PARTS:
        raise ValueError(f"unknown game {game!r}")
    status, board, players, private = _PARTS[game]
    state = view.get("state")
    if not state:
        names = player_names(view)
        seats = Text("seats: ").append_text(_labels(sorted(names), names))
        return Group(header(view), Text("(not started)", style="dim"), seats)
    parts = [header(view), Text(status(state)), board(state), players(view), private(state)]
    if view.get("result"):
        parts.append(render_result(view))
    return Group(*(p for p in parts if p is not None))


def render_score(game: str, score: Json, view: Json | None = None) -> Table:
    """The ``GET /score`` answer as a table (Manhattan: per round and category)."""
    names = player_names(view or {})
    body = score.get("score") or {}
    totals = body.get("totals") or []
    rows: list[tuple[str, list[Any]]] = []
    if game == "manhattan":
        for r in body.get("rounds", []):
            rows += [(f"r{r['round']} {c}", pts) for c, pts in r.get("categories", {}).items()]
    elif body.get("seats"):
        seats = body["seats"]
        for key in ("houses", "beach", "duplex", "house_points", "money_points", "in_game"):
            rows.append((key, [s.get(key) for s in seats]))
        totals = [s.get("total") for s in seats]
    table = Table(title=f"{game} score ({score.get('status')})", box=box.SIMPLE_HEAD)
    table.add_column("")
    for s in range(len(totals)):
        table.add_column(_name(names, s), justify="right")
    for label, values in rows:
        table.add_row(label, *(str(v) for v in values))
    table.add_row("total", *(str(t) for t in totals), style="bold")
    return table


# ----------------------------------------------------------------------------- events

# Each formatter gets the event, the acting seat's name (``who``) and ``name(seat)``.
Describe = Callable[[Json, str, Callable[[Any], str]], str]


def _placed(e: Json, who: str, name: Callable[[Any], str]) -> str:
    prev = e.get("previous_owner")
    took = " (takes it over)" if prev is not None and prev != e.get("owner") else ""
    return (
        f"{who} built {e.get('floors')} floor(s) in city {e.get('city')} "
        f"lot {e.get('lot')} → height {e.get('height')}{took}"
    )


def _plan_made(e: Json, who: str, name: Callable[[Any], str]) -> str:
    out = f"{who} made a secret plan"
    if e.get("renew"):
        out += f", renewed {' '.join(e['renew'])} ({e.get('paid')})"
    if e.get("lapsed"):
        out += f"; cover lapsed on {' '.join(e['lapsed'])}"
    return out


def _insured(e: Json, who: str, name: Callable[[Any], str]) -> str:
    squares = " ".join(e.get("squares") or []) or "nothing"
    return f"{who} insured {squares}" + (f" for {e.get('paid')}" if e.get("paid") else "")


def _revealed(e: Json, who: str, name: Callable[[Any], str]) -> str:
    acts = e.get("card_actions") or []
    chosen = []
    for i in e.get("plan") or []:
        a = acts[i - 1] if 0 < i <= len(acts) else {}
        kauf = a.get("kind") == "kauf"
        chosen.append(f"Kauf {e.get('kauf')}" if kauf else f"{a.get('dir')}{a.get('steps')}")
    return f"{who} reveals card {e.get('card')}: plays {', '.join(chosen)}"


def _hurricane_moved(e: Json, who: str, name: Callable[[Any], str]) -> str:
    path = "→".join(e.get("squares") or []) or "nowhere"
    extra = " (comes to rest)" if e.get("rest") else ""
    if e.get("left_board"):
        extra += " and leaves the board"
    return f"hurricane {e.get('dir')}: {path}{extra}"


_EVENTS: dict[str, Describe] = {
    # Manhattan
    "pieces_selected": lambda e, who, _: (
        f"{who} selected {' '.join(map(str, e.get('pieces', [])))}"
    ),
    "piece_placed": _placed,
    "card_discarded": lambda e, who, _: (
        f"{who} discarded card {e.get('card')} (lot {e.get('lot')})"
    ),
    "piece_forfeited": lambda e, who, _: f"{who} forfeited a {e.get('floors')}-floor piece",
    "round_scored": lambda e, *_: f"round {e.get('round')} scored: totals {e.get('totals')}",
    "round_started": lambda e, *_: (
        f"round {e.get('round')} starts (start player {e.get('start_player')})"
    ),
    # Wind City
    "hurricane_placed": lambda e, who, _: f"{who} put the hurricane on {e.get('square')}",
    "house_placed": lambda e, who, _: f"{who} built a house on {e.get('square')}",
    "turn_started": lambda e, who, _: f"turn {e.get('turn')}: {who}",
    "card_drawn": lambda e, who, _: f"{who} drew a card",
    "plan_made": _plan_made,
    "insurance_market": lambda e, _, name: f"{name(e.get('seller'))} sells insurance",
    "insured": _insured,
    "turn_revealed": _revealed,
    "hurricane_moved": _hurricane_moved,
    "house_destroyed": lambda e, _, name: (
        f"{name(e.get('owner'))}'s house on {e.get('square')} is destroyed"
    ),
    "observatory_taken": lambda e, who, _: (
        f"{who} takes the observatory marker on {e.get('square')}"
    ),
    "calm_bonus": lambda e, who, _: f"{who} gets the calm bonus",
    "kauf": lambda e, who, _: f"{who} builds a duplex on {e.get('square')}",
    "kauf_void": lambda e, who, _: f"{who}'s Kauf on {e.get('square')} is void ({e.get('reason')})",
    "payment": lambda e, _, name: (
        f"{name(e.get('payer'))} pays {name(e.get('payee'))} {e.get('amount')} ({e.get('reason')})"
    ),
    "bankrupt": lambda e, who, _: f"{who} is bankrupt and out of the game",
    "deck_reshuffled": lambda e, *_: f"the deck is reshuffled ({e.get('size')} cards)",
    # both games
    "game_created": lambda *_: "game created",
    "game_started": lambda *_: "the game starts",
    "game_finished": lambda *_: "game finished",
    "game_cancelled": lambda *_: "game cancelled",
    "player_joined": lambda e, who, _: f"{e.get('name', who)} joined at seat {e.get('seat')}",
}


def describe_event(game: str, event: Json, names: Names | None = None) -> str:
    """One line of text for an event (what a player did, a round scored, ...).

    Unknown event types fall back to ``type key=value ...`` so nothing is hidden.
    """
    names = names or {}
    seat = event.get("seat")
    who = _name(names, seat) if seat is not None else ""
    t = event.get("type", "?")
    if t == "game_over":
        winners = (event.get("result") or {}).get("winners", [])
        return "game over; winner(s): " + _winners(winners, names)
    if t in _EVENTS:
        return _EVENTS[t](event, who, lambda s: _name(names, s) if isinstance(s, int) else str(s))
    rest = " ".join(
        f"{k}={v}" for k, v in event.items() if k not in ("type", "id", "version", "seat")
    )
    return f"{who + ' ' if who else ''}{t} {rest}".strip()


# ----------------------------------------------------------------------------- legends

_LEGENDS = {
    "manhattan": (
        "Legend: lots are numbered 1 2 3 / 4 5 6 / 7 8 9 (north row first). A built lot "
        "reads LOT hHEIGHT S<seat>: its height and the seat that owns it (S0 = seat 0); "
        "below, SEAT:FLOORS for every seat with floors there, owner first. "
        "Stock NfxK: K pieces of N floors left. Hand CARD→LOT: a card as printed and the "
        "board lot it lets you build on from your side of the table (any city). "
        "Moves: CITY LOT FLOORS (3 7 2 = a 2-floor piece on lot 7 of city 3), "
        "select 1 1 2 2 3 4, discard LOT, forfeit FLOORS."
    ),
    "windcity": (
        "Legend: @ hurricane; Nh, NB, ND a house, beach house, duplex of seat N; * insured; "
        "(5)/( ) an observatory with/without its marker; ~ sea, . beach, · land. "
        "Card N:DIRsteps·cost: action N moves the hurricane steps squares in direction "
        "DIR for that cost; Kauf·cost builds a duplex. "
        "Moves: a square (C7) builds a house (or places the hurricane), "
        "plan 1,3 kauf=C9 renew=C7 plays actions 1 and 3, insure D8 E9 (insure alone: none)."
    ),
}


def legend(game: str) -> Text:
    """What the board's labels and the card notation mean, in a few lines."""
    return Text(_LEGENDS[game])


# ----------------------------------------------------------------------------- watch screens


def mh_board_compact(state: Json) -> Text:
    """The six cities in two rows of three, a lot as ``HEIGHT S SEAT`` (``3S1``) or ``.``."""
    cities = sorted(state.get("cities", []), key=lambda c: c["city"])
    out = Text()
    for first in range(0, len(cities), 3):
        row = cities[first : first + 3]
        out.append("   ".join(f"{c['city']} {c.get('name', '')}"[:14].ljust(14) for c in row))
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


def _wc_busy_rows(state: Json) -> set[int]:
    """Rows with something on them: a house, the hurricane or an observatory."""
    squares = [h["square"] for h in state.get("houses") or []]
    squares += [o["square"] for o in state.get("observatories") or []]
    if state.get("hurricane"):
        squares.append(state["hurricane"])
    return {int(sq[1:]) for sq in squares}


def _wc_fold(rows: list[int], busy: set[int], run: int) -> list[tuple[int, int]]:
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


def wc_board_compact(state: Json, max_lines: int | None = None) -> Text:
    """The play area without a frame in at most ``max_lines`` lines: runs of empty rows
    fold into one line each; if that is still too tall, the rows around the hurricane."""
    busy = _wc_busy_rows(state)
    houses = _wc_houses(state)
    rows = list(range(int(state.get("north_edge") or 24), 0, -1))
    budget = (max_lines or 10_000) - 1  # the column header takes a line
    entries = _wc_fold(rows, busy, 3)
    if len(entries) > budget:
        entries = _wc_fold(rows, busy, 2)
    hidden = "empty"
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
        hidden = "not shown"
    text = Text("   " + "".join(f" {c} " for c in WC_COLS) + "\n")
    for first, last in entries:
        if first != last:
            text.append(f"   ⋮ rows {last}–{first} {hidden}\n", style="dim")
            continue
        text.append(f"{first:>2} ")
        for col in WC_COLS:
            sq = f"{col}{first}"
            if state.get("hurricane") == sq:
                style = "bold white on red"
            else:
                style = f"bold {seat_colour(houses[sq]['owner'])}" if sq in houses else "dim"
            text.append(wc_cell(state, sq), style=style)
        text.append("\n")
    return text


def players_line(view: Json) -> Text:
    """Every seat, one per line: name, and score (Manhattan) or money (Wind City)."""
    names = player_names(view)
    state = view.get("state") or {}
    parts = []
    for p in state.get("players", []):
        label = _label(p["seat"], names)
        value = p.get("score") if "score" in p else p.get("money")
        label.append(f" {'score' if 'score' in p else 'money'} {value}")
        parts.append(label)
    return Text("\n").join(parts)


def watch_screen(
    game: str, view: Json, recent: list[str], width: int = 80, height: int = 24
) -> RenderableType:
    """The biggest spectator screen that fits ``width`` x ``height``: the full view with
    the last events; else a compact board with the status (beside it when there is
    room), dropping old events first."""
    events = [Text("recent events:"), Text("\n".join(recent[-8:]), style="cyan")]
    full = Group(render_view(game, view), *events)
    state = view.get("state")
    if not state or _fits(full, width, height):
        return full
    status = _PARTS[game][0]
    lines = height - 1
    side_by_side = game == "windcity" and width >= 70
    if game == "manhattan":
        board: Text = mh_board_compact(state)
    else:
        board = wc_board_compact(state, lines if side_by_side else lines - 4)
    screen: RenderableType = board
    for keep in range(min(len(recent), 8), -1, -1):
        tail = Text("\n".join(recent[-keep:]) if keep else "", style="cyan")
        info = [header(view), Text(status(state)), players_line(view), tail]
        if side_by_side:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(width=39, no_wrap=True)
            grid.add_column(width=width - 41)
            grid.add_row(board, Group(*info))
            screen = grid
        else:
            screen = Group(*info[:2], board, *info[2:])
        if _fits(screen, width, height):
            return screen
    return screen


def _fits(renderable: RenderableType, width: int, height: int) -> bool:
    """Whether ``renderable`` drawn at ``width`` columns takes at most ``height`` - 1 lines
    (rich's live display keeps the last line for the cursor)."""
    return len(to_text(renderable, width).rstrip("\n").splitlines()) <= height - 1
