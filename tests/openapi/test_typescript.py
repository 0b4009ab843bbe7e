"""``make openapi-ts``: TypeScript types generated from docs/openapi/*.json with
openapi-typescript, and a game loop per game (clients/ts/loop_*.ts) that passes
``tsc --strict``. About 35 s on the dev machine (npm ci, generate, tsc), so it runs here.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_typescript_game_loops_type_check() -> None:
    assert shutil.which("npm"), (
        "make openapi-ts needs node (>= 20) and npm: apt-get install nodejs npm, "
        "or https://nodejs.org/en/download"
    )
    result = subprocess.run(
        ["make", "--no-print-directory", "openapi-ts"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
