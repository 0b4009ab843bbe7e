"""The README's curl walk-through, run as written (bash, curl, python3) against the live
Manhattan service under gunicorn: a new user can paste it and it works end to end."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def curl_block() -> str:
    """The first ``sh`` block under "## A game with curl" in README.md, unchanged."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## A game with curl") :]
    match = re.search(r"```sh\n(.*?)```", section, re.S)
    assert match, "no sh block under '## A game with curl'"
    return match.group(1)


def test_block_has_no_placeholders() -> None:
    block = curl_block()
    assert "…" not in block and "<" not in block.replace("<<", "")
    used = set(re.findall(r"\$\{?([A-Z][A-Z_]*)", block))
    defined = set(re.findall(r"^\s*(?:if .*then )?([A-Z][A-Z_]*)=", block, re.M))
    defined |= set(re.findall(r"; ([A-Z][A-Z_]*)=", block))
    assert used - defined <= {"MANHATTAN_URL"}, used - defined


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_curl_walkthrough_runs_end_to_end(live_manhattan: str, tmp_path: Path) -> None:
    proc = subprocess.run(
        ["bash", "-eu", "-c", curl_block()],
        capture_output=True,
        text=True,
        timeout=90,
        cwd=tmp_path,
        env={**os.environ, "MANHATTAN_URL": live_manhattan},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == "", proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "running", lines
    assert re.fullmatch(r'seat [01] plays \{"type": "select", .*\}', lines[1]), lines
    assert lines[2] == "pieces_selected", lines
    assert re.fullmatch(r"\d+-\d+", lines[3]), lines  # the long-poll's last event id
    assert any(line.startswith("id: ") for line in lines[4:10]), lines  # SSE
    assert lines[-2] == "game_created" and lines[-1] == "cancelled", lines
