"""What one delivery attempt's answer does to its notification's record (pure): delivered,
given up (a push service's verdict on the subscription, or past ``WEBHOOK_GIVE_UP_SECONDS``),
or retried after a backoff. Used by shared/webhooks/delivery.py.

May import ``shared.games.notify`` (its timestamps).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from shared.games.notify import now_iso


def settle(
    record: dict[str, Any],
    status: int | None,
    error: str | None,
    verdict: str | None,
    now: float,
    give_up: float,
    backoff: Callable[[int], float],
) -> tuple[str, bool]:
    """Update ``record`` (its attempts counted already) for the answer ``status`` (or
    ``error``); the result (``delivered``, ``retried`` or the final status) and whether
    the registration's cursor moves past this notification."""
    if status is not None and 200 <= status < 300:
        record |= {"status": "delivered", "delivered_at": now_iso(), "last_error": None}
        _no_next(record)
        return "delivered", True
    record["last_error"] = error or f"HTTP {status}"
    if verdict or now - record["first_at"] >= give_up:
        record["status"] = verdict or "failed"
        _no_next(record)
        return record["status"], True
    wait = backoff(record["attempts"])
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now + wait))
    record |= {"status": "pending", "next_at": now + wait, "next_attempt_at": at}
    return "retried", False


def _no_next(record: dict[str, Any]) -> None:
    record.pop("next_at", None)
    record.pop("next_attempt_at", None)
