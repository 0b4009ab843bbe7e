"""What ``POST /matches`` accepts and answers (quick match, shared/usecases/matches.py):
the game's own options schema with the kit's options a match accepts (those declared
with ``match="pool"`` or ``"only"`` in shared/games/options.py: the others a match sets
itself, and sent here they are unknown fields, 422); and the join answer with the
game's id. Documentation and validation only, as for the other answers
(shared/http/schemas/answers.py).

May import marshmallow and the schemas' own modules.
"""

from __future__ import annotations

from marshmallow import Schema, fields

from shared.http.schemas.answers import ViewSchema
from shared.http.schemas.fields import REQ
from shared.http.schemas.options import KitOptionsSchema


def match_schema(options_schema: type[Schema]) -> type[Schema]:
    """The request schema of a quick match for a game whose options schema is
    ``options_schema`` (a :class:`KitOptionsSchema`)."""
    assert issubclass(options_schema, KitOptionsSchema), options_schema
    return type("QuickMatchSchema", (options_schema,), {"FOR_MATCH": True})


class MatchedSchema(Schema):
    game_id = fields.String(required=True, metadata={"description": "The table's game."})
    seat = fields.Integer(**REQ)
    token = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The seat's secret token, shown once; `null` when the player "
            "already sat at this table (its player key acts for the seat)."
        },
    )
    game = fields.Nested(ViewSchema, **REQ)
