"""The marshmallow schemas of the kit: the building blocks of a game's own option and
move schemas (``fields``, ``moves``), what the routes accept (``requests``), what they answer
(``answers``: documentation of answers sent as built) and the kit's events (``events``).
The OpenAPI document is built from them (shared/http/openapi.py).

A game's ``schemas.py`` imports its building blocks from here."""

from shared.http.schemas.events import EventBase, event_type
from shared.http.schemas.fields import (
    Bool,
    Int,
    clock_field,
    players_field,
    rated_field,
    seed_field,
    start_field,
    takeover_field,
    visibility_field,
)
from shared.http.schemas.moves import MoveUnion, int_list, type_field

__all__ = [
    "Bool",
    "EventBase",
    "Int",
    "MoveUnion",
    "clock_field",
    "event_type",
    "int_list",
    "players_field",
    "rated_field",
    "seed_field",
    "start_field",
    "takeover_field",
    "type_field",
    "visibility_field",
]
