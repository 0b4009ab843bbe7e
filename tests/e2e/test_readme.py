"""The README's curl walk-through, run as written (bash, curl, python3) against the live
Manhattan service under gunicorn: a new user can paste it and it works end to end."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from clients.cli.client import DEFAULT_URLS
from shared.ops.config import SETTINGS

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


def documented_settings() -> set[str]:
    """The names in the first column of the README's settings table."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Settings") :]
    section = section[: section.index("\n## ", 1)] if "\n## " in section[1:] else section
    names: set[str] = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            names |= set(re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1]))
    return names


def read_settings() -> set[str]:
    """Every environment variable the kit, run.sh, gunicorn.conf.py and the CLI read."""
    names = set(SETTINGS)
    names |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]+):-", (ROOT / "scripts/run.sh").read_text()))
    sources = [ROOT / "gunicorn.conf.py", *sorted((ROOT / "clients/cli").glob("*.py"))]
    for path in sources:
        names |= set(re.findall(r"environ(?:\.get\(|\[)\"([A-Z][A-Z0-9_]+)\"", path.read_text()))
    names |= {env for env, _ in DEFAULT_URLS.values()}
    return names


def test_every_setting_is_in_the_readme_table() -> None:
    missing = read_settings() - documented_settings()
    assert not missing, f"settings missing from README's table: {sorted(missing)}"
    assert {"REDIS_PORT", "WORKER_CONNECTIONS", "ACCESS_LOG"} <= documented_settings()
