"""Per-client rate limits as fixed-window counters in Redis (``429`` + ``Retry-After``).

A rate is written like ``"20/second"``, ``"10/minute"``, ``"600/hour"`` or ``"5/10s"``
(5 per 10 seconds); an empty value or ``off`` switches the limit off (the default).

Each window has its own counter key (the window's number is part of the key) that
``INCR`` counts up and ``EXPIRE`` removes shortly after the window ends, so a counter is
one pipelined round trip and never needs a reset. A fixed window lets a client send up
to twice the rate across a window boundary; that is the usual price of one counter.

Moves are counted inside the game's own read (``GameStore.read_counted``: the counter
key carries the game's ``{id}`` hash tag), so a limited move still costs two round
trips. Joins are counted per client address on a key of their own (one extra trip).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Any

from shared.errors import ApiError

_UNITS = {"s": 1, "second": 1, "m": 60, "minute": 60, "h": 3600, "hour": 3600}
_UNITS |= {"d": 86400, "day": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([a-z]+?)s?\s*$")


@dataclass(frozen=True)
class Rate:
    """At most ``limit`` requests per ``window`` seconds."""

    limit: int
    window: int

    def __str__(self) -> str:
        return f"{self.limit}/{self.window}s"


def parse_rate(text: str | None) -> Rate | None:
    """The rate of a setting; ``None`` when off. Raises ValueError on a malformed one."""
    if text is None or not text.strip() or text.strip().lower() in {"off", "none", "0"}:
        return None
    match = _RATE.match(text.lower())
    if match is None or match.group(3) not in _UNITS:
        raise ValueError(f"not a rate: {text!r} (e.g. '20/second', '10/minute', '5/10s')")
    limit = int(match.group(1))
    window = int(match.group(2) or 1) * _UNITS[match.group(3)]
    if limit < 1 or window < 1:
        raise ValueError(f"not a rate: {text!r}")
    return Rate(limit, window)


def window_of(rate: Rate, now: float | None = None) -> tuple[int, int]:
    """The current window's number and the whole seconds until it ends (at least 1)."""
    now = time.time() if now is None else now
    number = int(now // rate.window)
    retry_after = max(1, math.ceil((number + 1) * rate.window - now))
    return number, retry_after


def check(count: int, rate: Rate, retry_after: int, what: str) -> None:
    """429 ``rate-limited`` with ``Retry-After`` once ``count`` exceeds the rate."""
    if count > rate.limit:
        raise ApiError(
            429,
            "rate-limited",
            f"Too many {what}: at most {rate.limit} per {rate.window} s; retry in {retry_after} s.",
            headers={"Retry-After": str(retry_after)},
        )


def hit(client: Any, key: str, ttl: int) -> int:
    """Count one request on ``key`` (expiring after ``ttl`` s): one round trip."""
    pipe = client.pipeline(transaction=False)
    pipe.incr(key)
    pipe.expire(key, ttl)
    count, _ = pipe.execute()
    return int(count)
