"""Pure rendering: a game view dict (as the services return it) → a rich renderable.

Nothing here does I/O, so tests can render to text with :func:`to_text` and read the
board back cell by cell against the view it was drawn from.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import words
from .games import game_module
from .i18n import N_, _, person
from .menu import Menu
from .style import (
    Describe,
    Json,
    Names,
    name_of,
    player_names,
    rating_change,
    seat_label,
    seat_labels,
    simple_table,
    to_text,
    winners_of,
    winners_text,
)

__all__ = [
    "legend",
    "render_view",
    "render_score",
    "describe_event",
    "to_text",
    "watch_screen",
    "play_screen",
]


def header(view: Json) -> Text:
    """One line: game, id, status, version and who is to act."""
    names = player_names(view)
    t = Text()
    t.append(f"{words.game(view.get('game', '?'))} ", style="bold")
    t.append(
        _(
            "{id}  status={status} v{version}",
            id=view.get("id", ""),
            status=words.status(view.get("status")),
            version=view.get("version"),
        )
    )
    _seats(t, view, names)
    return t


def _seats(t: Text, view: Json, names: Names) -> None:
    """`` to act: …  you: …`` after a header line."""
    if view.get("to_act"):
        t.append(_("  to act: ")).append_text(seat_labels(view["to_act"], names))
    if view.get("you") is not None:
        t.append(_("  you: ")).append_text(seat_label(view["you"], names))


def _flag(value: Any) -> str:
    return (_("yes") if value else "") if isinstance(value, bool) else str(value)


def render_result(view: Json) -> Table:
    """Final standings from the view's ``result``, every column labelled in words; the
    caption names the winner, why the game ended and how ties are broken."""
    result = view.get("result") or {}
    names = player_names(view)
    rows = result.get("standings") or []
    known: tuple[tuple[str, str, Callable[[Any], str]], ...] = ()
    order, reason = "", ""
    with contextlib.suppress(ValueError):  # a game this client does not know: keys as is
        ui = game_module(str(view.get("game")))
        known, order, reason = ui.RESULT_COLUMNS, _(ui.RESULT_ORDER), ui.end_reason(result)
    present = {k for r in rows for k in r}
    columns = [(k, _(head), fmt) for k, head, fmt in known if k in present]
    taken = {k for k, _, _ in columns} | {"seat", "rank"}
    extra = dict.fromkeys(k for r in rows for k in r if k not in taken)
    columns += [(k, k.replace("_", " "), _flag) for k in extra]
    rated = {e.get("seat"): e for e in result.get("ratings") or [] if isinstance(e, dict)}
    heads = [head for _k, head, _f in columns] + ([_("rating")] if rated else [])
    table = simple_table(_("Result"), [_("rank"), _("player"), *heads])
    for r in rows:
        cells = ["" if r.get(k) is None else fmt(r.get(k)) for k, _, fmt in columns]
        if rated:
            seat_rating = rated.get(r.get("seat"))
            cells.append(rating_change(seat_rating) if seat_rating else "")
        label = seat_label(r.get("seat"), names)
        if r.get("resigned"):
            label.append(_(" (resigned)"), style="dim")
        rank = "-" if r.get("resigned") else str(r.get("rank", ""))
        table.add_row(rank, label, *cells)
    winners = winners_of(result)
    caption = [_("winner: {winners}", winners=winners_text(winners, names))] if winners else []
    if not winners and rows and all(r.get("resigned") for r in rows):
        caption = [_("nobody won: every player resigned")]
    mine = rated.get(view.get("you"))
    if mine and not mine.get("bot"):
        caption.append(_("your rating: {change}", change=rating_change(mine)))
    elif rated:
        caption.append(_("rating: before → after this game (everyone starts at 1000)"))
    caption += [part for part in (reason, order) if part]
    table.caption = "\n".join(caption)
    return table


# ----------------------------------------------------------------------------- Manhattan


# ----------------------------------------------------------------------------- Wind City


# ----------------------------------------------------------------------------- generic


# Per game: status line, board, players table, what only you may see.
def render_view(game: str, view: Json) -> RenderableType:
    """The whole view: header, status line, board, players, your private part, result."""
    ui = game_module(game)
    state = view.get("state")
    if not state:
        names = player_names(view)
        seats = Text(_("seats: ")).append_text(seat_labels(sorted(names), names))
        return Group(header(view), Text(_("(not started)"), style="dim"), seats)
    parts = [
        header(view),
        Text(ui.status(state)),
        ui.board(state),
        ui.players(view),
        ui.private(state),
    ]
    if view.get("result"):
        parts.append(render_result(view))
    return Group(*(p for p in parts if p is not None))


def render_score(game: str, score: Json, view: Json | None = None) -> Table:
    """The ``GET /score`` answer as a table (Manhattan: per round and category)."""
    names = player_names(view or {})
    body = score.get("score") or {}
    rows, totals = game_module(game).score_rows(body)
    title = _(
        "{game} score ({status})", game=words.game(game), status=words.status(score.get("status"))
    )
    table = Table(title=title, box=box.SIMPLE_HEAD)
    table.add_column("")
    for s in range(len(totals)):
        table.add_column(name_of(names, s), justify="right")
    for label, values in rows:
        table.add_row(label, *(str(v) for v in values))
    table.add_row(_("total"), *(str(t) for t in totals), style="bold")
    return table


# ----------------------------------------------------------------------------- events

_EVENTS: dict[str, Describe] = {
    "game_created": lambda *args: _("game created"),
    "game_started": lambda *args: _("the game starts"),
    "game_finished": lambda *args: _("game finished"),
    "game_cancelled": lambda *args: _("game cancelled"),
    "player_joined": lambda e, who, name: (
        _("{name} joined at seat {seat}", name=e.get("name", who), seat=e.get("seat"))
        + (_(" (a bot)") if e.get("bot") else "")
    ),
    "player_left": lambda e, who, name: _(
        "{name} left seat {seat}", name=e.get("name", who), seat=e.get("seat")
    ),
    "seat_timed_out": lambda e, who, name: person(
        who,
        N_("{who}'s time ran out: the server moved for {who}"),
        N_("your time ran out: the server moved for you"),
    ),
    "seat_abandoned": lambda e, who, name: person(
        who,
        N_("{who} timed out too often: a bot plays {who}'s seat to the end"),
        N_("you timed out too often: a bot plays your seat to the end"),
    ),
    "seat_resigned": lambda e, who, name: person(
        who,
        N_("{who} resigned: a bot plays {who}'s seat to the end"),
        N_("you resigned: a bot plays your seat to the end"),
    ),
}
"""Events of every game; each game module adds its own (``EVENTS``)."""


def describe_event(game: str, event: Json, names: Names | None = None) -> str:
    """One line of text for an event (what a player did, a round scored, ...).

    Unknown event types fall back to ``type key=value ...`` so nothing is hidden.
    """
    names = names or {}
    seat = event.get("seat")
    who = name_of(names, seat) if seat is not None else ""
    t = event.get("type", "?")
    if t == "game_over":
        result = event.get("result") or {}
        winners = winners_of(result)
        why = game_module(game).end_reason({**result, "reason": event.get("reason")})
        over = _("game over ({why})", why=why) if why else _("game over")
        which = (
            N_("{over}; winners: {winners}")
            if len(winners) > 1
            else N_("{over}; winner: {winners}")
        )
        rows = result.get("standings") or []
        if rows and all(r.get("resigned") for r in rows):
            return _("{over}; nobody won: every player resigned", over=over)
        return _(which, over=over, winners=winners_text(winners, names))
    describe = _EVENTS.get(t) or game_module(game).EVENTS.get(t)
    if describe is not None:
        return describe(event, who, lambda s: name_of(names, s) if isinstance(s, int) else str(s))
    rest = " ".join(
        f"{k}={v}" for k, v in event.items() if k not in ("type", "id", "version", "seat")
    )
    return f"{who + ' ' if who else ''}{t} {rest}".strip()


# ----------------------------------------------------------------------------- legends


def legend(game: str) -> Text:
    """What the board's labels and the card notation mean, in a few lines."""
    return Text(_(game_module(game).LEGEND))


# ----------------------------------------------------------------------------- watch screens


def players_line(view: Json) -> Text:
    """Every seat, one per line: name, and score (Manhattan) or money (Wind City)."""
    names = player_names(view)
    state = view.get("state") or {}
    parts = []
    for p in state.get("players", []):
        label = seat_label(p["seat"], names)
        value = p.get("score") if "score" in p else p.get("money")
        label.append(
            _(" score {value}", value=value) if "score" in p else _(" money {value}", value=value)
        )
        parts.append(label)
    return Text("\n").join(parts)


def watch_screen(
    game: str, view: Json, recent: list[str], width: int = 80, height: int = 24
) -> RenderableType:
    """The biggest spectator screen that fits ``width`` x ``height``: the full view with
    the last events; else a compact board with the status (beside it when there is
    room), dropping old events first."""
    events = [Text(_("recent events:")), Text("\n".join(recent[-8:]), style="cyan")]
    full = Group(render_view(game, view), *events)
    state = view.get("state")
    if not state or _fits(full, width, height):
        return full
    ui = game_module(game)
    lines = height - 1
    side_by_side = ui.COMPACT_BESIDE and width >= 70
    board: Text = ui.board_compact(state, lines if side_by_side else lines - 4)
    screen: RenderableType = board
    for keep in range(min(len(recent), 8), -1, -1):
        tail = Text("\n".join(recent[-keep:]) if keep else "", style="cyan")
        info = [header(view), Text(ui.status(state)), players_line(view), tail]
        if side_by_side:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(width=42, no_wrap=True)  # 12 squares of 3, row number, L1…
            grid.add_column(width=width - 44)
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


# ----------------------------------------------------------------------------- play screens

MIN_MENU_ROWS = 4
"""A compact play screen keeps at least this many rows of menu (more pages otherwise)."""
EVENT_LINES = 2
"""...and gives up to this many lines to the newest events before the menu takes the rest."""


def _crop(line: Text, width: int) -> Text:
    out = line.copy()
    out.truncate(width, overflow="ellipsis")
    return out


def _wrap(text: Text | str | None, width: int) -> list[Text]:
    """``text`` as lines of at most ``width`` columns (words kept whole where possible)."""
    if text is None:
        return []
    text = Text(text) if isinstance(text, str) else text.copy()
    text.rstrip()
    if not text.plain.strip():
        return []
    lines = text.wrap(Console(width=width), width, overflow="ellipsis")
    return [_crop(line, width) for line in lines]


def _newest(recent: list[str], width: int, room: int) -> tuple[list[Text], int]:
    """The newest events that fit ``room`` lines of ``width`` columns, oldest first, and how
    many of them there are."""
    out: list[Text] = []
    shown = 0
    for line in reversed(recent):
        wrapped = _wrap(Text(line, style="cyan"), width)
        if len(out) + len(wrapped) > room:
            break
        out = wrapped + out
        shown += 1
    return out, shown


def compact_header(view: Json, width: int) -> Text:
    """One line: game, id, version, who is to act and who you are."""
    names = player_names(view)
    game = words.game(view.get("game", "?"))
    t = Text(f"{game} {view.get('id', '')} v{view.get('version')}", style="bold")
    _seats(t, view, names)
    return _crop(t, width)


def _beside(left: list[Text], right: list[Text], left_width: int) -> list[Text]:
    """Two columns of lines side by side, the left one padded to ``left_width``."""
    out = []
    for k in range(max(len(left), len(right))):
        line = left[k].copy() if k < len(left) else Text()
        if k < len(right):
            line.pad_right(left_width - line.cell_len)
            line.append_text(right[k])
        out.append(line)
    return out


def play_screen(
    game: str, view: Json, menu: Menu, recent: list[str], width: int = 80, height: int = 24
) -> tuple[Text, int]:
    """``play``'s screen for a small terminal: at most ``height`` - 1 lines (the prompt
    takes the last) of at most ``width`` columns. A compact board (as ``watch`` draws it),
    the players, your private part (hand, card, what you may insure), the newest events
    that fit and a page of the menu; Wind City's narrow board gets the others beside it.
    Returns the screen and how many of the newest ``recent`` events it shows (the caller
    prints the older ones above it)."""
    ui = game_module(game)
    state = view.get("state") or {}
    top = [compact_header(view, width), _crop(Text(ui.status(state)), width)]
    avail = height - 1 - len(top)
    players = ui.players_compact(view)
    side_width = width - 44
    if ui.COMPACT_BESIDE and side_width >= 30:
        board = list(ui.board_compact(state, avail).split("\n", allow_blank=False))
        side = [_crop(p, side_width) for p in players] + _wrap(ui.private(state), side_width)
        room = avail - len(side)
        events, shown = _newest(recent, side_width, min(EVENT_LINES, room - 1 - MIN_MENU_ROWS))
        menu_lines = menu.lines(side_width, max(1, room - len(events) - 1))
        events, shown = _newest(recent, side_width, room - len(menu_lines))
        lines = _beside(board, side + events + menu_lines, 44)
    else:
        private = _wrap(ui.private(state), width)
        natural = len(menu.rows(width)) + 1 if menu.moves else 0
        menu_room = min(natural, MIN_MENU_ROWS + 1)
        board_room = max(3, avail - len(private) - menu_room)
        board = list(ui.board_compact(state, board_room).split("\n", allow_blank=False))
        board_width = max((line.cell_len for line in board), default=0) + 2
        if width - board_width >= 24:
            block = _beside(board, [_crop(p, width - board_width) for p in players], board_width)
        else:
            block = board + [_crop(p, width) for p in players]
        room = avail - len(block) - len(private)
        events, _shown = _newest(recent, width, min(EVENT_LINES, room - 1 - MIN_MENU_ROWS))
        menu_lines = menu.lines(width, max(1, room - len(events) - 1)) if menu.moves else []
        events, shown = _newest(recent, width, room - len(menu_lines))
        lines = block + private + events + menu_lines
    lines = [_crop(line, width) for line in top + lines][: height - 1]
    return Text("\n").join(lines), shown
