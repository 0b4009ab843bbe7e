"""Wind City's event lines (``EVENTS``: event type -> one line of text, in the current
language); ``windcity.py`` holds the rest of what the CLI knows about the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..i18n import N_, _, person
from ..style import Describe, Json


def _plan_made(e: Json, who: str, name: Callable[[Any], str]) -> str:
    out = _("{who} made a secret plan", who=who)
    if e.get("renew"):
        out += _(", renewed {houses} ({paid})", houses=" ".join(e["renew"]), paid=e.get("paid"))
    if e.get("lapsed"):
        out += _("; cover lapsed on {houses}", houses=" ".join(e["lapsed"]))
    return out


def _insured(e: Json, who: str, name: Callable[[Any], str]) -> str:
    squares = " ".join(e.get("squares") or []) or _("nothing")
    paid = _(" for {paid}", paid=e.get("paid")) if e.get("paid") else ""
    return _("{who} insured {squares}", who=who, squares=squares) + paid


def _market(e: Json, who: str, name: Callable[[Any], str]) -> str:
    out = person(name(e.get("seller")), N_("{who} sells insurance"), N_("you sell insurance"))
    pending = e.get("pending") or []
    return out + (
        _(" to {players}", players=", ".join(name(s) for s in pending)) if pending else ""
    )


def _revealed(e: Json, who: str, name: Callable[[Any], str]) -> str:
    acts = e.get("card_actions") or []
    chosen = []
    for i in e.get("plan") or []:
        a = acts[i - 1] if 0 < i <= len(acts) else {}
        kauf = a.get("kind") == "kauf"
        chosen.append(f"Kauf {e.get('kauf')}" if kauf else f"{a.get('dir')}{a.get('steps')}")
    return person(
        who,
        N_("{who} reveals card {card}: {actions}"),
        N_("you reveal card {card}: {actions}"),
        card=e.get("card"),
        actions=", ".join(chosen) or _("no action"),
    )


_KAUF_VOID = {
    "no-stock": N_("no house left in stock"),
    "not-your-house": N_("no house of the player there"),
    "already-duplex": N_("already a duplex"),
    "insured": N_("the house is insured"),
    "beach-house": N_("a beach house"),
    "last-rows": N_("the hurricane is too close to the north edge"),
    "behind-hurricane": N_("behind the hurricane"),
}
_PAID_FOR = {
    "actions": N_("for the card's actions"),
    "renewal": N_("to renew insurance"),
    "insurance": N_("for insurance"),
    "observatory": N_("for the observatory marker"),
    "calm": N_("calm bonus"),
}


def _words(table: dict[str, str], key: Any) -> str:
    """The translated words for ``key`` in ``table`` (a key it lacks as is)."""
    return _(table[str(key)]) if str(key) in table else str(key)


def _payment(e: Json, who: str, name: Callable[[Any], str]) -> str:
    payer, payee, amount = e.get("payer"), e.get("payee"), e.get("amount")
    why = _words(_PAID_FOR, e.get("reason") or "")
    if payer == "bank":
        return person(
            name(payee),
            N_("{who} gets {amount} from the bank ({why})"),
            N_("you get {amount} from the bank ({why})"),
            amount=amount,
            why=why,
        )
    to = _("the bank") if payee == "bank" else name(payee)
    return person(
        name(payer),
        N_("{who} pays {to} {amount} ({why})"),
        N_("you pay {to} {amount} ({why})"),
        to=to,
        amount=amount,
        why=why,
    )


def _hurricane_moved(e: Json, who: str, name: Callable[[Any], str]) -> str:
    path = "→".join(e.get("squares") or []) or _("nowhere")
    extra = _(" (comes to rest)") if e.get("rest") else ""
    if e.get("left_board"):
        extra += _(" and leaves the board")
    return _("hurricane {dir}: {path}", dir=e.get("dir"), path=path) + extra


EVENTS: dict[str, Describe] = {
    "hurricane_placed": lambda e, who, name: _(
        "{who} put the hurricane on {square}", who=who, square=e.get("square")
    ),
    "house_placed": lambda e, who, name: _(
        "{who} built a house on {square}", who=who, square=e.get("square")
    ),
    "turn_started": lambda e, who, name: _("turn {turn}: {who}", turn=e.get("turn"), who=who),
    "card_drawn": lambda e, who, name: _("{who} drew a card", who=who),
    "plan_made": _plan_made,
    "insurance_market": _market,
    "insured": _insured,
    "turn_revealed": _revealed,
    "hurricane_moved": _hurricane_moved,
    "house_destroyed": lambda e, who, name: person(
        name(e.get("owner")),
        N_("{who}'s house on {square} is destroyed"),
        N_("your house on {square} is destroyed"),
        square=e.get("square"),
    ),
    "observatory_taken": lambda e, who, name: person(
        who,
        N_("{who} takes the observatory marker on {square}"),
        N_("you take the observatory marker on {square}"),
        square=e.get("square"),
    ),
    "calm_bonus": lambda e, who, name: person(
        who, N_("{who} gets the calm bonus"), N_("you get the calm bonus")
    ),
    "kauf": lambda e, who, name: person(
        who,
        N_("{who} builds a duplex on {square}"),
        N_("you build a duplex on {square}"),
        square=e.get("square"),
    ),
    "kauf_void": lambda e, who, name: person(
        who,
        N_("{who}'s Kauf on {square} is void ({why})"),
        N_("your Kauf on {square} is void ({why})"),
        square=e.get("square"),
        why=_words(_KAUF_VOID, e.get("reason")),
    ),
    "payment": _payment,
    "bankrupt": lambda e, who, name: person(
        who, N_("{who} is bankrupt and out of the game"), N_("you are bankrupt and out of the game")
    ),
    "deck_reshuffled": lambda e, *rest: _(
        "the deck is reshuffled ({size} cards)", size=e.get("size")
    ),
}
