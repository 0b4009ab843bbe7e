"""``play`` without a server (issue 29, items 10 and 11): the compact screen fits 80x24 in
every phase of both games, every legal move is reachable from the menu (pages, filter,
notation) and no entry is split across lines; a stale version is answered by reading
the game again (same options: sent again; new options: a new menu; not our turn any
more: back to waiting)."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from rich.console import Console

from clients.cli import render, words
from clients.cli.errors import Conflict, PreconditionFailed
from clients.cli.menu import Menu
from clients.cli.notation import format_move, parse_move
from clients.cli.play import PlaySession
from services.manhattan import rules as mh
from services.windcity import rules as wc

GID = "0123456789abcdef"
ENGINES = {"manhattan": mh, "windcity": wc}


def _views(game: str, players: int, seed: int):
    """A seat's view (and its legal moves) at every decision of a random playout."""
    engine = ENGINES[game]
    state = engine.setup(players, {}, seed)
    rng = random.Random(seed)
    version = 0
    while not engine.is_over(state):
        to_act = engine.to_act(state)
        seat = to_act[-1]
        legal = engine.legal_moves(state, seat)
        view = {
            "id": GID,
            "game": game,
            "status": "running",
            "version": version,
            "players": [{"seat": i, "name": f"Greedy bot {i}"} for i in range(players)],
            "you": seat,
            "to_act": to_act,
            "state": engine.view(state, seat),
            "result": None,
        }
        yield view, legal
        state, _ = engine.apply_move(state, seat, rng.choice(legal))
        version += 1


def _lines(screen) -> list[str]:
    return render.to_text(screen, width=200).rstrip("\n").split("\n")


@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [("manhattan", 2, 1), ("manhattan", 4, 2), ("windcity", 3, 3), ("windcity", 5, 4)],
)
def test_the_compact_screen_fits_80x24_in_every_phase(game: str, players: int, seed: int) -> None:
    """Item 11: the full Manhattan board is ~64 lines at 80 columns; the compact screen
    (board, players, your hand or card, the newest events, a page of the menu) is at most
    23 lines (the prompt takes the 24th) of at most 80 columns, at every decision."""
    recent = [f"Greedy bot {i % players} did something rather long number {i}" for i in range(9)]
    phases = set()
    for k, (view, legal) in enumerate(_views(game, players, seed)):
        if k % 3:  # every third decision is plenty (and quick)
            continue
        phases.add(view["state"]["phase"])
        menu = Menu.of(game, legal)
        screen, shown = render.play_screen(game, view, menu, recent, 80, 24)
        lines = _lines(screen)
        assert len(lines) <= 23 and max(map(len, lines)) <= 80, "\n".join(lines)
        assert lines[0].startswith(f"{words.game(game)} {GID} v")
        assert any(re.search(r"(^|\s)1\. ", line) for line in lines), "\n".join(lines)
        assert (
            recent[len(recent) - shown :]
            == [line.strip() for line in lines if "did something" in line]
            or shown == 0
            or game == "windcity"
        )  # beside the board they may wrap
        if game == "manhattan":  # every built lot is on screen
            text = "\n".join(lines)
            for city in view["state"]["cities"]:
                assert city["name"][:10] in text
                for lot in city["lots"]:
                    if lot.get("pieces"):
                        assert f"{lot['height']}S{lot['owner']}" in text
    assert len(phases) >= 2


def _page_entries(lines: list[str], labels: list[str]) -> dict[int, str]:
    """number → label of every entry on a page's lines, checking each is whole."""
    found = {}
    for line in lines[1:]:
        for m in re.finditer(r"(\d+)\. ", line):
            n = int(m.group(1))
            rest = line[m.end() :]
            label = labels[n - 1]
            assert rest.startswith(label) or rest.endswith("…"), (line, label)
            found[n] = label
    return found


@pytest.mark.parametrize(("game", "seed"), [("manhattan", 5), ("windcity", 6)])
def test_every_legal_move_is_reachable_from_the_menu(game: str, seed: int) -> None:
    """Item 11: the menu used to list the first 60 moves (``… and 12 more``). Now the
    pages together show every move once, whole, under its one number; a filter keeps the
    moves that hold its words; and every move's notation is taken as typed."""
    for k, (_, legal) in enumerate(_views(game, 4, seed)):
        if k % 5:
            continue
        menu = Menu.of(game, legal)
        seen: dict[int, str] = {}
        for _ in range(len(legal)):
            lines = [line.plain for line in menu.lines(36, 6)]
            assert len(lines) <= 7 and all(len(line) <= 36 for line in lines)
            seen.update(_page_entries(lines, menu.labels))
            if menu.pages_seen == 1 or menu.page == menu.pages_seen - 1:
                break
            menu.turn(1)
        assert sorted(seen) == list(range(1, len(legal) + 1))
        for move in legal:
            assert parse_move(game, format_move(game, move), legal) == move
        label = menu.labels[-1]
        menu.filter(label)
        kept = menu.matching()
        assert len(legal) - 1 in kept and all(label in menu.labels[i] for i in kept)


def test_full_mode_lists_every_move_in_aligned_cells() -> None:
    """The full menu has no "... and N more": 96 placements at 80 columns, each entry
    whole on one line."""
    moves = [
        {"type": "place", "city": c, "lot": lot, "floors": f}
        for c in range(1, 7)
        for lot in (2, 5, 7, 9)
        for f in (1, 2, 3, 4)
    ]
    menu = Menu.of("manhattan", moves)
    lines = [line.plain for line in menu.lines(80)]
    assert lines[0] == "96 moves (CITY LOT FLOORS)"
    assert max(map(len, lines)) <= 80
    assert sorted(_page_entries(lines, menu.labels)) == list(range(1, 97))
    starts = {m.end() for line in lines[1:] for m in re.finditer(r"\d+\. ", line)}
    assert len(starts) <= 8  # the same columns on every line


class FakeClient:
    """Scripted answers of the service for one Wind City seat in an insurance market."""

    def __init__(self, steps: list[Any]) -> None:
        self.steps = steps  # what each move request does, in order
        self.views: list[dict] = []
        self.sent: list[tuple[dict, Any]] = []

    def view(self, game_id: str, legal_moves: bool = False, **_: Any) -> dict:
        view = dict(self.views[0] if len(self.views) == 1 else self.views.pop(0))
        return view

    def move(self, game_id: str, move: dict, if_match: Any = None, **_: Any) -> dict:
        self.sent.append((move, if_match))
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        return step

    def events(self, game_id: str, after: Any = None, **_: Any) -> dict:
        return {"events": [{"type": "insured", "seat": 2, "squares": [], "version": 58}]}

    def wait_for_turn(self, game_id: str, **_: Any) -> dict:
        return self.view(game_id)

    def score(self, game_id: str) -> dict:
        return {"status": "finished", "score": {"seats": []}}


def _market(version: int, to_act: list[int], legal: list[dict], status: str = "running") -> dict:
    return {
        "id": GID,
        "game": "windcity",
        "status": status,
        "version": version,
        "players": [{"seat": i, "name": n} for i, n in enumerate(["you", "bob", "cy"])],
        "you": 0,
        "to_act": to_act,
        "state": {"phase": "insure", "players": [], "houses": [], "pending": to_act},
        "legal_moves": legal,
        "result": None,
    }


NOTHING = {"type": "insure", "squares": []}
ONE = {"type": "insure", "squares": ["C5"]}
STALE = PreconditionFailed(412, "version-mismatch", "The game is at version 58.")


def _session(client: FakeClient, typed: list[str]) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    con = Console(file=out, width=100, color_system=None)
    answers = iter(typed)

    def read(prompt: str) -> str:
        out.write(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return PlaySession(con, "windcity", client, GID, "full", read), out  # type: ignore[arg-type]


def test_a_stale_version_with_the_same_options_is_sent_again() -> None:
    client = FakeClient([STALE, {"game": _market(59, [1], []), "events": [NOTHING]}])
    client.views = [_market(57, [0, 2], [NOTHING, ONE]), _market(58, [0], [NOTHING, ONE])]
    session, out = _session(client, ["1"])
    session.play_turn(session_turn(client))
    assert [m for m, _ in client.sent] == [NOTHING, NOTHING]
    assert [v for _, v in client.sent] == [57, 58]  # the second at the version it read
    text = out.getvalue()
    assert "while you chose:" in text and "cy insured nothing" in text
    assert "your options are the same: insure nothing sent again at v58" in text


def test_a_stale_version_with_new_options_asks_again() -> None:
    client = FakeClient([STALE, {"game": _market(59, [1], []), "events": []}])
    client.views = [_market(57, [0, 2], [NOTHING, ONE]), _market(58, [0], [ONE, NOTHING])]
    session, out = _session(client, ["1", "1"])
    session.play_turn(session_turn(client))
    assert client.sent == [(NOTHING, 57), (ONE, 58)]  # number 1 of the new menu
    assert "your options changed: choose again" in out.getvalue()


def test_a_stale_version_after_our_turn_passed_goes_back_to_waiting() -> None:
    client = FakeClient([STALE])
    client.views = [_market(57, [0, 2], [NOTHING, ONE]), _market(58, [1], [])]
    session, out = _session(client, ["2"])
    assert session.play_turn(session_turn(client)) is None
    assert client.sent == [(ONE, 57)]
    assert "it is no longer your turn" in out.getvalue()


def session_turn(client: FakeClient):
    from clients.cli.play import Turn

    view = dict(client.view(GID))
    legal = view.pop("legal_moves")
    return Turn(view, legal, Menu.of("windcity", legal))


def test_a_seat_a_bot_plays_now_ends_play_with_its_reason() -> None:
    """After too many timeouts (or resigning) a bot plays the seat: the move is refused
    with seat-abandoned, and ``play`` says so and stops instead of asking again forever."""
    gone = Conflict(409, "seat-abandoned", "A bot plays this seat now.")
    client = FakeClient([gone])
    client.views = [_market(57, [0, 2], [NOTHING, ONE])]
    session, out = _session(client, ["1", "1"])
    assert session.run() == 1
    assert client.sent == [(NOTHING, 57)]
    assert "seat-abandoned: A bot plays this seat now." in out.getvalue()


def test_help_stays_on_screen_and_enter_draws_the_menu_again() -> None:
    client = FakeClient([{"game": _market(58, [1], []), "events": []}])
    client.views = [_market(57, [0, 2], [NOTHING, ONE])]
    session, out = _session(client, ["?", "", "2"])
    session.play_turn(session_turn(client))
    text = out.getvalue()
    help_at = text.index("/TEXT      show only the moves")
    assert text.count("2 moves") == 2 and text.index("2 moves", help_at) > help_at
    assert client.sent == [(ONE, 57)]
