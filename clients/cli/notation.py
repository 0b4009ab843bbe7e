"""Short move notation ⇄ move bodies.

Manhattan: ``3 7 2`` (place: city 3, board lot 7, 2 floors; also ``place 3 7 2``),
``select 1 1 2 2 3 4``, ``discard 5``, ``forfeit 2``.
Wind City: ``C7`` (a house, or the hurricane while it is being placed; also
``house C7`` / ``hurricane C1``), ``plan 1,3,4 kauf=C9 renew=C7,D8``, ``insure D8 E9``
(``insure`` alone: none). Any text starting with ``{`` is taken as a JSON move body.
"""

from __future__ import annotations

import json
import re
from typing import Any

Move = dict[str, Any]

SQUARE = re.compile(r"^[A-La-l](?:[1-9]|1[0-9]|2[0-4])$")


class NotationError(ValueError):
    """The text is not a move in either notation."""


def _ints(tokens: list[str], what: str) -> list[int]:
    try:
        return [int(t) for t in tokens]
    except ValueError as exc:
        raise NotationError(f"{what}: expected numbers, got {' '.join(tokens)!r}") from exc


def _square(tok: str) -> str:
    if not SQUARE.match(tok):
        raise NotationError(f"not a square: {tok!r} (columns A-L, rows 1-24, e.g. C7)")
    return tok.upper()


def parse_manhattan(text: str) -> Move:
    """Parse a Manhattan move in short notation."""
    toks = text.replace(",", " ").split()
    if not toks:
        raise NotationError("empty move")
    head = toks[0].lower()
    if head == "select":
        pieces = _ints(toks[1:], "select")
        if not pieces:
            raise NotationError("select: name the pieces, e.g. select 1 1 2 2 3 4")
        return {"type": "select", "pieces": pieces}
    if head == "discard":
        nums = _ints(toks[1:], "discard")
        if len(nums) != 1:
            raise NotationError("discard: one lot, e.g. discard 5")
        return {"type": "discard", "lot": nums[0]}
    if head == "forfeit":
        nums = _ints(toks[1:], "forfeit")
        if len(nums) != 1:
            raise NotationError("forfeit: one piece size, e.g. forfeit 2")
        return {"type": "forfeit", "floors": nums[0]}
    if head == "place":
        toks = toks[1:]
    nums = _ints(toks, "place")
    if len(nums) != 3:
        raise NotationError("place: CITY LOT FLOORS, e.g. 3 7 2")
    city, lot, floors = nums
    return {"type": "place", "city": city, "lot": lot, "floors": floors}


def parse_windcity(text: str, legal: list[Move] | None = None) -> Move:
    """Parse a Wind City move; a bare square is a hurricane placement only when legal says so."""
    toks = text.split()
    if not toks:
        raise NotationError("empty move")
    head = toks[0].lower()
    if head == "insure":
        squares = [_square(s) for t in toks[1:] for s in t.split(",") if s]
        return {"type": "insure", "squares": squares}
    if head == "plan":
        if len(toks) < 2:
            raise NotationError("plan: e.g. plan 1,3,4 kauf=C9 renew=C7,D8")
        actions = _ints([a for a in toks[1].split(",") if a], "plan")
        kauf: str | None = None
        renew: list[str] = []
        for tok in toks[2:]:
            key, _, val = tok.partition("=")
            key = key.lower()
            if key == "kauf":
                kauf = None if val.lower() in ("", "none", "-") else _square(val)
            elif key == "renew":
                renew = [_square(s) for s in val.split(",") if s]
            else:
                raise NotationError(f"plan: unknown part {tok!r} (kauf=SQ, renew=SQ,SQ)")
        return {"type": "plan", "actions": actions, "kauf": kauf, "renew": renew}
    if head in ("hurricane", "house") and len(toks) == 2:
        kind = "place_hurricane" if head == "hurricane" else "place_house"
        return {"type": kind, "square": _square(toks[1])}
    if len(toks) == 1 and SQUARE.match(toks[0]):
        square = toks[0].upper()
        kinds = {m.get("type") for m in legal or []}
        kind = "place_hurricane" if "place_hurricane" in kinds else "place_house"
        return {"type": kind, "square": square}
    raise NotationError(f"not a Wind City move: {text!r}")


def parse_move(game: str, text: str, legal: list[Move] | None = None) -> Move:
    """A move body from JSON or short notation for ``game``."""
    text = text.strip()
    if text.startswith("{"):
        try:
            body = json.loads(text)
        except ValueError as exc:
            raise NotationError(f"bad JSON: {exc}") from exc
        if not isinstance(body, dict) or "type" not in body:
            raise NotationError('a move is a JSON object with a "type"')
        return body
    if game == "manhattan":
        return parse_manhattan(text)
    if game == "windcity":
        return parse_windcity(text, legal)
    raise NotationError(f"unknown game {game!r}")


def format_move(game: str, move: Move) -> str:
    """The short notation of a move body (the inverse of :func:`parse_move`)."""
    t = move.get("type")
    if game == "manhattan":
        if t == "place":
            return f"{move['city']} {move['lot']} {move['floors']}"
        if t == "select":
            return "select " + " ".join(str(p) for p in move["pieces"])
        if t == "discard":
            return f"discard {move['lot']}"
        if t == "forfeit":
            return f"forfeit {move['floors']}"
    elif game == "windcity":
        if t == "place_hurricane":
            return f"hurricane {move['square']}"
        if t == "place_house":
            return move["square"]
        if t == "plan":
            out = "plan " + ",".join(str(a) for a in move["actions"])
            if move.get("kauf"):
                out += f" kauf={move['kauf']}"
            if move.get("renew"):
                out += " renew=" + ",".join(move["renew"])
            return out
        if t == "insure":
            return " ".join(["insure", *move.get("squares", [])])
    return json.dumps(move, sort_keys=True)
