"""What the ratings routes accept and answer: a player's profile and a leaderboard page
(documentation only; the answers are built in shared/games/ratings.py)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.http.schemas.fields import REQ

RATING = "The rating shown: 1000 + 40 × ordinal, rounded, never below 0 (new: 1000)."


class RatingSchema(Schema):
    mu = fields.Float(**REQ)
    sigma = fields.Float(**REQ)
    rating = fields.Integer(required=True, metadata={"description": RATING})
    ordinal = fields.Float(required=True, metadata={"description": "mu - 3 sigma."})
    games = fields.Integer(required=True, metadata={"description": "Rated games played."})
    games_to_rank = fields.Integer(
        required=True,
        metadata={"description": "Rated games still needed to show on the leaderboard."},
    )
    win_share = fields.Float(
        required=True, metadata={"description": "Wins over rated games (a k-way tie: 1/k)."}
    )


class ProfileSchema(Schema):
    id = fields.String(**REQ)
    name = fields.String(**REQ)
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(RatingSchema),
        required=True,
        metadata={"description": "Per game (`manhattan`, `windcity`) the player was rated in."},
    )


class LeaderboardQuerySchema(Schema):
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))
    cursor = fields.String(validate=validate.Length(1, 200))


class BoardPlayerSchema(Schema):
    id = fields.String(**REQ)
    name = fields.String(**REQ)


class LeaderboardEntrySchema(Schema):
    rank = fields.Integer(**REQ)
    player = fields.Nested(BoardPlayerSchema, **REQ)
    rating = fields.Integer(required=True, metadata={"description": RATING})
    ordinal = fields.Float(required=True, metadata={"description": "The value ranked by."})
    mu = fields.Float(**REQ)
    sigma = fields.Float(**REQ)
    games = fields.Integer(**REQ)
    win_share = fields.Float(**REQ)


class LeaderboardSchema(Schema):
    game = fields.String(**REQ)
    min_games = fields.Integer(
        required=True,
        metadata={"description": "Rated games a player needs to show here."},
    )
    entries = fields.List(fields.Nested(LeaderboardEntrySchema), **REQ)
    next_cursor = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Pass as `cursor` for the next page; `null` on the last."},
    )
