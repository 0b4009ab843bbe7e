"""Wind City's short move notation (``parse`` and ``format_move``; ``windcity.py``
holds the rest of what the CLI knows about the game).

``C7`` (a house, or the hurricane while it is being placed; also ``house C7`` /
``hurricane C1``), ``plan 1,3,4 kauf=C9 renew=C7,D8``, ``insure D8 E9`` (``insure nothing``,
or ``insure`` alone: none).
"""

from __future__ import annotations

import re
from typing import Any

from ..i18n import _
from ..style import NotationError, ints

Move = dict[str, Any]

SQUARE = re.compile(r"^[A-La-l](?:[1-9]|1[0-9]|2[0-4])$")


def _square(tok: str) -> str:
    if not SQUARE.match(tok):
        raise NotationError(
            _("not a square: {square} (columns A-L, rows 1-24, e.g. C7)", square=repr(tok))
        )
    return tok.upper()


def parse(text: str, legal: list[Move] | None = None) -> Move:
    """Parse a Wind City move; a bare square is a hurricane placement only when legal says so."""
    toks = text.split()
    if not toks:
        raise NotationError(_("empty move"))
    head = toks[0].lower()
    if head == "insure":
        rest = [s for t in toks[1:] for s in t.split(",") if s]
        if [s.lower() for s in rest] in (["nothing"], ["none"], ["-"]):
            rest = []
        return {"type": "insure", "squares": [_square(s) for s in rest]}
    if head == "plan":
        if len(toks) < 2:
            raise NotationError(_("plan: e.g. plan 1,3,4 kauf=C9 renew=C7,D8"))
        actions = ints([a for a in toks[1].split(",") if a], "plan")
        kauf: str | None = None
        renew: list[str] = []
        for tok in toks[2:]:
            key, _sep, val = tok.partition("=")
            key = key.lower()
            if key == "kauf":
                kauf = None if val.lower() in ("", "none", "-") else _square(val)
            elif key == "renew":
                renew = [_square(s) for s in val.split(",") if s]
            else:
                raise NotationError(
                    _("plan: unknown part {part} (kauf=SQ, renew=SQ,SQ)", part=repr(tok))
                )
        return {"type": "plan", "actions": actions, "kauf": kauf, "renew": renew}
    if head in ("hurricane", "house") and len(toks) == 2:
        kind = "place_hurricane" if head == "hurricane" else "place_house"
        return {"type": kind, "square": _square(toks[1])}
    if len(toks) == 1 and SQUARE.match(toks[0]):
        square = toks[0].upper()
        kinds = {m.get("type") for m in legal or []}
        kind = "place_hurricane" if "place_hurricane" in kinds else "place_house"
        return {"type": kind, "square": square}
    raise NotationError(_("not a Wind City move: {text}", text=repr(text)))


def format_move(move: Move) -> str | None:
    """The short notation of a move body (``None``: it has none)."""
    t = move.get("type")
    if t == "place_hurricane":
        return f"hurricane {move['square']}"
    if t == "place_house":
        return str(move["square"])
    if t == "plan":
        out = "plan " + ",".join(str(a) for a in move["actions"])
        if move.get("kauf"):
            out += f" kauf={move['kauf']}"
        if move.get("renew"):
            out += " renew=" + ",".join(move["renew"])
        return out
    if t == "insure":
        return " ".join(["insure", *(move.get("squares") or ["nothing"])])
    return None
