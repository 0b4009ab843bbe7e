"""The Manhattan engine: setup, turn order, legal moves, applying moves, views.

State is a plain JSON dict (see docs/manhattan.md). ``apply_move`` copies only the
parts a move changes, so earlier states stay valid and moves stay cheap.
"""

from __future__ import annotations

from bisect import insort
from functools import lru_cache
from typing import Any

import shared.rng as rng
from shared.engine import Event, Move, RuleError, State

from .board import CITIES, LOTS, PIECES, index, needed
from .cards import (
    CITY_NAMES,
    DECK,
    HAND_SIZE,
    ROTATION,
    SIDE_NAMES,
    SIDES_BY_COUNT,
    UNROTATION,
)
from .promos import FAKE_NEWS, PROMO_IDS
from .scoring import score_round, standings

NAME = "manhattan"
MIN_PLAYERS = 2
MAX_PLAYERS = 4

OPTIONS = {"six_rounds": False, "promo_cards": False}
MOVE_FIELDS = {
    "select": ("pieces",),
    "place": ("city", "lot", "floors"),
    "discard": ("lot",),
    "forfeit": ("floors",),
}
_KEYS = {t: frozenset(("type", *f)) for t, f in MOVE_FIELDS.items()}
_STOCK = [PIECES[1], PIECES[2], PIECES[3], PIECES[4]]
MAX_DISCARDS = HAND_SIZE
"""A stuck player may discard at most a full hand in one turn, then must forfeit."""


def _rounds(state: State) -> tuple[int, int]:
    """(number of rounds, pieces per round)."""
    return (6, 4) if state["options"]["six_rounds"] else (4, 6)


def setup(num_players: int, options: dict[str, Any] | None, seed: int) -> State:
    """A new game: random start player, shuffled deck, 4 cards each, promo card revealed."""
    if type(num_players) is not int or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise RuleError("invalid-player-count", f"Manhattan needs 2-4 players, not {num_players!r}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RuleError("invalid-option", "options must be an object")
    for key, value in options.items():
        if key not in OPTIONS:
            raise RuleError("invalid-option", f"unknown option {key!r}")
        if type(value) is not bool:
            raise RuleError("invalid-option", f"option {key!r} must be true or false")
    opts = {**OPTIONS, **options}
    if type(seed) is not int:
        raise RuleError("invalid-option", "seed must be an integer")
    n = num_players
    s = rng.seed_state(seed)
    s, start = rng.below(s, n)
    s, deck = rng.shuffle(s, list(DECK))
    hands = []
    for _ in range(n):
        hands.append(sorted(deck[-HAND_SIZE:]))
        del deck[-HAND_SIZE:]
    pdeck: list[str] = []
    revealed: list[str] = []
    if opts["promo_cards"]:
        s, pdeck = rng.shuffle(s, list(PROMO_IDS))
        revealed = [pdeck.pop(0)]
    return {
        "n": n,
        "options": opts,
        "rng": s,
        "phase": "select",
        "round": 1,
        "start": start,
        "cur": start,
        "board": [[] for _ in range(CITIES * LOTS)],
        "stock": [list(_STOCK) for _ in range(n)],
        "sel": [[] for _ in range(n)],
        "forf": [[] for _ in range(n)],
        "hands": hands,
        "deck": deck,
        "disc": [],
        "pdeck": pdeck,
        "promo": revealed,
        "rounds": [],
        "scores": [0] * n,
        "discards": 0,
    }


def is_over(state: State) -> bool:
    return bool(state["phase"] == "over")


def to_act(state: State) -> list[int]:
    """The one seat expected to act, or ``[]`` once the game is over."""
    return [] if state["phase"] == "over" else [state["cur"]]


# ---------------------------------------------------------------- legal moves


@lru_cache(maxsize=4096)
def _selections(stock: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Every sorted multiset of ``k`` sizes available in ``stock`` (counts of sizes 1-4)."""
    out = []
    for a in range(min(stock[0], k) + 1):
        for b in range(min(stock[1], k - a) + 1):
            for c in range(min(stock[2], k - a - b) + 1):
                d = k - a - b - c
                if d <= stock[3]:
                    out.append((1,) * a + (2,) * b + (3,) * c + (4,) * d)
    return tuple(sorted(out))


def _hand_lots(state: State, seat: int) -> list[int]:
    rot = ROTATION[SIDES_BY_COUNT[state["n"]][seat]]
    return sorted({rot[c - 1] for c in state["hands"][seat]})


def _placements(state: State, seat: int) -> list[Move]:
    sizes = sorted(set(state["sel"][seat]))
    lots = _hand_lots(state, seat)
    board = state["board"]
    out: list[Move] = []
    append = out.append
    for city in range(1, CITIES + 1):
        base = (city - 1) * LOTS - 1
        for lot in lots:
            b = board[base + lot]
            # the stacking rule only restricts buildings someone else owns
            need = needed(b, seat) if b and b[-1] // 10 != seat else 0
            for f in sizes:
                if f >= need:
                    append({"type": "place", "city": city, "lot": lot, "floors": f})
    return out


def _stuck_move(state: State, seat: int) -> str:
    """For a player with no legal placement: ``discard`` or ``forfeit``.

    Rules, *A player who cannot place*: discard while fewer than ``MAX_DISCARDS``
    discards were made this turn and some lot on the board accepts a selected piece;
    otherwise forfeit. Only public information decides (never the draw pile or other
    hands), so the legal moves tell a player nothing they may not know.
    """
    if discards_this_turn(state) >= MAX_DISCARDS:
        return "forfeit"
    biggest = max(state["sel"][seat])
    board = state["board"]
    if any(needed(b, seat) <= biggest for b in board):
        return "discard"
    return "forfeit"


def discards_this_turn(state: State) -> int:
    """Discards made in the current turn (documents stored before the cap: 0)."""
    return int(state.get("discards", 0))


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every legal move of ``seat`` (empty when it is not that seat's turn)."""
    if state["phase"] == "over" or seat != state["cur"]:
        return []
    if state["phase"] == "select":
        k = _rounds(state)[1]
        return [
            {"type": "select", "pieces": list(p)}
            for p in _selections(tuple(state["stock"][seat]), k)
        ]
    moves = _placements(state, seat)
    if moves:
        return moves
    if _stuck_move(state, seat) == "discard":
        return [{"type": "discard", "lot": lot} for lot in _hand_lots(state, seat)]
    return [{"type": "forfeit", "floors": f} for f in sorted(set(state["sel"][seat]))]


# ---------------------------------------------------------------- applying moves


def _int(move: Move, key: str, lo: int, hi: int) -> int:
    v = move.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise RuleError("bad-move", f"{key!r} must be an integer {lo}-{hi}")
    return v


def _draw(new: State, seat: int, events: list[Event]) -> None:
    """Draw one card for ``seat``; reshuffle the played cards first if the pile is empty."""
    deck = new["deck"]
    if not deck:
        new["rng"], deck = rng.shuffle(new["rng"], new["disc"])
        new["disc"] = []
        events.append({"type": "deck_reshuffled", "size": len(deck)})
    new["deck"] = deck[:-1]
    hands = new["hands"] = list(new["hands"])
    hand = hands[seat] = list(hands[seat])
    insort(hand, deck[-1])


def _spend(new: State, seat: int, card: int) -> None:
    hands = new["hands"] = list(new["hands"])
    hand = hands[seat] = list(hands[seat])
    hand.remove(card)
    new["disc"] = new["disc"] + [card]


def apply_move(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    """The state after ``move`` and its public events; raises RuleError, changing nothing."""
    phase = state["phase"]
    if phase == "over":
        raise RuleError("game-over", "the game is over")
    if seat != state["cur"] or type(seat) is not int:
        raise RuleError("not-your-turn", f"it is seat {state['cur']}'s turn")
    if not isinstance(move, dict):
        raise RuleError("bad-move", "a move must be an object")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise RuleError("unknown-move", f"unknown move type {kind!r}")
    if (kind == "select") != (phase == "select"):
        raise RuleError("wrong-phase", f"no {kind!r} in the {phase} phase")
    if move.keys() != _KEYS[kind]:
        raise RuleError("bad-move", f"a {kind!r} move has exactly the fields {sorted(_KEYS[kind])}")
    if kind == "select":
        return _select(state, seat, move)
    if kind == "place":
        return _place(state, seat, move)
    if kind == "discard":
        return _discard(state, seat, move)
    return _forfeit(state, seat, move)


def _select(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    pieces = move["pieces"]
    if not isinstance(pieces, list) or any(type(p) is not int or not 1 <= p <= 4 for p in pieces):
        raise RuleError("bad-move", "'pieces' must be a list of floor sizes 1-4")
    k = _rounds(state)[1]
    if len(pieces) != k:
        raise RuleError("invalid-selection", f"select exactly {k} pieces")
    counts = [pieces.count(f) for f in (1, 2, 3, 4)]
    have = state["stock"][seat]
    if any(c > h for c, h in zip(counts, have, strict=True)):
        raise RuleError("invalid-selection", "those pieces are not in your stock")
    new = dict(state)
    stock = new["stock"] = list(state["stock"])
    stock[seat] = [h - c for h, c in zip(have, counts, strict=True)]
    sel = new["sel"] = list(state["sel"])
    sel[seat] = chosen = sorted(pieces)
    nxt = (seat + 1) % state["n"]
    if nxt == state["start"]:
        new["phase"] = "build"
    new["cur"] = nxt
    return new, [{"type": "pieces_selected", "seat": seat, "pieces": list(chosen)}]


def _place(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    city = _int(move, "city", 1, CITIES)
    lot = _int(move, "lot", 1, LOTS)
    floors = _int(move, "floors", 1, 4)
    card = UNROTATION[SIDES_BY_COUNT[state["n"]][seat]][lot - 1]
    if card not in state["hands"][seat]:
        raise RuleError("lot-not-on-card", f"no card in your hand allows lot {lot}")
    if floors not in state["sel"][seat]:
        raise RuleError("piece-not-selected", f"you have no selected {floors}-floor piece")
    i = index(city, lot)
    building = state["board"][i]
    need = needed(building, seat)
    if floors < need:
        raise RuleError("insufficient-floors", f"you need a piece of at least {need} floors here")
    new = dict(state)
    board = new["board"] = list(state["board"])
    board[i] = building = building + [seat * 10 + floors]
    sel = new["sel"] = list(state["sel"])
    mine = sel[seat] = list(sel[seat])
    mine.remove(floors)
    _spend(new, seat, card)
    events: list[Event] = [
        {
            "type": "piece_placed",
            "seat": seat,
            "city": city,
            "lot": lot,
            "floors": floors,
            "card": card,
            "owner": seat,
            "previous_owner": building[-2] // 10 if len(building) > 1 else None,
            "height": sum(p % 10 for p in building),
        }
    ]
    _draw(new, seat, events)
    _advance(new, seat, events)
    return new, events


def _discard(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    lot = _int(move, "lot", 1, LOTS)
    if _placements(state, seat) or _stuck_move(state, seat) != "discard":
        raise RuleError("discard-not-allowed", "you may only discard when you cannot build")
    card = UNROTATION[SIDES_BY_COUNT[state["n"]][seat]][lot - 1]
    if card not in state["hands"][seat]:
        raise RuleError("card-not-in-hand", f"no card in your hand allows lot {lot}")
    new = dict(state)
    new["discards"] = discards_this_turn(state) + 1
    _spend(new, seat, card)
    events: list[Event] = [{"type": "card_discarded", "seat": seat, "card": card, "lot": lot}]
    _draw(new, seat, events)
    return new, events


def _forfeit(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    floors = _int(move, "floors", 1, 4)
    if _placements(state, seat) or _stuck_move(state, seat) != "forfeit":
        raise RuleError("forfeit-not-allowed", "you may only forfeit when nothing can be built")
    if floors not in state["sel"][seat]:
        raise RuleError("piece-not-selected", f"you have no selected {floors}-floor piece")
    new = dict(state)
    sel = new["sel"] = list(state["sel"])
    mine = sel[seat] = list(sel[seat])
    mine.remove(floors)
    forf = new["forf"] = list(state["forf"])
    forf[seat] = sorted(forf[seat] + [floors])
    events: list[Event] = [{"type": "piece_forfeited", "seat": seat, "floors": floors}]
    _advance(new, seat, events)
    return new, events


def _advance(new: State, seat: int, events: list[Event]) -> None:
    """Pass the turn clockwise to the next seat with pieces left, or end the round."""
    new["discards"] = 0
    n = new["n"]
    sel = new["sel"]
    for k in range(1, n + 1):
        s = (seat + k) % n
        if sel[s]:
            new["cur"] = s
            return
    _end_round(new, events)


def _end_round(new: State, events: list[Event]) -> None:
    n = new["n"]
    r = new["round"]
    promo = new["promo"][-1] if new["options"]["promo_cards"] else None
    scored = promo
    if promo == FAKE_NEWS:
        pdeck = new["pdeck"]
        scored = pdeck[0] if pdeck else None
        new["pdeck"] = pdeck[1:]
    cats = score_round(new["board"], n, scored)
    new["rounds"] = new["rounds"] + [
        {"round": r, "promo": promo, "promo_scored": scored, "categories": cats}
    ]
    new["scores"] = totals = [
        new["scores"][s] + sum(pts[s] for pts in cats.values()) for s in range(n)
    ]
    events.append(
        {
            "type": "round_scored",
            "round": r,
            "promo": promo,
            "promo_scored": scored,
            "categories": {k: list(v) for k, v in cats.items()},
            "totals": list(totals),
        }
    )
    if r == _rounds(new)[0]:
        new["phase"] = "over"
        new["cur"] = None
        events.append({"type": "game_over", "result": result(new)})
        return
    new["round"] = r + 1
    new["start"] = new["cur"] = (new["start"] + 1) % n
    new["phase"] = "select"
    revealed = None
    if new["options"]["promo_cards"]:
        pdeck = new["pdeck"]
        revealed = pdeck[0] if pdeck else None
        new["pdeck"] = pdeck[1:]
        new["promo"] = new["promo"] + [revealed]
    events.append(
        {"type": "round_started", "round": r + 1, "start_player": new["start"], "promo": revealed}
    )


# ---------------------------------------------------------------- views and scores


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The public game plus ``seat``'s own hand; never the RNG, deck order or promo deck."""
    n = state["n"]
    board = state["board"]
    cities = []
    for c in range(CITIES):
        lots = []
        for lot in range(LOTS):
            b = board[c * LOTS + lot]
            lots.append(
                {
                    "lot": lot + 1,
                    "pieces": [{"seat": p // 10, "floors": p % 10} for p in b],
                    "height": sum(p % 10 for p in b),
                    "owner": b[-1] // 10 if b else None,
                }
            )
        cities.append({"city": c + 1, "name": CITY_NAMES[c], "lots": lots})
    players = []
    for s in range(n):
        players.append(
            {
                "seat": s,
                "side": SIDE_NAMES[SIDES_BY_COUNT[n][s]],
                "stock": {str(f): state["stock"][s][f - 1] for f in (1, 2, 3, 4)},
                "selected": list(state["sel"][s]),
                "hand_size": len(state["hands"][s]),
                "forfeited": list(state["forf"][s]),
                "score": state["scores"][s],
            }
        )
    rounds, per_round = _rounds(state)
    promo_on = state["options"]["promo_cards"]
    scored = {r["round"]: r["promo_scored"] for r in state["rounds"]}
    out: dict[str, Any] = {
        "phase": state["phase"],
        "round": state["round"],
        "rounds": rounds,
        "pieces_per_round": per_round,
        "start_player": state["start"],
        "current_player": state["cur"],
        "options": dict(state["options"]),
        "cities": cities,
        "players": players,
        "discard_pile": list(state["disc"]),
        "deck_size": len(state["deck"]),
        "discards_this_turn": discards_this_turn(state),
        "promo": {
            "enabled": promo_on,
            "current": state["promo"][-1] if promo_on and state["promo"] else None,
            "revealed": [
                {"round": i + 1, "card": card, "scored": scored.get(i + 1)}
                for i, card in enumerate(state["promo"])
            ],
        },
        "you": seat if type(seat) is int and 0 <= seat < n else None,
        "hand": None,
    }
    if seat is not None and out["you"] is not None:
        rot = ROTATION[SIDES_BY_COUNT[n][seat]]
        out["hand"] = [{"card": c, "lot": rot[c - 1]} for c in state["hands"][seat]]
    return out


def score(state: State) -> dict[str, Any]:
    """Running totals and every scored round's points per category and seat."""
    return {
        "totals": list(state["scores"]),
        "rounds": [
            {
                "round": r["round"],
                "promo": r["promo"],
                "promo_scored": r["promo_scored"],
                "categories": {k: list(v) for k, v in r["categories"].items()},
            }
            for r in state["rounds"]
        ],
    }


def result(state: State) -> dict[str, Any] | None:
    """Standings and winners once over (tie-break: total, tallest owned, majorities)."""
    if state["phase"] != "over":
        return None
    return standings(state["board"], state["n"], state["scores"])
