"""The marshmallow schemas of the kit: the building blocks of a game's own option and
move schemas (``options``: :class:`KitOptionsSchema`, the kit's options a game's options
schema extends; ``fields``, ``moves``), what the routes accept (``requests``), what they
answer (``answers``: documentation of answers sent as built) and the kit's events
(``events``). The OpenAPI document is built from them (shared/http/openapi.py).

A game's ``schemas.py`` imports its building blocks from here."""

from shared.http.schemas.events import EventBase, event_type
from shared.http.schemas.fields import Bool, Int
from shared.http.schemas.moves import MoveUnion, int_list, type_field
from shared.http.schemas.options import KitOptionsSchema

__all__ = [
    "Bool",
    "EventBase",
    "Int",
    "KitOptionsSchema",
    "MoveUnion",
    "event_type",
    "int_list",
    "type_field",
]
