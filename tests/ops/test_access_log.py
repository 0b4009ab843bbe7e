"""gunicorn's access log under real gunicorn (the project's gunicorn.conf.py): off unless
``ACCESS_LOG`` names one, whatever ``LOG_FORMAT`` says, and never with a query string, a
header or the Basic-auth user (docs/operations.md, "Logs"). ``LOG_FORMAT=json`` once
switched it on: every request was logged twice, query string and user included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from tests.conftest import APP_FACTORIES, ROOT, free_port, stop, wait_until

SECRETS = ("qs-secret-4711", "basic-user-mallory", "agent-secret-0815", "referer-secret-9")
BASIC = "Basic YmFzaWMtdXNlci1tYWxsb3J5OnB3"  # basic-user-mallory:pw


@contextmanager
def gunicorn(redis_url: str, log: Path, **env_extra: str) -> Iterator[str]:
    """Manhattan under gunicorn with its stdout and stderr in ``log``; the base URL."""
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "LOG_LEVEL": "INFO",
        "WEB_CONCURRENCY": "1",
        "METRICS_DIR": str(log.parent / "metrics"),
        "PYTHONPATH": str(ROOT),
        **env_extra,
    }
    for name in ("ACCESS_LOG", "LOG_FORMAT", "PROMETHEUS_MULTIPROC_DIR", "GUNICORN_CMD_ARGS"):
        if name not in env_extra:
            env.pop(name, None)
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
    command += ["-b", f"127.0.0.1:{port}", "--graceful-timeout", "2"]
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [*command, f"{APP_FACTORIES['manhattan']}()"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: requests.get(f"{base}/healthz", timeout=1).ok, 20, "gunicorn")
        yield base
    finally:
        stop(proc)


def _requests(base: str) -> None:
    """Three requests, each carrying something no log line may show."""
    headers = {
        "Authorization": BASIC,
        "User-Agent": SECRETS[2],
        "Referer": f"https://example.test/{SECRETS[3]}",
    }
    assert requests.get(f"{base}/healthz?token={SECRETS[0]}", headers=headers, timeout=5).ok
    created = requests.post(f"{base}/games?x={SECRETS[0]}", json={"players": 2}, timeout=5)
    assert created.status_code == 201
    gid = created.json()["id"]
    got = requests.get(f"{base}/games/{gid}/events?after=0&wait=0", headers=headers, timeout=5)
    assert got.status_code == 200


def _lines(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines() if line.strip()]


def _assert_nothing_secret(lines: list[str]) -> None:
    for line in lines:
        for secret in SECRETS:
            assert secret not in line, line
        assert "after=0" not in line, line


def _wait_logged(log: Path, count: int, logger: str) -> list[dict]:
    def found() -> list[dict]:
        return [r for r in map(json.loads, _lines(log)) if r.get("logger") == logger]

    wait_until(lambda: len(found()) >= count, 5, f"{count} lines of {logger}")
    return found()


def test_json_logs_keep_the_access_log_off(redis_url: str, tmp_path: Path) -> None:
    log = tmp_path / "service.log"
    with gunicorn(redis_url, log, LOG_FORMAT="json") as base:
        _requests(base)
        requests_logged = _wait_logged(log, 4, "boardgames.request")
    lines = _lines(log)
    records = [json.loads(line) for line in lines]  # every line is JSON
    assert not [r for r in records if r.get("logger") == "gunicorn.access"], lines
    # one line per request, the app's own; and no line of gunicorn's twice either
    assert [r["route"] for r in requests_logged][-2:] == ["/games", "/games/<game_id>/events"]
    assert len([line for line in lines if "/events" in line]) == 1, lines
    assert len([line for line in lines if "POST /games" in line]) == 1, lines
    assert len(lines) == len(set(lines)), lines
    assert [r for r in records if r.get("logger") == "gunicorn.error"]  # still JSON, once
    _assert_nothing_secret(lines)


@pytest.mark.parametrize("log_format", ["json", "plain"])
def test_an_access_log_asked_for_shows_no_query_header_or_user(
    redis_url: str, tmp_path: Path, log_format: str
) -> None:
    log = tmp_path / "service.log"
    access = tmp_path / "access.log"
    with gunicorn(redis_url, log, LOG_FORMAT=log_format, ACCESS_LOG=str(access)) as base:
        _requests(base)
        wait_until(lambda: len(_lines(access)) >= 4, 5, "the access log")
    lines = _lines(access)
    # the three requests once each, after the start-up probe (more than one probe when
    # the first answered after its 1 s timeout: each is logged)
    assert len([line for line in lines if "/healthz" not in line]) == 2, lines
    assert len([line for line in lines if "/healthz" in line]) >= 2, lines
    if log_format == "json":
        records = [json.loads(line) for line in lines]
        assert {r["logger"] for r in records} == {"gunicorn.access"}
    assert [line for line in lines if "/games/" in line and "/events" in line]
    _assert_nothing_secret(lines)
    _assert_nothing_secret(_lines(log))
    assert not [line for line in _lines(log) if "gunicorn.access" in line]


def test_plain_logs_keep_the_access_log_off(redis_url: str, tmp_path: Path) -> None:
    log = tmp_path / "service.log"
    with gunicorn(redis_url, log) as base:
        _requests(base)
        wait_until(lambda: "/events" in log.read_text(), 5, "the request lines")
    lines = _lines(log)
    assert not [line for line in lines if "HTTP/1.1" in line], lines
    _assert_nothing_secret(lines)
