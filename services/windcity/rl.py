"""Wind City as an environment (the codec ``shared.rl.make("windcity")`` finds by its
``boardgames.rl`` entry point): every move kind the game can list, and a seat's view as
a vector (seats relative to the viewer: 0 is the viewer, then the seats in play order).

Actions (49,720), one per kind of listed move, never per step:

- ``place_hurricane`` on each square of row 1 (12), ``place_house`` on each square (288);
- ``plan``: each ordering of 1-3 of the card's 5 actions (85) x Kauf target (none or a
  square, 289) x renewals (none, or the listing's ready-made "every affordable one",
  2): 49,130, of which a turn lists at most a few hundred;
- ``insure``: nothing, each single square (288), or the ready-made "every affordable
  one" (1).

Wind City's ``renew`` and ``squares`` are free subsets (``engine.choices``); the
environment offers exactly the listed moves (the empty subset, single houses and the
greedy "all affordable" one, see docs/windcity.md), not every subset: 2^k kinds per seat
would not fit a fixed ``Discrete`` space.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from services.windcity.rules import ENGINE
from services.windcity.rules.board import NROWS, OBSERVATORIES, POS, row_squares
from services.windcity.rules.cards import ORDERINGS, PUBLIC_CARDS
from shared.engine import Move
from shared.rl.codec import Codec, Features, Key, relative

SEATS = 5  # slots for players in the vector (MAX_PLAYERS)
PHASES = ("hurricane", "houses", "plan", "insure", "over")
ENDS = ("north_edge", "last_player", "max_turns")
SQUARES = tuple(POS)
SQUARE = {sq: i for i, sq in enumerate(SQUARES)}
OBSERVATORY = {sq: i for i, sq in enumerate(OBSERVATORIES)}
ORDERING = {o: i for i, o in enumerate(ORDERINGS)}
CARDS = len(PUBLIC_CARDS)
ALL = "all"  # the ready-made "every affordable house" insure move

ACTIONS: tuple[Key, ...] = (
    *(("place_hurricane", sq) for sq in row_squares(1)),
    *(("place_house", sq) for sq in SQUARES),
    *(
        ("plan", order, kauf, renew)
        for order in ORDERINGS
        for kauf in (None, *SQUARES)
        for renew in (False, True)
    ),
    ("insure", None),
    *(("insure", sq) for sq in SQUARES),
    ("insure", ALL),
)


def key(move: Move) -> Key:
    """A listed move's entry in :data:`ACTIONS`."""
    kind = move["type"]
    if kind == "plan":
        return ("plan", tuple(move["actions"]), move["kauf"], bool(move["renew"]))
    if kind == "insure":
        squares = move["squares"]
        return ("insure", squares[0] if len(squares) == 1 else ALL if squares else None)
    return (kind, move["square"])


def _squares(f: Features, items: list[dict[str, Any]], scale: float) -> None:
    """Per square: its ``price`` (over ``scale``) when listed in ``items``, else 0."""
    out = [0.0] * len(SQUARES)
    for item in items:
        out[SQUARE[item["square"]]] = min(item["price"] / scale, 1.0)
    f.values.extend(out)


def encode(view: dict[str, Any], me: int, n: int) -> NDArray[np.float32]:
    """``engine.view(state, me)`` as a vector of 0..1 numbers (see the module docstring)."""
    f = Features()
    f.one_hot(PHASES.index(view["phase"]), len(PHASES))
    f.scalar(view["turn"], view["max_turns"])
    f.scalar(view["max_turns"], 1000)
    f.flag(view["options"]["play_area"] == "full")
    f.flag(view["options"]["score_money"])
    f.scalar(view["north_edge"], NROWS)
    f.scalar(view["land_sections"], 4)
    f.scalar(view["quota"], 6)
    f.scalar(view["beach_max"], 3)
    f.one_hot(relative(view["first"], me, n), SEATS)
    active = view["active"]
    f.one_hot(None if active is None else relative(active, me, n), SEATS)
    for seats in (view["to_act"], view["pending"]):
        marks = [0.0] * SEATS
        for s in seats:
            marks[relative(s, me, n)] = 1.0
        f.values.extend(marks)
    hurricane = view["hurricane"]
    f.one_hot(None if hurricane is None else SQUARE[hurricane], len(SQUARES))
    end = view["end"]
    f.one_hot(None if end is None else ENDS.index(end), len(ENDS))
    # the board: per square, its house's owner, insured, duplex
    board = np.zeros((len(SQUARES), SEATS + 2), dtype=np.float32)
    for h in view["houses"]:
        row = board[SQUARE[h["square"]]]
        row[relative(h["owner"], me, n)] = 1.0
        row[SEATS] = float(h["insured"])
        row[SEATS + 1] = float(h["duplex"])
    f.values.extend(board.ravel().tolist())
    observatories = [0.0] * (2 * len(OBSERVATORIES))
    for o in view["observatories"]:
        i = OBSERVATORY[o["square"]]
        observatories[2 * i] = 1.0
        observatories[2 * i + 1] = float(o["marker"])
    f.values.extend(observatories)
    # the players, the viewer first
    by_slot = {relative(p["seat"], me, n): p for p in view["players"]}
    for slot in range(SEATS):
        p = by_slot.get(slot)
        f.flag(p is not None)
        if p is None:
            f.values.extend([0.0] * 4)
            continue
        f.scalar(p["money"], 200)
        f.scalar(p["stock"], 24)
        f.scalar(p["houses_on_board"], 24)
        f.flag(p["in_game"])
    f.scalar(view["deck_size"], CARDS)
    f.counts(view["discard"], CARDS, 1)
    # the viewer's own part: its card and plan (while active), what it may renew or insure
    you = view["you"]
    card = you["card"]
    f.one_hot(None if card is None else card["number"] - 1, CARDS)
    plan = you["plan"]
    f.flag(plan is not None)
    f.one_hot(None if plan is None else ORDERING[tuple(plan["actions"])], len(ORDERINGS))
    kauf = plan["kauf"] if plan else None
    f.one_hot(None if kauf is None else SQUARE[kauf], len(SQUARES))
    renew = [0.0] * len(SQUARES)
    for sq in plan["renew"] if plan else ():
        renew[SQUARE[sq]] = 1.0
    f.values.extend(renew)
    _squares(f, you["renewable"], 6)
    _squares(f, you["insurable"], 6)
    return f.array()


CODEC = Codec(engine=ENGINE, actions=ACTIONS, key=key, encode=encode)
