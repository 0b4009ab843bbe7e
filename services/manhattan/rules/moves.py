"""Manhattan's moves: what ``seat`` may do now, and what a move does.

Each move's rule is written once, as an in-place step on a state that owns the parts it
changes (``_choose``, ``_build``, ``_toss``, ``_give_up``). Two paths run it:
``apply_move`` checks the move, copies exactly the parts it changes (so earlier states
stay valid, sharing the rest) and collects the events; ``play`` runs the step on a
:func:`fork` as it is, with no checks and no events (playouts and search). Likewise
:func:`legal_actions` lists the moves as shared templates and :func:`legal_moves` hands
out copies of the same list.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from functools import lru_cache

from shared.engine import Event, Move, RuleError

from .board import CITIES, LOTS, index, needed
from .cards import HAND_SIZE, ROTATION, SIDES_BY_COUNT, UNROTATION, shuffle
from .options import rounds
from .promos import FAKE_NEWS
from .scoring import score_round
from .state import ManhattanState
from .views import result

MOVE_FIELDS = {
    "select": ("pieces",),
    "place": ("city", "lot", "floors"),
    "discard": ("lot",),
    "forfeit": ("floors",),
}
_KEYS = {t: frozenset(("type", *f)) for t, f in MOVE_FIELDS.items()}
MAX_DISCARDS = HAND_SIZE
"""A stuck player may discard at most a full hand in one turn, then must forfeit."""


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


def _hand_lots(state: ManhattanState, seat: int) -> list[int]:
    rot = ROTATION[SIDES_BY_COUNT[state["num_players"]][seat]]
    return sorted({rot[c - 1] for c in state["hands"][seat]})


_NEEDS: tuple[dict[tuple[int, ...], int], ...] = ({}, {}, {}, {})
"""``[seat][building]``: :func:`needed`, memoized (bounded): the same few short
buildings recur all game long."""


def _need(seat: int, building: tuple[int, ...]) -> int:
    needs = _NEEDS[seat]
    need = needs.get(building)
    if need is None:
        need = needed(building, seat)
        if len(needs) < 1 << 14:
            needs[building] = need
    return need


def _place_table() -> tuple[tuple[tuple[Move, ...], ...], ...]:
    """``[sizes][board index]``: the place moves there for a bit set of piece sizes
    (bit ``f``: an ``f``-floor piece), ascending.

    Templates only: :func:`legal_moves` hands out copies, so callers may keep or change
    the moves they get.
    """
    moves = [
        [
            {"type": "place", "city": i // LOTS + 1, "lot": i % LOTS + 1, "floors": f}
            for f in range(5)
        ]
        for i in range(CITIES * LOTS)
    ]
    return tuple(
        tuple(tuple(at[f] for f in (1, 2, 3, 4) if sizes >> f & 1) for at in moves)
        for sizes in range(1 << 5)
    )


def _lots_table() -> dict[int, tuple[int, ...]]:
    """``[bit set of lots]``: their board indices, city by city, lots ascending."""
    table = {}
    for lots in range(0, 1 << (LOTS + 1), 2):
        table[lots] = tuple(
            index(city, lot)
            for city in range(1, CITIES + 1)
            for lot in range(1, LOTS + 1)
            if lots >> lot & 1
        )
    return table


_PLACE = _place_table()
_INDICES = _lots_table()
_LOT_BIT = tuple(tuple(1 << rot[c - 1] for c in range(LOTS + 1)) for rot in ROTATION)
"""``[side][card]``: the bit of the board lot that card allows from that side."""


_SIZES: dict[tuple[int, ...], int] = {}
"""``[selected pieces]``: their bit set of sizes; filled on first use (bounded)."""
_LOTS: tuple[dict[tuple[int, ...], int], ...] = ({}, {}, {}, {})
"""``[side][hand]``: the bit set of board lots the hand allows; filled on first use."""


def _placements(state: ManhattanState, seat: int) -> list[Move]:
    """The place moves of ``seat`` as shared templates (city, then lot, then floors).

    Bit sets and the tables above keep this loop short: it runs for every build move.
    The hand's and the selection's bit sets are looked up by their contents (a few
    hundred distinct ones recur), not recomputed.
    """
    selected = tuple(state["selected"][seat])
    sizes = _SIZES.get(selected)
    if sizes is None:
        sizes = 0
        for f in selected:
            sizes |= 1 << f
        if len(_SIZES) < 1 << 12:
            _SIZES[selected] = sizes
    if not sizes:
        return []
    hand = tuple(state["hands"][seat])
    side = SIDES_BY_COUNT[state["num_players"]][seat]
    lots = _LOTS[side].get(hand)
    if lots is None:
        bits = _LOT_BIT[side]
        lots = 0
        for card in hand:
            lots |= bits[card]
        if len(_LOTS[side]) < 1 << 12:
            _LOTS[side][hand] = lots
    board = state["board"]
    any_size = _PLACE[sizes]
    needs = _NEEDS[seat]
    out: list[Move] = []
    for i in _INDICES[lots]:
        b = board[i]
        if b and b[-1] // 10 != seat:
            # the stacking rule only restricts buildings someone else owns
            if len(b) == 1:
                need = b[0] % 10
            else:
                known = needs.get(tuple(b))
                need = _need(seat, tuple(b)) if known is None else known
            if need > 0:
                out += _PLACE[sizes >> need << need][i]
                continue
        out += any_size[i]
    return out


def _stuck_move(state: ManhattanState, seat: int) -> str:
    """For a player with no legal placement: ``discard`` or ``forfeit``.

    Rules, *A player who cannot place*: discard while fewer than ``MAX_DISCARDS``
    discards were made this turn and some lot on the board accepts a selected piece;
    otherwise forfeit. Only public information decides (never the draw pile or other
    hands), so the legal moves tell a player nothing they may not know.
    """
    if state["discards_this_turn"] >= MAX_DISCARDS:
        return "forfeit"
    biggest = max(state["selected"][seat])
    board = state["board"]
    if any(needed(b, seat) <= biggest for b in board):
        return "discard"
    return "forfeit"


_DISCARD = tuple({"type": "discard", "lot": lot} for lot in range(LOTS + 1))
"""``[lot]``: the discard template of a board lot (1-9)."""
_FORFEIT = tuple({"type": "forfeit", "floors": f} for f in range(5))
"""``[floors]``: the forfeit template of a piece size (1-4)."""


class _Selects(tuple[Move, ...]):
    """The select templates of a stock, with their pieces as tuples: the copies
    :func:`legal_moves` hands out are built from those (cheaper than from the lists)."""

    pieces: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=4096)
def _select_moves(stock: tuple[int, ...], k: int) -> _Selects:
    """The select moves (templates) of a stock (counts of sizes 1-4) for ``k`` pieces."""
    pieces = _selections(stock, k)
    moves = _Selects({"type": "select", "pieces": [*p]} for p in pieces)
    moves.pieces = pieces
    return moves


def legal_actions(state: ManhattanState, seat: int) -> Sequence[Move]:
    """Every legal move of ``seat`` (empty when it is not that seat's turn) as the
    engine's shared templates: read-only, never change one (:func:`legal_moves` copies)."""
    phase = state["phase"]
    if phase == "over" or seat != state["current_player"]:
        return ()
    if phase == "select":
        return _select_moves(tuple(state["stock"][seat]), rounds(state["options"])[1])
    moves = _placements(state, seat)
    if moves:
        return moves
    if _stuck_move(state, seat) == "discard":
        return [_DISCARD[lot] for lot in _hand_lots(state, seat)]
    return [_FORFEIT[f] for f in sorted(set(state["selected"][seat]))]


def legal_moves(state: ManhattanState, seat: int) -> list[Move]:
    """Every legal move of ``seat`` (empty when it is not that seat's turn): the moves of
    :func:`legal_actions`, as copies the caller may keep or change."""
    actions = legal_actions(state, seat)
    if type(actions) is _Selects:
        return [{"type": "select", "pieces": [*p]} for p in actions.pieces]
    return list(map(dict.copy, actions))


def _int(move: Move, key: str, lo: int, hi: int) -> int:
    v = move.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise RuleError("bad-move", f"{key!r} must be an integer {lo}-{hi}")
    return v


def _fields_error(kind: str) -> RuleError:
    return RuleError("bad-move", f"a {kind!r} move has exactly the fields {sorted(_KEYS[kind])}")


_CARD = {n: tuple((0, *UNROTATION[side]) for side in sides) for n, sides in SIDES_BY_COUNT.items()}
"""``[players][seat][lot]``: the printed card that allows board ``lot`` (1-9) from that
seat's side."""


def _counts(pieces: list[int]) -> tuple[int, int, int, int]:
    """How many pieces of 1, 2, 3 and 4 floors ``pieces`` holds."""
    return (pieces.count(1), pieces.count(2), pieces.count(3), pieces.count(4))


# The apply path: checks, copies of the parts a move changes, the in-place step, events.


def apply_move(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    """The state after ``move`` and its public events; raises RuleError, changing nothing."""
    phase = state["phase"]
    if phase == "over":
        raise RuleError("game-over", "the game is over")
    if seat != state["current_player"] or type(seat) is not int:
        raise RuleError("not-your-turn", f"it is seat {state['current_player']}'s turn")
    if not isinstance(move, dict):
        raise RuleError("bad-move", "a move must be an object")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise RuleError("unknown-move", f"unknown move type {kind!r}")
    if (kind == "select") != (phase == "select"):
        raise RuleError("wrong-phase", f"no {kind!r} in the {phase} phase")
    if kind == "place":  # the common move: the same field check, spelled out (cheaper)
        if len(move) != 4 or "city" not in move or "lot" not in move or "floors" not in move:
            raise _fields_error(kind)
        return _place(state, seat, move)
    if move.keys() != _KEYS[kind]:
        raise _fields_error(kind)
    if kind == "select":
        return _select(state, seat, move)
    if kind == "discard":
        return _discard(state, seat, move)
    return _forfeit(state, seat, move)


def _select(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    pieces = move["pieces"]
    if not isinstance(pieces, list):
        raise RuleError("bad-move", "'pieces' must be a list of floor sizes 1-4")
    for p in pieces:
        if type(p) is not int or not 1 <= p <= 4:
            raise RuleError("bad-move", "'pieces' must be a list of floor sizes 1-4")
    k = rounds(state["options"])[1]
    if len(pieces) != k:
        raise RuleError("invalid-selection", f"select exactly {k} pieces")
    counts = _counts(pieces)
    for c, h in zip(counts, state["stock"][seat], strict=True):
        if c > h:
            raise RuleError("invalid-selection", "those pieces are not in your stock")
    new = state.copy()
    new["stock"] = list(state["stock"])
    new["selected"] = list(state["selected"])
    events: list[Event] = []
    _choose(new, seat, counts, pieces, events)
    return new, events


def _place(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    city, lot, floors = move["city"], move["lot"], move["floors"]
    if not (
        type(city) is int
        and 1 <= city <= CITIES
        and type(lot) is int
        and 1 <= lot <= LOTS
        and type(floors) is int
        and 1 <= floors <= 4
    ):  # the slow checks name the first bad field
        city = _int(move, "city", 1, CITIES)
        lot = _int(move, "lot", 1, LOTS)
        floors = _int(move, "floors", 1, 4)
    card = _CARD[state["num_players"]][seat][lot]
    hand = state["hands"][seat]
    if card not in hand:
        raise RuleError("lot-not-on-card", f"no card in your hand allows lot {lot}")
    mine = state["selected"][seat]
    if floors not in mine:
        raise RuleError("piece-not-selected", f"you have no selected {floors}-floor piece")
    i = (city - 1) * LOTS + lot - 1
    building = state["board"][i]
    if building and building[-1] // 10 != seat:
        need = building[0] % 10 if len(building) == 1 else _need(seat, tuple(building))
        if floors < need:
            raise RuleError(
                "insufficient-floors", f"you need a piece of at least {need} floors here"
            )
    tall = floors  # the building's height after the move (a loop: no comprehension frame)
    for p in building:
        tall += p % 10
    new = state.copy()
    new["board"] = list(state["board"])
    sel = new["selected"] = list(state["selected"])
    sel[seat] = list(mine)
    hands = new["hands"] = list(state["hands"])
    hands[seat] = list(hand)
    new["discard_pile"] = list(state["discard_pile"])
    new["deck"] = list(state["deck"])
    events: list[Event] = [
        {
            "type": "piece_placed",
            "seat": seat,
            "city": city,
            "lot": lot,
            "floors": floors,
            "card": card,
            "owner": seat,
            "previous_owner": building[-1] // 10 if building else None,
            "height": tall,
        }
    ]
    _build(new, seat, i, floors, card, events)
    return new, events


def _discard(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    lot = _int(move, "lot", 1, LOTS)
    if _placements(state, seat) or _stuck_move(state, seat) != "discard":
        raise RuleError("discard-not-allowed", "you may only discard when you cannot build")
    card = _CARD[state["num_players"]][seat][lot]
    if card not in state["hands"][seat]:
        raise RuleError("card-not-in-hand", f"no card in your hand allows lot {lot}")
    new = state.copy()
    hands = new["hands"] = list(state["hands"])
    hands[seat] = list(hands[seat])
    new["discard_pile"] = list(state["discard_pile"])
    new["deck"] = list(state["deck"])
    events: list[Event] = [{"type": "card_discarded", "seat": seat, "card": card, "lot": lot}]
    _toss(new, seat, card, events)
    return new, events


def _forfeit(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    floors = _int(move, "floors", 1, 4)
    if _placements(state, seat) or _stuck_move(state, seat) != "forfeit":
        raise RuleError("forfeit-not-allowed", "you may only forfeit when nothing can be built")
    if floors not in state["selected"][seat]:
        raise RuleError("piece-not-selected", f"you have no selected {floors}-floor piece")
    new = state.copy()
    sel = new["selected"] = list(state["selected"])
    sel[seat] = list(sel[seat])
    new["forfeited"] = list(state["forfeited"])
    events: list[Event] = []
    _give_up(new, seat, floors, events)
    return new, events


# The play path: the same steps on a fork, as they are.


def fork(state: ManhattanState) -> ManhattanState:
    """A copy that owns every part the steps change in place (the board and the rows
    of stock and forfeited pieces are replaced, never changed: their lists are shared)."""
    new = state.copy()
    new["board"] = list(state["board"])
    new["stock"] = list(state["stock"])
    new["selected"] = [list(row) for row in state["selected"]]
    new["forfeited"] = list(state["forfeited"])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["deck"] = list(state["deck"])
    new["discard_pile"] = list(state["discard_pile"])
    return new


def play(state: ManhattanState, seat: int, move: Move) -> None:
    """Apply ``move``, one of :func:`legal_actions`, to the fork ``state`` in place: what
    apply_move would return, without its checks, copies and events."""
    kind = move["type"]
    if kind == "place":
        lot = move["lot"]
        i = (move["city"] - 1) * LOTS + lot - 1
        card = _CARD[state["num_players"]][seat][lot]
        _build(state, seat, i, move["floors"], card, None)
    elif kind == "select":
        pieces = move["pieces"]
        _choose(state, seat, _counts(pieces), pieces, None)
    elif kind == "discard":
        _toss(state, seat, _CARD[state["num_players"]][seat][move["lot"]], None)
    else:
        _give_up(state, seat, move["floors"], None)


# The steps: each rule once. ``new`` owns what a step changes in place (apply_move's copy
# or a fork); ``events`` collects the public events, or is None when nobody wants them.


def _choose(
    new: ManhattanState,
    seat: int,
    counts: tuple[int, int, int, int],
    pieces: list[int],
    events: list[Event] | None,
) -> None:
    """select: the pieces leave the stock for this round's selection; the next seat
    selects, or the build phase starts."""
    stock = new["stock"]
    have = stock[seat]  # spelled out: cheaper than a comprehension over zip
    stock[seat] = [
        have[0] - counts[0],
        have[1] - counts[1],
        have[2] - counts[2],
        have[3] - counts[3],
    ]
    new["selected"][seat] = chosen = sorted(pieces)
    nxt = (seat + 1) % new["num_players"]
    if nxt == new["start_player"]:
        new["phase"] = "build"
    new["current_player"] = nxt
    if events is not None:
        events.append({"type": "pieces_selected", "seat": seat, "pieces": list(chosen)})


def _build(
    new: ManhattanState, seat: int, i: int, floors: int, card: int, events: list[Event] | None
) -> None:
    """place: the piece tops building ``i`` (a new list: states share buildings), the
    card is played and replaced, the turn passes."""
    board = new["board"]
    board[i] = board[i] + [seat * 10 + floors]
    new["selected"][seat].remove(floors)
    _spend(new, seat, card, events)
    _advance(new, seat, events)


def _toss(new: ManhattanState, seat: int, card: int, events: list[Event] | None) -> None:
    """discard: a stuck player plays ``card`` for nothing and draws; the turn stays."""
    new["discards_this_turn"] += 1
    _spend(new, seat, card, events)


def _give_up(new: ManhattanState, seat: int, floors: int, events: list[Event] | None) -> None:
    """forfeit: a selected piece leaves the game; the turn passes."""
    new["selected"][seat].remove(floors)
    forfeited = new["forfeited"]
    forfeited[seat] = sorted(forfeited[seat] + [floors])
    if events is not None:
        events.append({"type": "piece_forfeited", "seat": seat, "floors": floors})
    _advance(new, seat, events)


def _spend(new: ManhattanState, seat: int, card: int, events: list[Event] | None) -> None:
    """``card`` goes from the hand to the discard pile and the player draws one, after
    reshuffling the discard pile into the deck if the deck is empty."""
    hand = new["hands"][seat]
    hand.remove(card)
    new["discard_pile"].append(card)
    deck = new["deck"]
    if not deck:
        new["rng"], deck = shuffle(new["rng"], new["discard_pile"])
        new["deck"] = deck
        new["discard_pile"] = []
        if events is not None:
            events.append({"type": "deck_reshuffled", "size": len(deck)})
    insort(hand, deck.pop())


_AFTER = {
    n: tuple(tuple((seat + k) % n for k in range(1, n + 1)) for seat in range(n))
    for n in SIDES_BY_COUNT
}
"""``[players][seat]``: every seat clockwise after ``seat``, ending with ``seat`` itself."""


def _advance(new: ManhattanState, seat: int, events: list[Event] | None) -> None:
    """Pass the turn clockwise to the next seat with pieces left, or end the round."""
    new["discards_this_turn"] = 0
    sel = new["selected"]
    for s in _AFTER[new["num_players"]][seat]:
        if sel[s]:
            new["current_player"] = s
            return
    _end_round(new, events)


def _end_round(new: ManhattanState, events: list[Event] | None) -> None:
    """Score the round (parts replaced, not changed: states share them); then the game
    ends or the next round starts with the next start player and promotion card."""
    n = new["num_players"]
    r = new["round"]
    promo = new["promos_revealed"][-1] if new["options"]["promo_cards"] else None
    scored = promo
    if promo == FAKE_NEWS:
        pdeck = new["promo_deck"]
        scored = pdeck[0] if pdeck else None
        new["promo_deck"] = pdeck[1:]
    cats = score_round(new["board"], n, scored)
    new["rounds"] = new["rounds"] + [
        {"round": r, "promo": promo, "promo_scored": scored, "categories": cats}
    ]
    # per seat: its total so far plus its points of every category (zip, no generators;
    # not strict: the categories have one entry per seat, as range(n) read them)
    per_seat = zip(*cats.values(), strict=False)
    new["scores"] = totals = [
        total + sum(points) for total, points in zip(new["scores"], per_seat, strict=False)
    ]
    if events is not None:
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
    if r == rounds(new["options"])[0]:
        new["phase"] = "over"
        new["current_player"] = None
        if events is not None:
            events.append({"type": "game_over", "result": result(new)})
        return
    new["round"] = r + 1
    new["start_player"] = new["current_player"] = (new["start_player"] + 1) % n
    new["phase"] = "select"
    revealed = None
    if new["options"]["promo_cards"]:
        pdeck = new["promo_deck"]
        revealed = pdeck[0] if pdeck else None
        new["promo_deck"] = pdeck[1:]
        new["promos_revealed"] = new["promos_revealed"] + [revealed]
    if events is not None:
        events.append(
            {
                "type": "round_started",
                "round": r + 1,
                "start_player": new["start_player"],
                "promo": revealed,
            }
        )
