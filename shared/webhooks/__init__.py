"""Webhooks (issue 15): registrations, the transactional outbox, signed delivery.

- :mod:`.registry` checks a registration and derives its secret;
- :mod:`.notify` turns a game write into notifications (written by the same script);
- :mod:`.ssrf` keeps deliveries away from private addresses;
- :mod:`.delivery` is the worker's side: signed POSTs with backoff, in order per game.
"""
