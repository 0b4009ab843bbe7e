"""Rates and fixed windows: parsing a rate setting and counting against it, with no
storage and no HTTP (the counters live in the store; the HTTP layer's per-address
limits, its ``ratelimit`` middleware, use these too).

A rate is written like ``"20/second"``, ``"10/minute"``, ``"600/hour"`` or ``"5/10s"``
(5 per 10 seconds; anything the ``limits`` library parses works too); an empty value or
``off`` switches the limit off (the default). The moves' limit (``RATE_LIMIT_MOVES``) is
counted here: an ``INCR`` in the move's own read (``GameStore.read_counted``), on a key
that carries the window's number (one key per window, no reset needed).
"""

from __future__ import annotations

import math
import re
import time
from typing import Final

import limits
from limits import RateLimitItem

from shared.games.errors import RateLimited

Rate = RateLimitItem
_SHORT = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*(s|m|h|d)\s*$")
_UNITS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}
_OFF = {"", "off", "none", "0"}


def parse_rate(text: str | None) -> Rate | None:
    """The rate of a setting; ``None`` when off. Raises ValueError on a malformed one."""
    if text is None or text.strip().lower() in _OFF:
        return None
    short = _SHORT.match(text.lower())
    if short:  # "5/10s": limits wants the unit spelled out
        text = f"{short.group(1)}/{short.group(2) or 1} {_UNITS[short.group(3)]}"
    try:
        rate = limits.parse(text)
    except ValueError as error:
        raise ValueError(
            f"not a rate: {text!r} (e.g. '20/second', '10/minute', '5/10s')"
        ) from error
    if rate.amount < 1:
        raise ValueError(f"not a rate: {text!r}")
    return rate


def window_of(rate: Rate, now: float | None = None) -> tuple[int, int]:
    """The current window's number and the whole seconds until it ends (at least 1)."""
    now = time.time() if now is None else now
    length = rate.get_expiry()
    number = int(now // length)
    retry_after = max(1, math.ceil((number + 1) * length - now))
    return number, retry_after


TOO_MANY: Final = {
    "moves": "Too many moves: at most {amount} per {seconds} s; retry in {retry} s.",
    "requests": "Too many requests: at most {amount} per {seconds} s; retry in {retry} s.",
    "games created": (
        "Too many games created: at most {amount} per {seconds} s; retry in {retry} s."
    ),
    "joins": "Too many joins: at most {amount} per {seconds} s; retry in {retry} s.",
    "webhook tests of this game": (
        "Too many webhook tests of this game: at most {amount} per {seconds} s; retry in {retry} s."
    ),
    "chat messages": (
        "Too many chat messages: at most {amount} per {seconds} s; retry in {retry} s."
    ),
    "chat messages from this address": (
        "Too many chat messages from this address: at most {amount} per {seconds} s; "
        "retry in {retry} s."
    ),
    "reports from this address": (
        "Too many reports from this address: at most {amount} per {seconds} s; retry in {retry} s."
    ),
    "failed authentications": (
        "Too many failed authentications: at most {amount} per {seconds} s; retry in {retry} s."
    ),
}
"""The detail template of each limit (``what`` is counted), one msgid each: the thing
counted is part of the sentence a translation builds."""


def rate_limited(rate: Rate, retry_after: int, what: str) -> RateLimited:
    """``rate-limited``: retry in ``retry_after`` seconds (``what``: a key of
    :data:`TOO_MANY`)."""
    return RateLimited(
        "rate-limited",
        TOO_MANY[what],
        retry_after,
        amount=rate.amount,
        seconds=rate.get_expiry(),
        retry=retry_after,
    )


def check(count: int, rate: Rate, retry_after: int, what: str) -> None:
    """``rate-limited`` once ``count`` (this window's, this request included) exceeds
    the rate."""
    if count > rate.amount:
        raise rate_limited(rate, retry_after, what)
