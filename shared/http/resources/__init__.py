"""The routes of a game service, one module per resource, on one blueprint (``games``):
thin HTTP wiring around :class:`shared.games.Games`.

- ``games``: create, list, read (``GET /games/{id}``), start, cancel;
- ``seats``: join (or seat a bot), leave, resign;
- ``players``: a player (one identity across games), its key and its games;
  ``player_webhooks``: a player's webhook; ``push``: the VAPID key and a player's
  Web Push settings and subscriptions;
- ``moderation``: a player's blocks and reports; ``admin``: the operators' routes
  (reports, suspensions, the audit log);
- ``matches``: quick match; ``rematch``: the next game after an ended one;
- ``leaderboards``: a player's public profile and ratings, the leaderboard;
- ``tournaments``: tournaments (Swiss, arena): create, register, start, standings;
- ``moves``: legal moves, make a move; ``hints``: a bot's move for a seat;
  ``analysis``: a finished game's analysis;
- ``events``: the long-poll page and the SSE stream (the chat among the events);
- ``chat``: the table chat, its canned phrases and a reader's mutes;
- ``records``: score and log;
- ``embeds``: a platform's signed seat links and the embed sessions they open;
- ``blueprint``: what they share (the blueprint and its strict parser, the bearer and
  ``If-Match``, the answer as built, the document's snippets).

Every answer is built whole (status, headers, body) and sent as built; the response
schemas only document it (shared/http/schemas/answers.py). The two requests of a move,
``GET /games/{id}`` and ``POST /games/{id}/moves``, are built by ``games.game_answer``
and ``moves.move_answer``, which shared/http/fastpath.py sends as they are too.
"""

from __future__ import annotations

from marshmallow import Schema

from shared.http import webhooks
from shared.http.resources import (
    admin,
    analysis,
    chat,
    embeds,
    events,
    games,
    hints,
    leaderboards,
    matches,
    moderation,
    moves,
    player_webhooks,
    players,
    push,
    records,
    rematch,
    seats,
    tournaments,
)
from shared.http.resources.blueprint import KitBlueprint, bearer, problems


def make_blueprint(options_schema: type[Schema], move_schema: type[Schema]) -> KitBlueprint:
    """The game service's routes, documented with the game's option and move schemas.

    Argument schemas are given as instances: given a class, webargs builds one per request.
    The routes are added in the order of the OpenAPI document's paths.
    """
    blp = KitBlueprint("games", __name__, description="Games, players, moves and events.")
    blp.move_args = move_schema()
    games.add_create_and_list(blp, options_schema)
    seats.add_routes(blp)
    players.add_routes(blp)
    player_webhooks.add_routes(blp)
    push.add_routes(blp)
    moderation.add_routes(blp)
    admin.add_routes(blp)

    matches.add_routes(blp, options_schema)
    rematch.add_routes(blp)
    leaderboards.add_routes(blp)
    tournaments.add_routes(blp, options_schema)
    games.add_start_cancel_and_read(blp)
    moves.add_routes(blp)
    hints.add_routes(blp)
    analysis.add_routes(blp)
    records.add_score(blp)
    events.add_routes(blp)
    chat.add_routes(blp)
    records.add_log(blp)
    embeds.add_routes(blp)
    webhooks.add_routes(blp, bearer, problems)
    return blp
