"""Web Push from the service itself (issue 40): a player's push subscriptions, and their
delivery by the worker from the same notification entries that feed the player's webhook.

- ``keys``: the VAPID key pair (RFC 8292): the setting, the command that makes one, the
  public key clients subscribe with;
- ``subscriptions``: a player's subscriptions (one per device) and push settings
  (events, quiet hours in its time zone, language), kept in the player registry;
- ``messages``: what a push says (public facts only, in the player's language), its
  ``TTL``, ``Urgency`` and ``Topic``, and quiet hours;
- ``sending``: the worker's side: one encrypted (RFC 8291, aes128gcm), VAPID-signed
  POST (RFC 8030) per notification and subscription, through the webhooks' SSRF guard;
- ``clock``: the ``clock_low`` reminders the worker writes when a turn's clock runs low;
- ``digest``: the opt-in daily digest of the games waiting for a player, sent by the
  worker from a per-player due time.

May import ``shared.games`` (notify, errors, seats), ``shared.store``, ``shared.i18n``
and ``shared.webhooks`` (ssrf, sending).
"""
