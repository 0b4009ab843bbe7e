"""The games the worker serves are found by their ``boardgames.games`` entry points
(shared/registry.py), never by a module path: every game folder has one, naming its
engine and the key prefix its app stores under."""

from __future__ import annotations

import pytest

from shared import registry
from shared.ops.config import load_settings
from shared.worker.loop import build_games
from tests.conftest import ROOT


def test_every_game_is_installed_by_its_entry_point(make_app) -> None:
    folders = sorted(p.parent.parent.name for p in (ROOT / "services").glob("*/rules/__init__.py"))
    assert folders == sorted(registry.installed(registry.GAMES)) == ["manhattan", "windcity"]
    for name in folders:
        game = registry.game(name)
        assert name == game.engine.NAME
        assert make_app(name).extensions["game_kit"].games.store.prefix == game.key_prefix


def test_a_game_without_an_entry_point_is_refused_by_name() -> None:
    with pytest.raises(LookupError, match="'chess'.*installed: \\['manhattan', 'windcity'\\]"):
        registry.game("chess")
    with pytest.raises(LookupError, match="chess"):
        build_games(load_settings({"REDIS_URL": "redis://127.0.0.1:1/0", "WORKER_GAMES": "chess"}))
