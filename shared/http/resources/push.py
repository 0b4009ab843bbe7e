"""Web Push (issue 40): ``GET /push/key`` and a player's ``/players/me/push``.

- ``GET /push/key``: the VAPID public key a browser subscribes with (404
  ``push-disabled`` while the operator has set none);
- ``GET`` and ``PATCH /players/me/push``: the player's push settings (events, quiet
  hours, time zone, language) and its subscriptions;
- ``POST /players/me/push/subscriptions``: register a device's subscription (as
  ``PushSubscription.toJSON()`` gives it); ``DELETE .../{subscription_id}``: remove it.

Thin wiring around shared/push/subscriptions.py; the worker pushes
(shared/push/sending.py). Registered with ``push.add_routes(blp)`` in
shared/http/resources/__init__.py.
"""

from __future__ import annotations

from typing import Any

from flask import Response

from shared.http.identity import current_player
from shared.http.resources.blueprint import BEARER, KitBlueprint, games, json_answer, problems, send
from shared.http.schemas import push as s
from shared.push import keys, subscriptions


def _settings(settings: dict[str, Any], fields: dict[str, str]) -> dict[str, Any]:
    subs = [subscriptions.public(sub) for sub in subscriptions.subscriptions_of(fields)]
    return {**settings, "subscriptions": subs}


def add_routes(blp: KitBlueprint) -> None:
    """The push routes (see the module's docstring)."""

    @blp.route("/push/key", methods=["GET"])
    @blp.response(200, s.PushKeySchema)
    @blp.doc(operationId="getPushKey", responses=problems(404, 503))
    def get_push_key() -> Any:
        """The VAPID public key to subscribe with, and the events a push can tell.

        404 `push-disabled` when the operator has set no key: this service sends no
        push notifications.
        """
        vapid = keys.require(games().settings)
        body = {"public_key": keys.public_of(vapid), "events": list(subscriptions.EVENTS)}
        return send(json_answer(body))

    @blp.route("/players/me/push", methods=["GET"])
    @blp.response(200, s.PushSettingsSchema)
    @blp.doc(security=BEARER, operationId="getPushSettings")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def get_push_settings() -> Any:
        """The player's push settings and subscriptions.

        The settings as `PATCH` left them (the defaults until then); each subscription's
        id, endpoint, device name and `since`, never its keys.
        """
        _, fields = current_player()
        return send(json_answer(_settings(subscriptions.settings_of(fields), fields)))

    @blp.route("/players/me/push", methods=["PATCH"])
    @blp.arguments(s.PushSettingsSetSchema())
    @blp.response(200, s.PushSettingsSchema)
    @blp.doc(security=BEARER, operationId="setPushSettings")
    @blp.doc(responses=problems(400, 401, 403, 404, 413, 422, 503))
    def set_push_settings(body: dict[str, Any]) -> Any:
        """Change the player's push settings: the fields given.

        `events` to push, `quiet_hours` (`{"start": "22:00", "end": "07:00"}`, null:
        none) in `time_zone` (an IANA name), and the `language` of the texts. In quiet
        hours nothing is pushed but a `clock_low` whose deadline falls before they end.
        `digest` (not on by default): the games waiting for the player's move, at most
        once a day.
        """
        player, fields = current_player()
        settings = subscriptions.configure(games().store.registry, player, fields, body)
        return send(json_answer(_settings(settings, fields)))

    @blp.route("/players/me/push/subscriptions", methods=["POST"])
    @blp.arguments(s.SubscribeSchema())
    @blp.response(201, s.SubscriptionSchema)
    @blp.alt_response(200, schema=s.SubscriptionSchema, description="It replaced the same.")
    @blp.doc(security=BEARER, operationId="addPushSubscription")
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 413, 422, 503))
    def add_push_subscription(body: dict[str, Any]) -> Any:
        """Register a device's push subscription (`PushSubscription.toJSON()`).

        The same endpoint again replaces it (200). The endpoint must pass the same
        guard as a webhook's URL (`push-endpoint-refused`); 404 `push-disabled`
        without a VAPID key; 409 `push-subscriptions-full` past the limit.
        """
        kit = games()
        player, _ = current_player()
        sub, new = subscriptions.subscribe(
            kit.settings, kit.store.registry, player, body, kit.engine.NAME
        )
        return send(json_answer(subscriptions.public(sub), 201 if new else 200))

    @blp.route("/players/me/push/subscriptions/<subscription_id>", methods=["DELETE"])
    @blp.response(204)
    @blp.doc(security=BEARER, operationId="deletePushSubscription")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def delete_push_subscription(subscription_id: str) -> Any:
        """Remove one of the player's subscriptions.

        Nothing more is pushed to it, not even what waited for it. 404
        `push-subscription-not-found` for an id the player has not.
        """
        player, fields = current_player()
        subscriptions.unsubscribe(games().store.registry, player, fields, subscription_id)
        return Response(status=204)
