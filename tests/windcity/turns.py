"""Helpers for the Wind City turn tests (``test_rules_turn.py``,
``test_rules_hurricane.py``): a plan played with every other seat answering, a
refusal's code, payments by reason."""

from __future__ import annotations

import pytest

from services.windcity import rules as E
from shared.engine import RuleError

from .playout import answer_all


def run(st, actions, kauf=None, renew=()):
    """Seat ``active`` plans; everybody else answers with no insurance."""
    move = {"type": "plan", "actions": actions, "kauf": kauf, "renew": list(renew)}
    st, ev = E.apply_move(st, st["active"], move)
    return answer_all(st, ev)


def code(st, seat, move):
    with pytest.raises(RuleError) as info:
        E.apply_move(st, seat, move)
    return info.value.code


def paid(events, seat, reason):
    return sum(
        e["amount"]
        for e in events
        if e["type"] == "payment" and e["payer"] == seat and e["reason"] == reason
    )


def received(events, seat, reason):
    return sum(
        e["amount"]
        for e in events
        if e["type"] == "payment" and e["payee"] == seat and e["reason"] == reason
    )
