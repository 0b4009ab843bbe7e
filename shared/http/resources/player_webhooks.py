"""A player's webhook (issue 30): ``PUT``, ``GET`` and ``DELETE /players/me/webhook``.

One registration per player, heard in every game the player sits in (``your_turn``,
``game_over``); kept in the player registry and looked up by the worker at each delivery
(shared/webhooks/players.py). Registered with
``player_webhooks.add_routes(blp)`` in shared/http/resources/__init__.py.
"""

from __future__ import annotations

from typing import Any

from flask import Response

from shared.http.errors import ApiError
from shared.http.identity import current_player
from shared.http.resources.blueprint import BEARER, KitBlueprint, games, json_answer, problems, send
from shared.http.schemas import player_webhooks as s
from shared.webhooks import players as hooks


def add_routes(blp: KitBlueprint) -> None:
    """``PUT``, ``GET`` and ``DELETE /players/me/webhook``."""

    @blp.route("/players/me/webhook", methods=["PUT"])
    @blp.arguments(s.PlayerWebhookSetSchema())
    @blp.response(201, s.PlayerWebhookSetAnswerSchema)
    @blp.alt_response(
        200, schema=s.PlayerWebhookSetAnswerSchema, description="It replaced the player's."
    )
    @blp.doc(security=BEARER, operationId="setPlayerWebhook")
    @blp.doc(responses=problems(400, 401, 403, 404, 413, 422, 503))
    def set_player_webhook(body: dict[str, Any]) -> Any:
        """Register the player's webhook, replacing any: `your_turn` and `game_over` of
        every game the player sits in, in every service of this registry.

        Signed as the games' webhooks are; the secret is shown once (a new one with each
        PUT). Notifications that waited for the old URL go to the new one.
        """
        kit = games()
        player, _ = current_player()
        reg, secret, new = hooks.register(kit.settings, kit.store.registry, player, body)
        answer = {**hooks.public(reg), "secret": secret}
        return send(json_answer(answer, 201 if new else 200))

    @blp.route("/players/me/webhook", methods=["GET"])
    @blp.response(200, s.PlayerWebhookSchema)
    @blp.doc(security=BEARER, operationId="getPlayerWebhook")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def get_player_webhook() -> Any:
        """The player's webhook: its id, URL and the types it hears.

        Never its secret (shown once, by the PUT); 404 `webhook-not-found` when the
        player has none.
        """
        _, fields = current_player()
        reg = hooks.registration(fields)
        if reg is None:
            raise ApiError(404, "webhook-not-found", "This player has no webhook.")
        return send(json_answer(hooks.public(reg)))

    @blp.route("/players/me/webhook", methods=["DELETE"])
    @blp.response(204)
    @blp.doc(security=BEARER, operationId="deletePlayerWebhook")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def delete_player_webhook() -> Any:
        """Delete the player's webhook, if it has one.

        Nothing more is sent to it, not even what waited for it. A new registration
        hears only what happens after it.
        """
        player, _ = current_player()
        games().store.registry.update(player, {}, ("webhook",))
        return Response(status=204)
