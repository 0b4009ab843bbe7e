"""What the tournament routes accept and answer (shared/http/resources/tournaments.py,
shared/usecases/tournaments.py). Documentation and validation only, as for the other
answers (shared/http/schemas/answers.py).

May import marshmallow and the schemas' own modules.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.http.schemas.fields import ClockSchema
from shared.http.schemas.options import KitOptionsSchema
from shared.webhooks.schemas import TournamentWebhookSchema, secret_field


class PointsSchema(Schema):
    """Points per place by table size, best first (taken as given)."""

    class Meta:
        include = {
            str(n): fields.List(
                fields.Integer(validate=validate.Range(0, 1000)), validate=validate.Length(n, n)
            )
            for n in range(2, 6)
        }


LEVELS = ("random", "greedy", "medium", "strong")


def create_schema(options_schema: type[Schema]) -> type[Schema]:
    """The request schema of a new tournament of the game whose options schema is
    ``options_schema``."""
    assert issubclass(options_schema, KitOptionsSchema), options_schema
    low, high = options_schema.PLAYERS
    return type(
        "TournamentCreateSchema",
        (Schema,),
        {
            "name": fields.String(validate=validate.Length(1, 80)),
            "format": fields.String(
                validate=validate.OneOf(["swiss", "arena"]), load_default="swiss"
            ),
            "rounds": fields.Integer(validate=validate.Range(1, 20), load_default=3),
            "round_minutes": fields.Integer(
                validate=validate.Range(1, 10_080),
                allow_none=True,
                metadata={
                    "description": "Swiss: round k + 1 starts at the start + k × this, or "
                    "when the last game of round k is over if later (none, the default: "
                    "as soon as it is over)."
                },
            ),
            "minutes": fields.Integer(
                validate=validate.Range(1, 1440),
                metadata={"description": "An arena's window from its start (default 30)."},
            ),
            "table_size": fields.Integer(
                validate=validate.Range(low, high),
                metadata={"description": "Players per table (default the game's maximum)."},
            ),
            "clock": fields.Nested(
                ClockSchema, required=True, metadata={"description": "The games' clock."}
            ),
            "options": fields.Nested(
                type("TournamentOptionsSchema", (options_schema,), {"FOR_MATCH": True}),
                metadata={"description": "The games' other options (as quick match's)."},
            ),
            "rated": fields.Boolean(load_default=False),
            "max_players": fields.Integer(validate=validate.Range(2, 10_000)),
            "starts_at": fields.Integer(
                validate=validate.Range(0, 2**53),
                allow_none=True,
                metadata={
                    "description": "When it starts (ms since the epoch); none: the host starts it."
                },
            ),
            "checkin_seconds": fields.Integer(validate=validate.Range(60, 86_400), allow_none=True),
            "points": fields.Nested(PointsSchema),
            "bye_points": fields.Integer(validate=validate.Range(0, 1000)),
            "bots": fields.List(
                fields.String(validate=validate.OneOf(LEVELS)),
                validate=validate.Length(0, 64),
                metadata={"description": "Bot entries, a level each (the host's)."},
            ),
            "webhook": fields.Nested(
                TournamentWebhookSchema,
                metadata={
                    "description": "Call this URL on `round_started`, `standings` (a round "
                    "closed) and `finished` (Standard Webhooks)."
                },
            ),
        },
    )


class TournamentListQuerySchema(Schema):
    limit = fields.Integer(validate=validate.Range(1, 100), load_default=20)
    cursor = fields.String(
        validate=validate.Regexp(r"^[0-9]{1,15}$"), metadata={"description": "`next_cursor`."}
    )


class StandingsQuerySchema(Schema):
    limit = fields.Integer(validate=validate.Range(1, 200), load_default=50)
    cursor = fields.String(
        validate=validate.Regexp(r"^[0-9]{1,15}$"), metadata={"description": "`next_cursor`."}
    )


class TournamentSchema(Schema):
    """A tournament as stored: its settings, ``status`` (``registering``, ``running``,
    ``finished``, ``cancelled``), ``round``, ``history`` (each round's tables with their
    game ids, and its byes) and ``entries`` (each player's points, games and opponents)."""

    id = fields.String()
    game = fields.String()
    name = fields.String()
    status = fields.String()
    round = fields.Integer()
    rounds = fields.Integer()
    table_size = fields.Integer()
    history = fields.List(fields.Dict())
    entries = fields.Dict()
    version = fields.Integer(
        metadata={"description": "One tournament only: its version, also its ETag."}
    )
    place_points = fields.Dict(
        metadata={
            "description": "One tournament only: the points per place (best first) by table"
            " size, the tournament's own or the defaults."
        }
    )
    players = fields.Integer(
        metadata={"description": "In the list only (without `entries`): how many entries."}
    )
    webhook_id = fields.String(metadata={"description": "Its webhook's id (creation only)."})
    webhook_secret = secret_field()


class TournamentListSchema(Schema):
    items = fields.List(fields.Nested(TournamentSchema))
    next_cursor = fields.String(allow_none=True)


class TournamentStandingSchema(Schema):
    place = fields.Integer()
    player = fields.String()
    name = fields.String()
    points = fields.Integer()
    buchholz = fields.Integer(metadata={"description": "The sum of the opponents' points."})
    rating = fields.Float()
    games = fields.List(fields.String())
    byes = fields.Integer()
    withdrawn = fields.Boolean()


class TournamentStandingsSchema(Schema):
    round = fields.Integer()
    status = fields.String()
    items = fields.List(fields.Nested(TournamentStandingSchema))
    next_cursor = fields.String(allow_none=True)
