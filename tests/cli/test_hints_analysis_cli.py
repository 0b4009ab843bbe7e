"""``hint`` and ``analysis`` in the CLI (issue 42): a hint on the live service (the
suggested move, the hints left, then the refusal), the pending analysis, and the short
list an analysis prints."""

from __future__ import annotations

import json

import requests

from clients.cli.analysis import render_analysis

BODY = {
    "game_id": "0123456789abcdef",
    "game": "manhattan",
    "seats": 2,
    "moves": 4,
    "chances": [
        {"index": i, "version": None if i == 0 else i + 2, "chances": [c, round(1 - c, 2)]}
        for i, c in enumerate([0.5, 0.62, 0.25, 0.4, 1.0])
    ],
    "drops": [
        {
            "seat": 0,
            "drops": [
                {
                    "index": 2,
                    "version": 4,
                    "move": {"type": "discard", "lot": 3},
                    "before": 0.62,
                    "after": 0.25,
                    "drop": 0.37,
                    "preferred": {"type": "discard", "lot": 5},
                    "by": 0.2,
                }
            ],
        },
        {"seat": 1, "drops": []},
    ],
    "method": {},
}


def test_the_analysis_list():
    text = render_analysis("manhattan", BODY, {0: "Ann", 1: "Bob"}).plain
    assert "Ann" in text and "Bob" in text and "100%" in text
    assert "move 2:" in text and "62% → 25%" in text and "+20%" in text
    assert "Bob: biggest drops\n  none" in text


def test_hint_and_pending_analysis_live(cli, live_manhattan):
    base = live_manhattan
    r = requests.post(f"{base}/games", json={"players": 2, "hints": 1, "rated": False}, timeout=10)
    game_id, host = r.json()["id"], r.json()["host_token"]
    tokens = [
        requests.post(f"{base}/games/{game_id}/players", json={"name": n}, timeout=10).json()[
            "token"
        ]
        for n in ("Ann", "Bob")
    ]
    requests.post(
        f"{base}/games/{game_id}/start", headers={"Authorization": f"Bearer {host}"}, timeout=10
    )
    seat = requests.get(f"{base}/games/{game_id}", timeout=10).json()["to_act"][0]
    args = ("manhattan", "hint", "-g", game_id, "--token", tokens[seat])
    out = cli(*args).stdout
    assert "hint (medium bot):" in out and "(0 hints left)" in out
    refused = cli(*args, check=False)
    assert refused.returncode == 1 and "hints-used-up" in refused.stdout
    as_json = cli(*args, "--json", check=False)
    assert as_json.returncode != 0 and json.loads(as_json.stderr)["code"] == "hints-used-up"
    pending = cli("manhattan", "analysis", "-g", game_id, check=False)
    assert pending.returncode != 0 and "game-not-finished" in pending.stderr
