"""Tournaments' pure rules: the points per place, the standings and their tie-breaks
(``points``), the Swiss pairing of tables (``swiss``) and the arena's next table
(``arena``).

Pure: imports nothing of the kit (no store, Flask or Redis); the life of a tournament
(registration, rounds, the worker's claim) is built over it in the layers above."""
