"""A game's moves: a tagged union of one schema per move type, and the fields moves are
made of. A move is loaded by :mod:`shared.http.schemas.quickload` when it can (nearly
always), else by marshmallow's own load."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, validate

from shared.http.schemas import quickload
from shared.http.schemas.fields import Int


class MoveUnion(Schema):
    """A move: one of several schemas chosen by its ``type`` (a tagged union).

    A game subclasses it and fills ``TYPES`` (``{"place": PlaceSchema, ...}``); each
    member schema has its own ``type`` field. The kit documents it as a ``oneOf``.
    """

    TYPES: ClassVar[dict[str, type[Schema]]] = {}

    type = fields.String(required=True)

    def load(self, data: Any, *, many: Any = None, partial: Any = None, unknown: Any = None) -> Any:
        if type(data) is not dict and not isinstance(data, Mapping):
            raise ValidationError({"_schema": ["A move must be a JSON object."]})
        kind = data.get("type")
        member = self.TYPES.get(kind) if isinstance(kind, str) else None
        if member is None:
            raise ValidationError({"type": [f"Must be one of: {', '.join(self.TYPES)}."]})
        schema, quick = _instance(member)
        if quick is not None:
            loaded = quick(data)
            if loaded is not quickload.UNSURE:
                return loaded
        return schema.load(data)


@cache
def _instance(schema: type[Schema]) -> tuple[Schema, Callable[[Any], Any] | None]:
    """One instance per member schema (building one costs ~50 us), and its quick load."""
    instance = schema()
    return instance, quickload.quick_loader(instance)


def int_list(low: int, high: int, length: tuple[int, int], description: str) -> fields.List[Any]:
    """A move's required list of JSON integers in ``low..high`` (pieces, actions...)."""
    return fields.List(
        Int(validate=validate.Range(low, high)),
        required=True,
        validate=validate.Length(*length),
        metadata={"description": description},
    )


def type_field(name: str) -> fields.String:
    """The ``type`` field of a move or event schema, fixed to ``name`` (the discriminator)."""
    return fields.String(required=True, validate=validate.Equal(name), metadata={"enum": [name]})
