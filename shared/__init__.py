"""The game-service kit: everything both game services share, and nothing game-specific.

Layers, top to bottom; a package imports only those below it (docs/architecture.md):

- ``http``: the Flask edge (app factory, resources, schemas, the fast path, middleware);
- ``worker``: the process that plays due moves and delivers webhooks;
- ``streaming``, ``webhooks``: long-poll/SSE; webhook registrations and delivery;
- ``games``: the domain, behind :class:`shared.games.Games`;
- ``store``: the only door to Redis;
- ``ops``: settings and metrics;
- ``i18n``: the API's languages (catalogs, ``Accept-Language``), used by ``http``;
- ``engine``, ``rng``: the pure contract a game's rules implement (all a rules package
  may import).
"""
