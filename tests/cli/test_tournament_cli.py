"""``boardgames tournament list|create|join|start|standings`` against the live services:
a host creates a tournament with bot entries, another player joins, the host starts it,
and the standings list everyone (issue 43)."""

from __future__ import annotations

import json


def test_create_join_start_and_standings(cli) -> None:
    cli("register", "Host", home="host")
    cli("register", "Ann", home="ann")
    made = cli(
        "tournament",
        "create",
        "manhattan",
        "--bots",
        "random,random,random",
        "--turn-seconds",
        "60",
        "--rounds",
        "2",
        "--json",
        home="host",
    )
    tid = json.loads(made.stdout)["id"]
    joined = cli("tournament", "join", "manhattan", tid, home="ann")
    assert "registered for" in joined.stdout
    listed = cli("tournament", "list", "manhattan", "--json", home="ann")
    assert tid in [t["id"] for t in json.loads(listed.stdout)["items"]]
    refused = cli("tournament", "start", "manhattan", tid, home="ann", check=False)
    assert refused.returncode == 1 and "not-host" in refused.stderr
    cli("tournament", "start", "manhattan", tid, home="host")
    table = cli("tournament", "standings", "manhattan", tid, home="ann")
    assert "Ann" in table.stdout and "Bot 1" in table.stdout and "Buchholz" in table.stdout
    rows = json.loads(cli("tournament", "standings", "manhattan", tid, "--json").stdout)
    assert len(rows["items"]) == 4
