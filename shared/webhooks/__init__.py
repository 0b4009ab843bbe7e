"""Webhooks (issue 15): registrations, the transactional outbox, signed delivery.

- :mod:`.registry` checks a registration and derives its secret;
- :mod:`shared.games.notify` (the games layer's) turns a game write into notifications,
  written by the same script;
- :mod:`.ssrf` keeps deliveries away from private addresses;
- :mod:`.delivery` is the worker's side: signed POSTs with backoff, in order per
  registration;
- :mod:`.schemas` the registration fields of the HTTP layer's schemas.

May import ``shared.games``, ``shared.store`` and ``shared.ops``; the HTTP layer
(``shared/http/webhooks.py``) and the worker use it.
"""
