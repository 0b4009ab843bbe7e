"""Games set up and played through the public API (no clicks), to bring a page to a given
moment quickly: ``ApiGame.create`` seats named players, ``play_until`` moves for them,
and ``open_as`` shows the game in a page as one of them (its token in localStorage, as
the lobby leaves it) or as a spectator."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests
from playwright.sync_api import Page

# Long names, one of 32 characters with no space: the layout must wrap them, not widen.
LONG_NAMES = ["Greedy bot 1", "Bartholomew_Longname_the_Third_X", "Greedy bot 3", "Greedy bot 4"]


@dataclass
class ApiGame:
    game: str  # "manhattan" or "windcity"
    base: str
    id: str
    host: str
    tokens: dict[int, str]
    rng: random.Random = field(default_factory=lambda: random.Random(1))

    @classmethod
    def create(cls, game: str, base: str, names: list[str], seed: int, **options: Any) -> ApiGame:
        """A started game with ``names`` in seats 0.. (people, moving through the API)."""
        created = post(base, "/games", {"players": len(names), "seed": seed, **options})
        tokens = {}
        for name in names:
            joined = post(base, f"/games/{created['id']}/players", {"name": name})
            tokens[joined["seat"]] = joined["token"]
        made = cls(game, base, created["id"], created["host_token"], tokens)
        post(base, f"/games/{made.id}/start", {}, token=made.host)
        return made

    def view(self, seat: int | None = None) -> dict:
        """``seat``'s view, or the public one (the host's, live: an unlisted game's
        spectators need its watch code, and a delayed game's are behind)."""
        token = self.tokens[seat] if seat is not None else self.host
        return get(self.base, f"/games/{self.id}", token)

    def score(self) -> dict:
        return get(self.base, f"/games/{self.id}/score", self.host)

    def step(self, choose: Callable[[dict, list[dict]], dict] | None = None) -> bool:
        """One move by the first seat to act (``choose(view, moves)`` picks it, else a
        random legal one); False once the game is over."""
        view = self.view()
        if view["status"] != "running":
            return False
        seat = view["to_act"][0]
        mine = self.view(seat)
        moves = get(self.base, f"/games/{self.id}/legal-moves", self.tokens[seat])["moves"]
        move = choose(mine, moves) if choose else None
        move = move or self.rng.choice(moves)
        post(self.base, f"/games/{self.id}/moves", move, self.tokens[seat])
        return True

    def play_until(
        self,
        done: Callable[[dict], bool],
        choose: Callable[[dict, list[dict]], dict] | None = None,
        limit: int = 3000,
    ) -> dict:
        """Move for every seat until ``done(public view)``; that view."""
        for _ in range(limit):
            view = self.view()
            if done(view):
                return view
            if not self.step(choose):
                raise AssertionError(f"the game ended before the wanted moment: {view['status']}")
        raise AssertionError("the wanted moment never came")

    def finish(self) -> None:
        while self.step():
            pass

    def open_as(self, page: Page, seat: int | None) -> None:
        """Show the game in ``page`` as ``seat`` (None: a spectator)."""
        page.goto(f"{self.base}/play/config.json")
        if seat is not None:
            record = {"seat": seat, "token": self.tokens[seat], "name": f"seat {seat}"}
            page.evaluate(
                "([key, record]) => localStorage.setItem(key, JSON.stringify(record))",
                [f"boardgames:{self.game}:{self.id}", record],
            )
        page.goto(f"{self.base}/play?game={self.id}{'' if seat is not None else '&watch=1'}")
        caught_up(page, self)


def to_act(seat: int, phase: str | None = None) -> Callable[[dict], bool]:
    """``done`` for ``play_until``: ``seat`` is to act (in ``phase``)."""
    return lambda v: (
        v["status"] == "running"
        and seat in v["to_act"]
        and (phase is None or v["state"]["phase"] == phase)
    )


def caught_up(page: Page, game: ApiGame) -> None:
    """Wait until the page shows the game's current version."""
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v && document.body.dataset.busy === 'false'",
        arg=game.view()["version"],
    )


def get(base: str, path: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.get(base + path, headers=headers, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def post(base: str, path: str, body: Any, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.post(base + path, json=body, headers=headers, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def rect(page: Page, selector: str) -> dict:
    """The element's box in page coordinates (not the viewport's)."""
    return page.evaluate(
        """s => { const r = document.querySelector(s).getBoundingClientRect();
        return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right,
                width: r.width, height: r.height}; }""",
        selector,
    )


def page_width(page: Page) -> int:
    return page.evaluate(
        "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
    )


def assert_fits(page: Page) -> None:
    """No horizontal overflow: nothing wider than the viewport, no sideways scrolling."""
    width = page.viewport_size["width"]
    wide = page.evaluate(
        """w => [...document.querySelectorAll('main *, header *, #status *')]
        .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > w + 0.5)
        .slice(0, 5).map(e => `${e.tagName}#${e.id}.${e.className}`)""",
        width,
    )
    assert page_width(page) <= width and wide == [], (page_width(page), wide)


def assert_near_board(page: Page, controls: str) -> None:
    """Every control matching ``controls`` is at most one screen from the board; on a
    desktop-sized window the board and those controls share the first screen."""
    page.evaluate("window.scrollTo(0, 0)")
    height = page.viewport_size["height"]
    board = rect(page, "#board")
    boxes = page.evaluate(
        """s => [...document.querySelectorAll(s)].filter(e => e.getClientRects().length)
        .map(e => { const r = e.getBoundingClientRect();
          return {what: e.id || e.dataset.key || e.textContent.trim().slice(0, 20),
                  top: r.top + scrollY, bottom: r.bottom + scrollY}; })""",
        controls,
    )
    assert boxes, f"no control {controls!r} shown"
    for box in boxes:
        gap = max(0, box["top"] - board["bottom"], board["top"] - box["bottom"])
        assert gap <= height, f"{box['what']} is {gap:.0f} px from the board"
    if page.viewport_size["width"] >= 900:
        assert board["bottom"] <= height, f"the board ends at {board['bottom']:.0f} px"
        late = [b["what"] for b in boxes if b["bottom"] > height]
        assert late == [], f"below the fold beside the board: {late}"
