"""What ``POST /matches`` accepts and answers (quick match, shared/games/matches.py):
the game's own options schema without the fields a match decides itself, plus
``bots_after``; and the join answer with the game's id. Documentation and validation
only, as for the other answers (shared/http/schemas/answers.py).

May import marshmallow and the schemas' own modules.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.http.schemas.answers import ViewSchema
from shared.http.schemas.fields import REQ, Int

NOT_IN_A_MATCH = ("seed", "visibility", "start", "webhook", "rated")
"""Options a match sets itself (a random seed, public, starts when full, no webhook):
sent in a match request they are unknown fields (422)."""
BOTS_AFTER = (5, 3600)


def match_schema(options_schema: type[Schema]) -> type[Schema]:
    """The request schema of a quick match for a game whose options schema is
    ``options_schema``."""
    excluded = tuple(name for name in NOT_IN_A_MATCH if name in options_schema._declared_fields)
    meta = type("Meta", (), {"exclude": excluded})
    bots_after = Int(
        validate=validate.Range(*BOTS_AFTER),
        metadata={
            "description": f"Seconds, {BOTS_AFTER[0]}..{BOTS_AFTER[1]}: if the table is not "
            "full that long after it was opened, server bots take the empty seats and it "
            "starts. Tables with and without it (or with another value) are not shared."
        },
    )
    attrs = {"Meta": meta, "bots_after": bots_after}
    return type("QuickMatchSchema", (options_schema,), attrs)


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
