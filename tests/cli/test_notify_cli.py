"""``boardgames notify`` (push settings and devices) and ``boardgames watch --all`` (the
bell when it is your turn), as a subprocess against the live services; a Manhattan
with push on (a VAPID key) for the devices."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from clients.cli.client import ManhattanClient
from shared.push.keys import generate
from tests.conftest import ROOT, serve


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture
def cli(tmp_path, live_manhattan: str, live_windcity: str) -> Callable[..., Any]:
    """``python -m clients.cli ARGS`` with a private BOARDGAMES_HOME."""
    env = {
        **os.environ,
        "MANHATTAN_URL": live_manhattan,
        "WINDCITY_URL": live_windcity,
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "160",
        "BOARDGAMES_HOME": str(tmp_path / "ann"),
    }
    env.pop("BOARDGAMES_API_KEY", None)

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run(
            [sys.executable, "-m", "clients.cli", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            cwd=ROOT,
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"{args} failed ({proc.returncode}): {proc.stderr}")
        return proc

    return run


@pytest.fixture(scope="module")
def push_manhattan(redis_url: str) -> Iterator[str]:
    """Manhattan with push on (push endpoints on 127.0.0.1 allowed)."""
    private, _ = generate()
    env = {"PUSH_VAPID_PRIVATE_KEY": private, "WEBHOOK_ALLOW_PRIVATE": "1"}
    yield from serve("manhattan", redis_url, workers=1, env_extra=env)


def test_notify_shows_changes_and_removes(cli, push_manhattan: str) -> None:
    me = json.loads(cli("register", "ann", "--json").stdout)
    shown = json.loads(cli("notify", "--json").stdout)
    assert shown["push"] is False  # live_manhattan has no VAPID key
    assert shown["quiet_hours"] is None and "your_turn" in shown["events"]

    args = ["--events", "your_turn,clock_low", "--quiet", "22:00-07:00"]
    changed = cli("notify", *args, "--time-zone", "Europe/Berlin", "--language", "ja", "--json")
    settings = json.loads(changed.stdout)
    assert settings["events"] == ["your_turn", "clock_low"]
    assert settings["quiet_hours"] == {"start": "22:00", "end": "07:00"}
    assert (settings["time_zone"], settings["language"]) == ("Europe/Berlin", "ja")
    headers = {"Authorization": f"Bearer {me['key']}"}
    stored = requests.get(f"{push_manhattan}/players/me/push", headers=headers, timeout=5).json()
    assert stored["quiet_hours"] == settings["quiet_hours"]

    german = cli("notify", "--quiet", "off", "--lang", "de").stdout
    assert "dieser Dienst sendet keine Push-Benachrichtigungen" in german
    assert "Ruhezeiten: keine (Zeitzone Europe/Berlin)" in german
    bad = cli("notify", "--quiet", "late", check=False)
    assert bad.returncode == 2 and "--quiet" in bad.stderr
    refused = cli("notify", "--time-zone", "Mars/Olympus", "--json", check=False)
    assert refused.returncode == 1 and json.loads(refused.stderr)["status"] == 422

    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    sub = {
        "endpoint": f"http://127.0.0.1:9999/push/{b64(os.urandom(8))}",
        "keys": {"p256dh": b64(point), "auth": b64(os.urandom(16))},
        "device": "Firefox on Linux",
    }
    url = f"{push_manhattan}/players/me/push/subscriptions"
    device = requests.post(url, json=sub, headers=headers, timeout=5).json()
    listed = cli("notify", "--url", push_manhattan).stdout
    assert "push notifications: on" in listed and device["id"] in listed
    assert "Firefox on Linux" in listed
    after = json.loads(
        cli("notify", "--url", push_manhattan, "--remove", device["id"], "--json").stdout
    )
    assert after["push"] is True and after["subscriptions"] == []
    gone = cli("notify", "--remove", device["id"], "--json", check=False)
    assert gone.returncode == 1 and json.loads(gone.stderr)["code"] == "push-subscription-not-found"


def test_watch_all_rings_when_it_is_your_turn(
    cli, tmp_path, live_manhattan: str, live_windcity: str
) -> None:
    ann = json.loads(cli("register", "ann", "--json").stdout)["key"]
    bob = ManhattanClient(live_manhattan).create_player("bob")["key"]
    host = ManhattanClient(live_manhattan)
    gid = host.create(players=2, seed=3)["id"]
    for key in (ann, bob):
        ManhattanClient(live_manhattan).join(gid, player_key=key)
    view = host.start(gid)
    keys = {0: ann, 1: bob}
    while 0 in view["to_act"]:  # Ann moves until it is Bob's turn alone
        move = host.legal_moves(gid, ann)[0]
        view = host.move(gid, move, token=ann)["game"]

    env = {
        **os.environ,
        "MANHATTAN_URL": live_manhattan,
        "WINDCITY_URL": live_windcity,
        "PYTHONPATH": str(ROOT),
        "BOARDGAMES_HOME": str(tmp_path / "ann"),
    }
    watcher = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clients.cli",
            "watch",
            "--all",
            "--count",
            "1",
            "--interval",
            "600",
            "--lang",
            "ja",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        first = watcher.stdout.readline() if watcher.stdout else ""
        assert "待っています" in first, (first, watcher.stderr.read() if watcher.stderr else "")
        while 0 not in view["to_act"]:  # Bob moves: now it is Ann's turn
            seat = view["to_act"][0]
            move = host.legal_moves(gid, keys[seat])[0]
            view = host.move(gid, move, token=keys[seat])["game"]
        out, err = watcher.communicate(timeout=30)  # the long-poll wakes it, not --interval
    finally:
        if watcher.poll() is None:
            watcher.kill()
            watcher.wait(10)
    assert watcher.returncode == 0, err
    assert f"\aあなたの番です: manhattan のゲーム {gid}" in out
    assert f"{live_manhattan}/play?game={gid}" in out
