"""The Python client and the ``boardgames`` CLI: they know only HTTP, and import nothing of
``shared`` or ``services``. ``verify``, the local bots and ``evaluate`` load a game's pure
rules by name when they run (``services.<game>.rules``; tests/cli/test_boundary.py).
"""
