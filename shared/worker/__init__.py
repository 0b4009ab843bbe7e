"""The worker process: plays the moves that are due (bots, timeouts) and delivers
webhooks (``loop``; run it with ``python -m shared.worker``).

May import ``shared.games``, ``shared.webhooks``, ``shared.store`` and ``shared.ops``."""
