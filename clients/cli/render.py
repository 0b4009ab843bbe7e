"""Pure rendering: a game view dict (as the services return it) → a rich renderable.

Nothing here does I/O; tests render to text with ``Console(record=True)`` or a
``StringIO`` file and check cell contents against the view. :func:`to_text` does that.
"""

from __future__ import annotations

import io
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

Json = dict[str, Any]

SEAT_COLOURS = ("red", "blue", "yellow", "green", "magenta")
SEAT_GLYPHS = ("●", "■", "▲", "◆", "★")


def seat_colour(seat: int | None) -> str:
    """The display colour of a seat."""
    return "white" if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def to_text(renderable: RenderableType, width: int = 120) -> str:
    """Render to plain text (no colour codes) at ``width`` columns."""
    console = Console(file=io.StringIO(), width=width, color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def player_names(view: Json) -> dict[int, str]:
    """Seat → name from the service view's ``players`` list."""
    return {p["seat"]: p.get("name", f"P{p['seat']}") for p in view.get("players") or []}


def _label(seat: int | None, names: dict[int, str]) -> Text:
    if seat is None:
        return Text("-")
    return Text(f"{seat}:{names.get(seat, f'P{seat}')}", style=f"bold {seat_colour(seat)}")


def header(view: Json) -> Text:
    """One line: game, id, status, version and who is to act."""
    names = player_names(view)
    t = Text()
    t.append(f"{view.get('game', '?')} ", style="bold")
    t.append(f"{view.get('id', '')}  status={view.get('status')} v{view.get('version')}")
    to_act = view.get("to_act") or []
    if to_act:
        t.append("  to act: ")
        for i, s in enumerate(to_act):
            if i:
                t.append(", ")
            t.append_text(_label(s, names))
    if view.get("you") is not None:
        t.append("  you: ")
        t.append_text(_label(view["you"], names))
    return t


# ----------------------------------------------------------------------------- Manhattan


def mh_cell_lines(lot: Json) -> list[str]:
    """The three text lines of one Manhattan lot cell (used by the renderer and by tests).

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
    order = sorted(held, key=lambda s: (s != owner, -held[s], s))
    parts = [f"{s}:{held[s]}" for s in order]
    return [
        f"{lot['lot']} h{lot.get('height', sum(held.values()))} S{owner}",
        " ".join(parts[:2]),
        " ".join(parts[2:]),
    ]


def mh_city(city: Json) -> Panel:
    """One city as a 3×3 grid (lots 1 2 3 north row … 7 8 9 south row)."""
    grid = Table(box=box.SQUARE, show_header=False, padding=(0, 0), show_lines=True)
    for _ in range(3):
        grid.add_column(width=9, no_wrap=True)
    lots = {lot["lot"]: lot for lot in city.get("lots", [])}
    for row in range(3):
        cells = []
        for col in range(3):
            lot = lots.get(row * 3 + col + 1, {"lot": row * 3 + col + 1, "pieces": []})
            first, *held_lines = mh_cell_lines(lot)
            owner = lot.get("owner")
            cell = Text(first, style=f"bold {seat_colour(owner)}" if owner is not None else "dim")
            for line in held_lines:
                cell.append("\n")
                for i, part in enumerate(line.split()):
                    if i:
                        cell.append(" ")
                    cell.append(part, style=seat_colour(int(part.split(":")[0])))
            cells.append(cell)
        grid.add_row(*cells)
    title = f"{city['city']} {city.get('name', '')}".strip()
    return Panel(grid, title=title, box=box.ROUNDED, padding=(0, 0), expand=False)


def mh_board(state: Json) -> Group:
    """The six cities as two rows of three."""
    cities = sorted(state.get("cities", []), key=lambda c: c["city"])
    rows = [Columns([mh_city(c) for c in cities[i : i + 3]]) for i in range(0, len(cities), 3)]
    return Group(*rows)


def _stock_text(stock: Json) -> str:
    return " ".join(f"{f}f×{stock.get(str(f), 0)}" for f in (1, 2, 3, 4))


def mh_players(view: Json) -> Table:
    """Players: side, stock by size, selected pieces, hand size, forfeited, score."""
    state = view.get("state") or {}
    names = player_names(view)
    current = state.get("current_player")
    table = Table(title="Players", box=box.SIMPLE_HEAD)
    for col in ("seat", "side", "stock", "selected", "hand", "score"):
        table.add_column(col)
    for p in state.get("players", []):
        seat = p["seat"]
        label = _label(seat, names)
        if seat == current and state.get("phase") != "over":
            label.append(" ◀")
        table.add_row(
            label,
            p.get("side", ""),
            _stock_text(p.get("stock", {})),
            " ".join(str(f) for f in p.get("selected", [])) or "-",
            str(p.get("hand_size", "")),
            str(p.get("score", 0)),
        )
    return table


def mh_hand(state: Json) -> Text | None:
    """Your own hand: printed card → board lot it allows."""
    hand = state.get("hand")
    if not hand:
        return None
    t = Text("Your hand (card→board lot): ", style="bold")
    t.append("  ".join(f"{c['card']}→{c['lot']}" for c in hand))
    return t


def render_manhattan(view: Json) -> RenderableType:
    """The whole Manhattan view: header, phase line, cities, players, your hand."""
    state = view.get("state")
    parts: list[RenderableType] = [header(view)]
    if not state:
        parts.append(Text("(not started)", style="dim"))
        parts.append(_seat_list(view))
        return Group(*parts)
    promo = (state.get("promo") or {}).get("current")
    line = (
        f"round {state.get('round')}/{state.get('rounds')}  phase {state.get('phase')}  "
        f"start player {state.get('start_player')}  deck {state.get('deck_size')}"
    )
    if promo:
        line += f"  promo: {promo}"
    parts.append(Text(line))
    parts.append(mh_board(state))
    parts.append(mh_players(view))
    hand = mh_hand(state)
    if hand is not None:
        parts.append(hand)
    if view.get("result"):
        parts.append(render_result(view))
    return Group(*parts)


def _seat_list(view: Json) -> Text:
    names = player_names(view)
    t = Text("seats: ")
    for i, seat in enumerate(sorted(names)):
        if i:
            t.append(", ")
        t.append_text(_label(seat, names))
    return t


def render_result(view: Json) -> RenderableType:
    """Final standings from the view's ``result`` (any game)."""
    result = view.get("result") or {}
    names = player_names(view)
    table = Table(title="Result", box=box.SIMPLE_HEAD)
    rows = result.get("standings") or []
    keys: list[str] = []
    for r in rows:
        for k in r:
            if k not in ("seat", "rank") and k not in keys:
                keys.append(k)
    table.add_column("rank")
    table.add_column("player")
    for k in keys:
        table.add_column(k)
    for r in rows:
        table.add_row(
            str(r.get("rank", "")), _label(r.get("seat"), names), *(str(r.get(k)) for k in keys)
        )
    winners = result.get("winners") or []
    caption = "winner: " + ", ".join(names.get(w, str(w)) for w in winners) if winners else ""
    if result.get("reason"):
        caption += f" ({result['reason']})"
    table.caption = caption
    return table


# ----------------------------------------------------------------------------- Wind City

WC_COLS = "ABCDEFGHIJKL"
WC_SEA_LAST_ROW = 4
WC_BEACH_ROW = 5


def wc_cell(view_state: Json, square: str) -> str:
    """The 3-character text of one Wind City square (used by the renderer and by tests).

    `` @ `` hurricane; ``<seat><kind><insured>`` a house, kind ``h`` house, ``B`` beach
    house, ``D`` duplex, ``*`` insured (e.g. ``2B*``); ``(5)``/``( )`` an observatory
    with/without its marker; `` ~ `` sea; `` . `` empty beach; `` · `` empty land.
    """
    if view_state.get("hurricane") == square:
        return " @ "
    house = _wc_houses(view_state).get(square)
    if house is not None:
        kind = "D" if house.get("duplex") else ("B" if house.get("beach") else "h")
        return f"{house['owner']}{kind}{'*' if house.get('insured') else ' '}"
    obs = _wc_observatories(view_state)
    if square in obs:
        return "(5)" if obs[square] else "( )"
    row = int(square[1:])
    if row <= WC_SEA_LAST_ROW:
        return " ~ "
    return " . " if row == WC_BEACH_ROW else " · "


def _wc_houses(state: Json) -> dict[str, Json]:
    return {h["square"]: h for h in state.get("houses") or []}


def _wc_observatories(state: Json) -> dict[str, bool]:
    """Observatory square → whether its 5-point marker is still there."""
    return {o["square"]: bool(o.get("marker")) for o in state.get("observatories") or []}


def wc_board(state: Json) -> Panel:
    """The play area, north edge at the top, row 1 (sea) at the bottom, columns A–L."""
    north = int(state.get("north_edge") or 24)
    houses = _wc_houses(state)
    text = Text("   " + "".join(f" {c} " for c in WC_COLS) + "\n")
    for row in range(north, 0, -1):
        text.append(f"{row:>2} ")
        for col in WC_COLS:
            sq = f"{col}{row}"
            cell = wc_cell(state, sq)
            if row <= WC_SEA_LAST_ROW:
                bg = "on blue"
            elif row == WC_BEACH_ROW:
                bg = "on yellow"
            else:
                bg = "on green"
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
    text.append("   " + "".join(f" {c} " for c in WC_COLS))
    text.append("\n@ hurricane  Nh house of seat N  NB beach house  ND duplex  * insured")
    text.append("\n(5) observatory with marker  ~ sea  . beach  · land", style="dim")
    return Panel(text, title="Wind City", expand=False)


def wc_players(view: Json) -> Table:
    """Players: money, houses in stock and on the board, still in the game."""
    state = view.get("state") or {}
    names = player_names(view)
    active = state.get("active")
    pending = set(state.get("pending") or [])
    table = Table(title="Players", box=box.SIMPLE_HEAD)
    for col in ("seat", "money", "on board", "stock", "in game"):
        table.add_column(col)
    for p in state.get("players", []):
        label = _label(p["seat"], names)
        if p["seat"] == active:
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


def wc_private(state: Json) -> Text | None:
    """Your drawn card, plan, renewable and insurable houses (your own view only)."""
    you = state.get("you")
    if not isinstance(you, dict):
        return None
    t = Text()
    card = you.get("card")
    if card:
        acts = "  ".join(f"{i}:{_wc_action(a)}" for i, a in enumerate(card["actions"], 1))
        t.append(f"Your card {card.get('number')}: {acts}\n", style="bold")
    if you.get("plan"):
        plan = you["plan"]
        t.append(f"Your plan: actions {plan.get('actions')} kauf={plan.get('kauf')}\n")
    if you.get("renewable"):
        t.append("renewable: " + " ".join(f"{r['square']}({r['price']})" for r in you["renewable"]))
        t.append("\n")
    if you.get("insurable"):
        t.append("insurable: " + " ".join(f"{r['square']}({r['price']})" for r in you["insurable"]))
    return t if t.plain.strip() else None


def render_windcity(view: Json) -> RenderableType:
    """The whole Wind City view: header, turn line, board, players, your card."""
    state = view.get("state")
    parts: list[RenderableType] = [header(view)]
    if not state:
        parts.append(Text("(not started)", style="dim"))
        parts.append(_seat_list(view))
        return Group(*parts)
    parts.append(
        Text(
            f"turn {state.get('turn')}/{state.get('max_turns')}  phase {state.get('phase')}  "
            f"hurricane {state.get('hurricane') or '-'}  deck {state.get('deck_size')}"
        )
    )
    parts.append(wc_board(state))
    parts.append(wc_players(view))
    private = wc_private(state)
    if private is not None:
        parts.append(private)
    if view.get("result"):
        parts.append(render_result(view))
    return Group(*parts)


# ----------------------------------------------------------------------------- generic


def render_view(game: str, view: Json) -> RenderableType:
    """Dispatch on the game name."""
    if game == "manhattan":
        return render_manhattan(view)
    if game == "windcity":
        return render_windcity(view)
    raise ValueError(f"unknown game {game!r}")


def render_score(game: str, score: Json, view: Json | None = None) -> RenderableType:
    """The ``GET /score`` answer as a table (Manhattan: per round and category)."""
    names = player_names(view or {})
    body = score.get("score") or {}
    totals = body.get("totals") or []
    table = Table(title=f"{game} score ({score.get('status')})", box=box.SIMPLE_HEAD)
    table.add_column("")
    if game == "manhattan":
        for s in range(len(totals)):
            table.add_column(names.get(s, f"P{s}"), justify="right")
        for r in body.get("rounds", []):
            for cat, pts in r.get("categories", {}).items():
                table.add_row(f"r{r['round']} {cat}", *(str(p) for p in pts))
    elif body.get("seats"):
        rows = body["seats"]
        for s in range(len(rows)):
            table.add_column(names.get(s, f"P{s}"), justify="right")
        for key in ("houses", "beach", "duplex", "house_points", "money_points", "in_game"):
            table.add_row(key, *(str(r.get(key)) for r in rows))
        totals = [r.get("total") for r in rows]
    table.add_row("total", *(str(t) for t in totals), style="bold")
    return table


def describe_event(game: str, event: Json, names: dict[int, str] | None = None) -> str:
    """One line of text for an event (what a player did, a round scored, ...)."""
    names = names or {}
    seat = event.get("seat")
    who = names.get(seat, f"P{seat}") if seat is not None else ""
    t = event.get("type", "?")
    if t == "pieces_selected":
        return f"{who} selected {' '.join(str(p) for p in event.get('pieces', []))}"
    if t == "piece_placed":
        prev = event.get("previous_owner")
        took = " (takes it over)" if prev is not None and prev != event.get("owner") else ""
        return (
            f"{who} built {event.get('floors')} floor(s) in city {event.get('city')} "
            f"lot {event.get('lot')} → height {event.get('height')}{took}"
        )
    if t == "card_discarded":
        return f"{who} discarded card {event.get('card')} (lot {event.get('lot')})"
    if t == "piece_forfeited":
        return f"{who} forfeited a {event.get('floors')}-floor piece"
    if t == "round_scored":
        return f"round {event.get('round')} scored: totals {event.get('totals')}"
    if t == "round_started":
        return f"round {event.get('round')} starts (start player {event.get('start_player')})"
    wc = _describe_windcity(t, event, who, names)
    if wc is not None:
        return wc
    if t == "game_finished":
        return "game finished"
    if t == "game_cancelled":
        return "game cancelled"
    if t == "game_created":
        return "game created"
    if t == "game_started":
        return "the game starts"
    if t == "player_joined":
        return f"{event.get('name', who)} joined at seat {seat}"
    if t == "game_over":
        winners = (event.get("result") or {}).get("winners", [])
        return "game over; winner(s): " + ", ".join(names.get(w, str(w)) for w in winners)
    skip = {"type", "id", "version", "seat"}
    rest = " ".join(f"{k}={v}" for k, v in event.items() if k not in skip)
    return f"{who + ' ' if who else ''}{t} {rest}".strip()


def _describe_windcity(t: str, e: Json, who: str, names: dict[int, str]) -> str | None:
    """Wind City event lines (``None``: not a Wind City event)."""

    def name(seat: Any) -> str:
        return names.get(seat, f"P{seat}") if isinstance(seat, int) else str(seat)

    if t == "hurricane_placed":
        return f"{who} put the hurricane on {e.get('square')}"
    if t == "house_placed":
        return f"{who} built a house on {e.get('square')}"
    if t == "turn_started":
        return f"turn {e.get('turn')}: {who}"
    if t == "card_drawn":
        return f"{who} drew a card"
    if t == "plan_made":
        out = f"{who} made a secret plan"
        if e.get("renew"):
            out += f", renewed {' '.join(e['renew'])} ({e.get('paid')})"
        if e.get("lapsed"):
            out += f"; cover lapsed on {' '.join(e['lapsed'])}"
        return out
    if t == "insurance_market":
        return f"{name(e.get('seller'))} sells insurance"
    if t == "insured":
        sq = " ".join(e.get("squares") or []) or "nothing"
        return f"{who} insured {sq}" + (f" for {e.get('paid')}" if e.get("paid") else "")
    if t == "turn_revealed":
        acts = e.get("card_actions") or []
        chosen = []
        for i in e.get("plan") or []:
            a = acts[i - 1] if 0 < i <= len(acts) else {}
            chosen.append(
                f"Kauf {e.get('kauf')}"
                if a.get("kind") == "kauf"
                else f"{a.get('dir')}{a.get('steps')}"
            )
        return f"{who} reveals card {e.get('card')}: plays {', '.join(chosen)}"
    if t == "hurricane_moved":
        path = "→".join(e.get("squares") or []) or "nowhere"
        extra = " (comes to rest)" if e.get("rest") else ""
        if e.get("left_board"):
            extra += " and leaves the board"
        return f"hurricane {e.get('dir')}: {path}{extra}"
    if t == "house_destroyed":
        return f"{name(e.get('owner'))}'s house on {e.get('square')} is destroyed"
    if t == "observatory_taken":
        return f"{who} takes the observatory marker on {e.get('square')}"
    if t == "calm_bonus":
        return f"{who} gets the calm bonus"
    if t == "kauf":
        return f"{who} builds a duplex on {e.get('square')}"
    if t == "kauf_void":
        return f"{who}'s Kauf on {e.get('square')} is void ({e.get('reason')})"
    if t == "payment":
        payer, payee = name(e.get("payer")), name(e.get("payee"))
        return f"{payer} pays {payee} {e.get('amount')} ({e.get('reason')})"
    if t == "bankrupt":
        return f"{who} is bankrupt and out of the game"
    if t == "deck_reshuffled":
        return f"the deck is reshuffled ({e.get('size')} cards)"
    return None
