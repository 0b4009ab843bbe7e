"""Manhattan as a service: ``rules`` (the pure engine: imports only shared.engine and
shared.rng), ``schemas`` (its options, moves and answers, on the kit's building blocks),
``app`` and ``wsgi`` (the HTTP service), ``game`` (``GAME``: the engine and key prefix the
kit finds by the ``boardgames.games`` entry point) and ``rl`` (its environment codec,
the ``boardgames.rl`` entry point). Layered: wsgi over app; app and rl over schemas and
game; the rules at the bottom. Imports nothing of another game and no client.
"""
