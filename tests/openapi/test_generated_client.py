"""An integrator's path: generate a Python client from each service's document with
openapi-python-client, type-check a natural game loop with ``mypy --strict`` (0 errors),
and play a complete game with it against gunicorn.

The clients are generated once per session into a temporary directory (~3 s each).
``literal_enums`` makes a move's ``type`` a ``Literal["select"]``, so a move is built as
``Select(type_="select", ...)`` and a listed legal move posts unchanged.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
CONFIG = "literal_enums: true\npost_hooks: []\n"


@pytest.fixture(scope="session")
def clients(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A directory with ``manhattan_client`` and ``windcity_client`` packages, on sys.path."""
    out = tmp_path_factory.mktemp("clients")
    (out / "config.yml").write_text(CONFIG)
    for game in ("manhattan", "windcity"):
        subprocess.run(
            [
                str(BIN / "openapi-python-client"),
                "generate",
                "--path",
                str(ROOT / "docs" / "openapi" / f"{game}.json"),
                "--meta",
                "none",
                "--output-path",
                str(out / f"{game}_client"),
                "--config",
                str(out / "config.yml"),
            ],
            check=True,
            capture_output=True,
            cwd=out,
        )
        (out / f"loop_{game}.py").write_text((HERE / f"loop_{game}.py").read_text())
    sys.path.insert(0, str(out))
    yield out
    sys.path.remove(str(out))


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
def test_game_loop_type_checks_strict(clients: Path, game: str) -> None:
    result = subprocess.run(
        [str(BIN / "mypy"), "--strict", "--no-incremental", f"loop_{game}.py"],
        cwd=clients,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_manhattan_complete_game(clients: Path, live_manhattan: str) -> None:
    loop = importlib.import_module("loop_manhattan")
    result = loop.play(live_manhattan, seed=3)
    assert result.winners and len(result.standings) == 2


def test_windcity_complete_game(clients: Path, live_windcity: str) -> None:
    loop = importlib.import_module("loop_windcity")
    result = loop.play(live_windcity, seed=3)
    assert result.winners and len(result.standings) == 2
