"""Pure rendering: a game view dict (as the services return it) → a rich renderable.

Nothing here does I/O, so tests can render to text with :func:`to_text` and read the
board back cell by cell against the view it was drawn from.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .games import game_module
from .style import (
    Describe,
    Json,
    Names,
    name_of,
    player_names,
    seat_label,
    seat_labels,
    simple_table,
    to_text,
    winners_text,
)

__all__ = ["legend", "render_view", "render_score", "describe_event", "to_text", "watch_screen"]


def header(view: Json) -> Text:
    """One line: game, id, status, version and who is to act."""
    names = player_names(view)
    t = Text()
    t.append(f"{view.get('game', '?')} ", style="bold")
    t.append(f"{view.get('id', '')}  status={view.get('status')} v{view.get('version')}")
    if view.get("to_act"):
        t.append("  to act: ").append_text(seat_labels(view["to_act"], names))
    if view.get("you") is not None:
        t.append("  you: ").append_text(seat_label(view["you"], names))
    return t


def render_result(view: Json) -> Table:
    """Final standings from the view's ``result`` (any game)."""
    result = view.get("result") or {}
    names = player_names(view)
    rows = result.get("standings") or []
    keys = list(dict.fromkeys(k for r in rows for k in r if k not in ("seat", "rank")))
    table = simple_table("Result", ["rank", "player", *keys])
    for r in rows:
        table.add_row(
            str(r.get("rank", "")), seat_label(r.get("seat"), names), *(str(r.get(k)) for k in keys)
        )
    winners = result.get("winners") or []
    caption = "winner: " + winners_text(winners, names) if winners else ""
    if result.get("reason"):
        caption += f" ({result['reason']})"
    table.caption = caption
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
        seats = Text("seats: ").append_text(seat_labels(sorted(names), names))
        return Group(header(view), Text("(not started)", style="dim"), seats)
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
    table = Table(title=f"{game} score ({score.get('status')})", box=box.SIMPLE_HEAD)
    table.add_column("")
    for s in range(len(totals)):
        table.add_column(name_of(names, s), justify="right")
    for label, values in rows:
        table.add_row(label, *(str(v) for v in values))
    table.add_row("total", *(str(t) for t in totals), style="bold")
    return table


# ----------------------------------------------------------------------------- events

_EVENTS: dict[str, Describe] = {
    "game_created": lambda *_: "game created",
    "game_started": lambda *_: "the game starts",
    "game_finished": lambda *_: "game finished",
    "game_cancelled": lambda *_: "game cancelled",
    "player_joined": lambda e, who, _: f"{e.get('name', who)} joined at seat {e.get('seat')}",
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
        winners = (event.get("result") or {}).get("winners", [])
        return "game over; winner(s): " + winners_text(winners, names)
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
    return Text(game_module(game).LEGEND)


# ----------------------------------------------------------------------------- watch screens


def players_line(view: Json) -> Text:
    """Every seat, one per line: name, and score (Manhattan) or money (Wind City)."""
    names = player_names(view)
    state = view.get("state") or {}
    parts = []
    for p in state.get("players", []):
        label = seat_label(p["seat"], names)
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
