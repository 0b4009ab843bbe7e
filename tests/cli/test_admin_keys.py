"""``boardgames admin keys list``: the human table shows what ``--json`` gives, a key's
frame origins among it (``none`` when no page may frame its embeds), in each language,
the columns aligned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.cells import cell_len

from clients.cli import admin
from clients.cli.__main__ import main

ACME = ["https://play.acme.example", "http://[::1]:8080"]


def listed(capsys: pytest.CaptureFixture[str], path: Path, *args: str) -> str:
    assert main(["admin", "keys", "list", "--file", str(path), *args]) == 0
    return capsys.readouterr().out


def test_the_table_shows_each_keys_frame_origins(capsys, tmp_path: Path) -> None:
    path = tmp_path / "keys.json"
    admin.add(path, "acme", 10, 2, ACME)
    admin.add(path, "ops", 0, 0, roles=("admin",))
    admin.add(path, "ゲーム会社", 0, 0, ["https://beta.example"])
    admin.revoke(path, "ゲーム会社")
    as_json = {e["name"]: e["frame_origins"] for e in json.loads(listed(capsys, path, "--json"))}
    assert as_json == {"acme": ACME, "ops": [], "ゲーム会社": ["https://beta.example"]}
    acme, ops, gone = listed(capsys, path).splitlines()
    assert acme.endswith("frame origins: https://play.acme.example http://[::1]:8080"), acme
    assert ops.endswith("frame origins: none") and "[admin]" in ops, ops
    assert gone.endswith("frame origins: https://beta.example") and "revoked" in gone, gone
    # the column starts at the same place on every line (a Japanese name takes 2 cells)
    starts = {cell_len(line[: line.index("frame origins:")]) for line in (acme, ops, gone)}
    assert len(starts) == 1, (acme, ops, gone)
    for language, words, none in (
        ("de", "einrahmende Origins:", "keine"),
        ("ja", "オリジン:", "なし"),
    ):
        lines = listed(capsys, path, "--lang", language).splitlines()
        assert lines[0].endswith(f"{words} {' '.join(ACME)}"), lines[0]
        assert lines[1].endswith(f"{words} {none}"), lines[1]
