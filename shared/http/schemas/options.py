"""The kit's options as marshmallow fields, built from their one declaration
(shared/games/options.py), and :class:`KitOptionsSchema`, the base of every game's
options schema: a game extends it with its engine's options only, and names its seat
bounds in ``PLAYERS``::

    class ToyOptionsSchema(KitOptionsSchema):
        PLAYERS = (2, 4)
        rounds = Int(load_default=3, validate=validate.Range(1, 10))

Its fields come in the order ``players``, the game's own, then the kit's others (the
OpenAPI document shows them so).

May import marshmallow, the games layer's option declarations and the schemas' own
modules.
"""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import Schema, fields, validate
from marshmallow.schema import SchemaMeta

from shared.games.options import BY_NAME, OPTIONS, Choice, Flag, KitOption, Record, Seats, Whole
from shared.http.schemas.fields import Bool, ClockSchema, Int
from shared.webhooks.schemas import GameWebhookSchema

RECORDS: dict[str, type[Schema]] = {"clock": ClockSchema, "webhook": GameWebhookSchema}
"""The schemas of the options of kind :class:`Record`, by the name they declare."""


def field_of(option: KitOption, players: tuple[int, int]) -> fields.Field[Any]:
    """The field of ``option`` in a game whose seat bounds are ``players``."""
    kind = option.kind
    low, high = players
    metadata: dict[str, Any] = {"description": option.doc.format(minimum=low, maximum=high)}
    if option.doc_default and option.default is not None:
        metadata["default"] = option.default
    if isinstance(kind, Seats):
        return Int(load_default=high, validate=validate.Range(low, high), metadata=metadata)
    if isinstance(kind, Whole):
        return Int(validate=validate.Range(kind.low, kind.high), metadata=metadata)
    if isinstance(kind, Choice):
        return fields.String(validate=validate.OneOf(kind.values), metadata=metadata)
    if isinstance(kind, Flag):
        return Bool(metadata=metadata)
    assert isinstance(kind, Record)
    return fields.Nested(RECORDS[kind.schema], metadata=metadata)


class KitOptionsMeta(SchemaMeta):
    """Adds the kit's options to a class that names ``PLAYERS``: those of ``POST
    /games``, or with ``FOR_MATCH`` those of ``POST /matches``."""

    @classmethod
    def get_declared_fields(
        cls,
        klass: SchemaMeta,
        cls_fields: list[tuple[str, fields.Field[Any]]],
        inherited_fields: list[tuple[str, fields.Field[Any]]],
        dict_cls: type[dict] = dict,  # type: ignore[type-arg]
    ) -> dict[str, fields.Field[Any]]:
        own = [(k, f) for k, f in inherited_fields + cls_fields if k not in BY_NAME]
        bounds = getattr(klass, "PLAYERS", None)
        if bounds is None:
            return dict_cls(own)
        unwanted = "refused" if getattr(klass, "FOR_MATCH", False) else "only"
        kit = [(o.name, field_of(o, bounds)) for o in OPTIONS if o.match != unwanted]
        return dict_cls(kit[:1] + own + kit[1:])


class KitOptionsSchema(Schema, metaclass=KitOptionsMeta):
    """The options every game has: extend it with the engine's, and set ``PLAYERS``."""

    PLAYERS: ClassVar[tuple[int, int]]
