"""Manhattan's moves: what ``seat`` may do now, and what a move does.

``apply_move`` copies only the parts a move changes, so earlier states stay valid and
moves stay cheap.
"""

from __future__ import annotations

from bisect import insort
from functools import lru_cache

from shared.engine import Event, Move, RuleError

from .board import CITIES, LOTS, height, index, needed
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


def legal_moves(state: ManhattanState, seat: int) -> list[Move]:
    """Every legal move of ``seat`` (empty when it is not that seat's turn)."""
    if state["phase"] == "over" or seat != state["current_player"]:
        return []
    if state["phase"] == "select":
        k = rounds(state["options"])[1]
        return [
            {"type": "select", "pieces": [*p]} for p in _selections(tuple(state["stock"][seat]), k)
        ]
    moves = _placements(state, seat)
    if moves:
        return list(map(dict.copy, moves))
    if _stuck_move(state, seat) == "discard":
        return [{"type": "discard", "lot": lot} for lot in _hand_lots(state, seat)]
    return [{"type": "forfeit", "floors": f} for f in sorted(set(state["selected"][seat]))]


def _int(move: Move, key: str, lo: int, hi: int) -> int:
    v = move.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise RuleError("bad-move", f"{key!r} must be an integer {lo}-{hi}")
    return v


def _fields_error(kind: str) -> RuleError:
    return RuleError("bad-move", f"a {kind!r} move has exactly the fields {sorted(_KEYS[kind])}")


def _draw(new: ManhattanState, hand: list[int], events: list[Event]) -> None:
    """Draw one card into ``hand`` (already ``new``'s own copy); reshuffle the played
    cards first if the pile is empty."""
    deck = new["deck"]
    if not deck:
        new["rng"], deck = shuffle(new["rng"], new["discard_pile"])
        new["discard_pile"] = []
        events.append({"type": "deck_reshuffled", "size": len(deck)})
    new["deck"] = deck[:-1]
    insort(hand, deck[-1])


def _spend(new: ManhattanState, seat: int, card: int) -> list[int]:
    """Play ``card`` from ``seat``'s hand; returns ``new``'s own copy of that hand."""
    hands = new["hands"] = list(new["hands"])
    hand = hands[seat] = list(hands[seat])
    hand.remove(card)
    new["discard_pile"] = new["discard_pile"] + [card]
    return hand


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
    counts = (pieces.count(1), pieces.count(2), pieces.count(3), pieces.count(4))
    have = state["stock"][seat]
    for c, h in zip(counts, have, strict=True):
        if c > h:
            raise RuleError("invalid-selection", "those pieces are not in your stock")
    new = state.copy()
    stock = new["stock"] = list(state["stock"])
    stock[seat] = [h - c for h, c in zip(have, counts, strict=True)]
    sel = new["selected"] = list(state["selected"])
    sel[seat] = chosen = sorted(pieces)
    nxt = (seat + 1) % state["num_players"]
    if nxt == state["start_player"]:
        new["phase"] = "build"
    new["current_player"] = nxt
    return new, [{"type": "pieces_selected", "seat": seat, "pieces": list(chosen)}]


_CARD = {n: tuple((0, *UNROTATION[side]) for side in sides) for n, sides in SIDES_BY_COUNT.items()}
"""``[players][seat][lot]``: the printed card that allows board ``lot`` (1-9) from that
seat's side."""


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
    new = state.copy()
    board = new["board"] = list(state["board"])
    board[i] = building = building + [seat * 10 + floors]
    sel = new["selected"] = list(state["selected"])
    mine = sel[seat] = list(mine)
    mine.remove(floors)
    hands = new["hands"] = list(state["hands"])
    hand = hands[seat] = list(hand)
    hand.remove(card)
    new["discard_pile"] = state["discard_pile"] + [card]
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
            "height": floors if len(building) == 1 else height(building),
        }
    ]
    deck = state["deck"]
    if deck:  # _draw's common case, inline
        new["deck"] = deck[:-1]
        insort(hand, deck[-1])
    else:
        _draw(new, hand, events)
    _advance(new, seat, events)
    return new, events


def _discard(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    lot = _int(move, "lot", 1, LOTS)
    if _placements(state, seat) or _stuck_move(state, seat) != "discard":
        raise RuleError("discard-not-allowed", "you may only discard when you cannot build")
    card = UNROTATION[SIDES_BY_COUNT[state["num_players"]][seat]][lot - 1]
    if card not in state["hands"][seat]:
        raise RuleError("card-not-in-hand", f"no card in your hand allows lot {lot}")
    new = state.copy()
    new["discards_this_turn"] = state["discards_this_turn"] + 1
    hand = _spend(new, seat, card)
    events: list[Event] = [{"type": "card_discarded", "seat": seat, "card": card, "lot": lot}]
    _draw(new, hand, events)
    return new, events


def _forfeit(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    floors = _int(move, "floors", 1, 4)
    if _placements(state, seat) or _stuck_move(state, seat) != "forfeit":
        raise RuleError("forfeit-not-allowed", "you may only forfeit when nothing can be built")
    if floors not in state["selected"][seat]:
        raise RuleError("piece-not-selected", f"you have no selected {floors}-floor piece")
    new = state.copy()
    sel = new["selected"] = list(state["selected"])
    mine = sel[seat] = list(sel[seat])
    mine.remove(floors)
    forf = new["forfeited"] = list(state["forfeited"])
    forf[seat] = sorted(forf[seat] + [floors])
    events: list[Event] = [{"type": "piece_forfeited", "seat": seat, "floors": floors}]
    _advance(new, seat, events)
    return new, events


def _advance(new: ManhattanState, seat: int, events: list[Event]) -> None:
    """Pass the turn clockwise to the next seat with pieces left, or end the round."""
    new["discards_this_turn"] = 0
    n = new["num_players"]
    sel = new["selected"]
    for k in range(1, n + 1):
        s = (seat + k) % n
        if sel[s]:
            new["current_player"] = s
            return
    _end_round(new, events)


def _end_round(new: ManhattanState, events: list[Event]) -> None:
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
    events.append(
        {
            "type": "round_started",
            "round": r + 1,
            "start_player": new["start_player"],
            "promo": revealed,
        }
    )
