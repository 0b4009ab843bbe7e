"""The services' words a person reads, in the CLI's language: statuses, phases, bot
levels, game and city names, and dates (formatted by Babel in the user's locale).

The services answer with stable English values (``"running"``, ``"New York"``, RFC 3339
times); these functions turn them into words for people, a value this client does not
know stays as it is. ``--json`` output keeps the services' values.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from .i18n import N_, _, language

STATUSES = {
    "open": N_("open"),
    "running": N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
PHASES = {
    "select": N_("select"),
    "build": N_("build"),
    "houses": N_("houses"),
    "plan": N_("plan"),
    "insure": N_("insure"),
    "over": N_("over"),
}
"""In English the services' own words; translated in the catalogs."""
LEVELS = {
    "random": N_("random"),
    "greedy": N_("greedy"),
    "medium": N_("medium"),
    "strong": N_("strong"),
}
GAMES = {"manhattan": N_("Manhattan"), "windcity": N_("Wind City")}
CITIES = {
    "New York": N_("New York"),
    "Sydney": N_("Sydney"),
    "Frankfurt": N_("Frankfurt"),
    "Hong Kong": N_("Hong Kong"),
    "São Paulo": N_("São Paulo"),
    "Cairo": N_("Cairo"),
}


def _word(table: dict[str, str], value: Any) -> str:
    text = "" if value is None else str(value)
    return _(table[text]) if text in table else text


def status(value: Any) -> str:
    """A game's status in words (``open`` → waiting for players)."""
    return _word(STATUSES, value)


def phase(value: Any) -> str:
    """A game's phase in words."""
    return _word(PHASES, value)


def level(value: Any) -> str:
    """A bot level's name."""
    return _word(LEVELS, value)


def game(value: Any) -> str:
    """A game's name (``windcity`` → Wind City)."""
    return _word(GAMES, value)


def city(value: Any) -> str:
    """A Manhattan city's name."""
    return _word(CITIES, value)


def when(stamp: Any, *, date_only: bool = False, short: bool = False) -> str:
    """An RFC 3339 time in the user's language and local time (empty when absent;
    as given when unreadable); ``short``: only the time when it is today, else the date."""
    if not stamp:
        return ""
    try:
        moment = datetime.fromisoformat(str(stamp))
    except ValueError:
        return str(stamp)
    from babel.dates import format_date, format_datetime, format_time

    moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone()
    if short and moment.date() == datetime.now(moment.tzinfo).date():
        return format_time(moment, format="short", locale=language())
    if date_only or short:
        return format_date(moment, format="medium", locale=language())
    return format_datetime(moment, format="short", locale=language())
