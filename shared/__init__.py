"""The game-service kit: everything both game services share, and nothing game-specific.

Layers, top to bottom; a package imports only those below it, and packages on one line
not each other (the contracts in pyproject.toml, checked by ``lint-imports``; drawn in
docs/architecture.md):

- ``http``: the Flask edge (app factory, resources, schemas, the fast path, middleware);
  ``worker``: the process that plays due moves and delivers webhooks; ``rl``: the games
  as reinforcement-learning environments;
- ``streaming``, ``webhooks``: long-poll/SSE; webhook registrations and delivery;
  ``usecases``: quick match, autoplay, seat changes, rematch, privacy, each over a
  :class:`shared.games.Games`;
- ``games``: the domain, its parts assembled by :class:`shared.games.Games`;
- ``store``: the only door to Redis; ``bots``: bot levels over any engine (pure);
  ``registry``: the installed games, found by their entry points;
- ``ops``: settings and metrics; ``i18n``: the API's languages (catalogs,
  ``Accept-Language``), used by ``http`` only; ``engine``, ``rng``: the pure contract a
  game's rules implement (all a rules package may import).

The kit imports no game (``services``) and no client (``clients``).
"""
