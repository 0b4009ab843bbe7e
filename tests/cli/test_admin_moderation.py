"""``boardgames admin reports|suspend|unsuspend|audit`` over HTTP against Manhattan under
gunicorn with an API keys file (an operator's key and a platform's), in two languages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from clients.cli import admin
from clients.cli.__main__ import main
from tests.conftest import serve


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    path = Path(tmp_path_factory.mktemp("keys")) / "keys.json"
    ops, _ = admin.add(path, "ops", 0, 0, ("admin",))
    plain, _ = admin.add(path, "platform", 0, 0)
    for url in serve("manhattan", redis_url, env_extra={"API_KEYS_FILE": str(path)}):
        yield {"url": url, "admin": ops, "plain": plain}


def cli(capsys: pytest.CaptureFixture[str], service: dict[str, str], *args: str) -> tuple[int, str]:
    code = main(["admin", *args, "--url", service["url"], "--key", service["admin"]])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_an_operator_lists_resolves_suspends_and_reads_the_audit_log(capsys, service):
    base, plain = service["url"], {"Authorization": f"Bearer {service['plain']}"}
    made = [
        requests.post(f"{base}/players", json={"name": n}, headers=plain, timeout=10).json()
        for n in ("Ann", "Bob")
    ]
    (ann, bob) = made
    r = requests.post(
        f"{base}/players/{bob['id']}/report",
        json={"reason": "spam", "note": "links"},
        headers={"Authorization": f"Bearer {ann['key']}"},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    code, out = cli(capsys, service, "reports", "list")
    assert code == 0 and "spam about Bob by Ann" in out and "links" in out
    code, out = cli(capsys, service, "reports", "list", "--json")
    [report] = [x for x in json.loads(out) if x["subject"]["player"] == bob["id"]]
    code, out = cli(capsys, service, "reports", "resolve", report["id"], "actioned", "--note", "ok")
    assert code == 0 and "actioned" in out
    code, out = cli(capsys, service, "reports", "resolve", report["id"], "dismissed")
    assert code == 1 and "resolved already" in out
    code, out = cli(capsys, service, "suspend", bob["id"], "--seconds", "600", "--reason", "spam")
    assert code == 0 and "suspended until" in out
    me = requests.get(
        f"{base}/players/me", headers={"Authorization": f"Bearer {bob['key']}"}, timeout=10
    )
    assert me.status_code == 403 and me.json()["code"] == "player-suspended"
    code, out = cli(capsys, service, "unsuspend", bob["id"], "--reason", "appeal", "--lang", "de")
    assert code == 0 and "darf wieder spielen" in out
    code, out = cli(capsys, service, "audit", "--json")
    actions: list[dict[str, Any]] = json.loads(out)
    assert [a["action"] for a in actions[:3]] == [
        "player.unsuspend",
        "player.suspend",
        "report.actioned",
    ]
    code, out = cli(capsys, service, "audit", "--lang", "ja")
    assert code == 0 and "player.suspend" in out


def test_a_key_without_the_role_is_refused(capsys, service):
    code = main(["admin", "audit", "--url", service["url"], "--key", service["plain"]])
    assert code == 1 and "admin" in capsys.readouterr().err


def test_an_operator_deletes_a_chat_message(capsys, service):
    base, plain = service["url"], {"Authorization": f"Bearer {service['plain']}"}
    made = [
        requests.post(f"{base}/players", json={"name": n}, headers=plain, timeout=10).json()
        for n in ("Cat", "Dan")
    ]
    game = requests.post(f"{base}/games", json={"players": 2}, headers=plain, timeout=10).json()
    gid = game["id"]
    for who in made:
        bearer = {"Authorization": f"Bearer {who['key']}"}
        assert requests.post(f"{base}/games/{gid}/players", json={}, headers=bearer, timeout=10).ok
    assert requests.post(
        f"{base}/games/{gid}/start",
        headers={"Authorization": f"Bearer {game['host_token']}"},
        timeout=10,
    ).ok
    bearer = {"Authorization": f"Bearer {made[1]['key']}"}
    sent = requests.post(
        f"{base}/games/{gid}/chat", json={"text": "nasty"}, headers=bearer, timeout=10
    ).json()["message"]
    code, out = cli(capsys, service, "message", "delete", gid, sent["id"], "--reason", "abuse")
    assert code == 0 and sent["id"] in out
    messages = requests.get(f"{base}/games/{gid}/chat", timeout=10).json()["messages"]
    assert messages[0]["deleted"] is True and messages[0]["text"] is None
    code, out = cli(
        capsys, service, "message", "delete", gid, "1-1", "--reason", "x", "--lang", "ja"
    )
    assert code == 1 and "チャットメッセージ" in out
