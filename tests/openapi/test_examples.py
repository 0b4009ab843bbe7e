"""``make openapi`` is stable: the examples recorded from two fresh games differ only in
what ``scripts/openapi_examples.py`` keeps as recorded (ids, tokens, an unseeded game's
seed commitment, timestamps), so a second run rewrites nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scripts.openapi_examples import OUT, record, write


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
def test_recording_again_changes_no_example(
    game: str, redis_client: Any, redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = record(game, redis_url)
    redis_client.flushdb()  # as on the script's own fresh redis-server
    second = record(game, redis_url)
    assert first["quickMatch"] != second["quickMatch"]  # fresh ids each time
    recorded = (OUT / f"{game}.json").read_text()
    kept = json.loads(recorded)
    assert set(kept) == set(second)
    try:
        write(game, second)
        assert (OUT / f"{game}.json").read_text() == recorded
    finally:
        (OUT / f"{game}.json").write_text(recorded)
    assert "unchanged" in capsys.readouterr().out
