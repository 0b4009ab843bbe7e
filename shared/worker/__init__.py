"""The worker process: plays the moves that are due (bots, timeouts) and delivers
webhooks (``loop``; run it with ``python -m shared.worker``).

May import ``shared.games``, ``shared.webhooks``, ``shared.store``, ``shared.ops``, and the
pure layers a bot's decision needs: ``shared.bots`` and the engine contract. It finds the
games it serves (``WORKER_GAMES``) by name through ``shared.registry``, never by a module
path. It serves no request: nothing of ``shared.http``, ``shared.streaming`` or
``shared.i18n``."""
