"""The client speaks HTTP only: nothing in ``clients/cli`` imports ``services`` or ``shared``
(a contract in pyproject.toml, checked by ``lint-imports``, as is that nothing imports
``evaluate.py``). Here, what no static contract sees: what importing and running loads.

``evaluate.py`` is the documented exception: it loads the engines with ``importlib`` to
play thousands of games in-process. ``verify.py`` and ``bots.py`` are the others: when a
game is verified or a bot is asked for (never at import) they load the game's pure rules
the same way, and those bring only ``shared.rng`` and ``shared.engine`` of the kit with
them, never Flask or Redis.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "cli"
SERVER_SIDE = ("services", "shared")


def test_importing_the_client_loads_no_server_code() -> None:
    modules = [
        "clients." + ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts)
        for p in sorted(PACKAGE.rglob("*.py"))
        if p.stem != "evaluate"
    ]
    assert "clients.cli.games.manhattan" in modules
    code = (
        f"import importlib, sys\nfor m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {SERVER_SIDE!r}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "[]"


def _server_modules_loaded_by(setup: str, action: str) -> set[str]:
    """The server-side modules that ``action`` loads after ``setup`` ran, in a fresh process."""
    code = (
        f"import sys\n{setup}\nbefore = set(sys.modules)\n{action}\n"
        "print(sorted(m for m in set(sys.modules) - before if m.split('.')[0] in "
        "('shared', 'flask', 'redis', 'werkzeug', 'marshmallow')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return set(ast.literal_eval(out.stdout))


def test_verify_loads_only_the_pure_rules() -> None:
    loaded = _server_modules_loaded_by(
        "from clients.cli import verify",
        "for game in ('manhattan', 'windcity'): verify.load_rules(game)",
    )
    assert loaded <= {"shared", "shared.rng", "shared.engine"}, loaded
    assert "shared.rng" in loaded


def test_bots_load_only_the_pure_rules() -> None:
    """The CLI's bots are the rules packages' strategies, loaded when asked for."""
    loaded = _server_modules_loaded_by(
        "from clients.cli import bots",
        "for game in ('manhattan', 'windcity'):\n"
        "    for name in ('random', 'greedy'): bots.strategy(game, name)",
    )
    assert loaded <= {"shared", "shared.rng", "shared.engine"}, loaded
    assert "shared.rng" in loaded
