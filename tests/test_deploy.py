"""The deployment files: docker-compose.yml is well-formed compose wired the way the README
says, and `make run` (scripts/run.sh) starts and stops quietly.

There is no Docker engine on the CI machine, so this checks the file's structure
against the compose file format's rules that matter here, not by running it.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import requests
import yaml

from tests.conftest import free_port, wait_until

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
GAMES = {"manhattan": 8001, "windcity": 8002}
ALLOWED_SERVICE_KEYS = {
    "build", "image", "command", "environment", "ports", "depends_on",
    "healthcheck", "volumes", "restart", "entrypoint",
}  # fmt: skip


def test_top_level_is_compose():
    assert set(COMPOSE) <= {"services", "volumes", "networks", "name"}
    assert {"redis", "worker", *GAMES, "prometheus"} <= set(COMPOSE["services"])
    for name, service in COMPOSE["services"].items():
        assert set(service) <= ALLOWED_SERVICE_KEYS, name
        assert "image" in service or "build" in service, name


def test_redis_is_append_only_on_a_volume():
    redis = COMPOSE["services"]["redis"]
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    volume, mount = redis["volumes"][0].split(":")
    assert volume in COMPOSE["volumes"] and mount == "/data"
    assert redis["healthcheck"]["test"][:2] == ["CMD", "redis-cli"]


def test_games_share_one_dockerfile_and_check_readyz():
    for game, port in GAMES.items():
        service = COMPOSE["services"][game]
        assert service["build"] == "."
        assert service["environment"]["GAME"] == game
        assert service["environment"]["PORT"] == str(port)
        assert service["ports"] == [f"{port}:{port}"]
        assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        probe = " ".join(service["healthcheck"]["test"])
        assert f"127.0.0.1:{port}/readyz" in probe
        assert (ROOT / "services" / game / "app.py").exists()


def test_dockerfile_serves_the_chosen_game_under_gunicorn():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.count("FROM ") == 1
    assert "gunicorn -c gunicorn.conf.py" in dockerfile
    assert "services.${GAME}.app:create_app()" in dockerfile


# ----------------------------------------------------------------------------- make run


def _run_sh_checkout(tmp_path: Path) -> Path:
    """A private checkout for scripts/run.sh: its own var/, the real code and venv."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "run.sh", tmp_path / "scripts" / "run.sh")
    shutil.copy(ROOT / "gunicorn.conf.py", tmp_path / "gunicorn.conf.py")
    for name in ("shared", "services"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    return tmp_path


def _start_run_sh(checkout: Path, env: dict[str, str]) -> subprocess.Popen:
    # A session of its own, like a terminal: SIGINT to its process group is Ctrl-C.
    return subprocess.Popen(
        ["bash", "scripts/run.sh"],
        cwd=checkout,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def _answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=1).status_code == 200
    except requests.RequestException:
        return False


def test_make_run_starts_and_stops_quietly(tmp_path: Path, redis_url: str) -> None:
    """Ctrl-C stops both services with exit 0 and no traceback; a second run is refused
    in one line; each gunicorn has its own control socket under var/."""
    checkout = _run_sh_checkout(tmp_path)
    ports = {"manhattan": free_port(), "windcity": free_port()}
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "MANHATTAN_PORT": str(ports["manhattan"]),
        "WINDCITY_PORT": str(ports["windcity"]),
        "WEB_CONCURRENCY": "1",
    }
    env.pop("GUNICORN_CONTROL_SOCKET", None)
    first = _start_run_sh(checkout, env)
    try:
        for port in ports.values():
            wait_until(partial(_answers, f"http://127.0.0.1:{port}/readyz"), 30, "make run")
        sockets = {p.name for p in (checkout / "var").glob("*.ctl")}
        assert sockets == {"manhattan.ctl", "windcity.ctl"}

        second = subprocess.run(
            ["bash", "scripts/run.sh"], cwd=checkout, env=env, capture_output=True, text=True
        )
        assert second.returncode == 1
        lines = (second.stdout + second.stderr).strip().splitlines()
        assert len(lines) == 1 and "already running" in lines[0], lines
        assert all(_answers(f"http://127.0.0.1:{p}/healthz") for p in ports.values())

        os.killpg(first.pid, signal.SIGINT)
        output, _ = first.communicate(timeout=30)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    assert first.returncode == 0, output
    assert "Traceback" not in output and "rror" not in output, output
    assert output.rstrip().endswith("stopped."), output
    assert not any(_answers(f"http://127.0.0.1:{p}/healthz") for p in ports.values())
    assert not list((checkout / "var").glob("*.ctl"))


def test_make_run_refuses_a_taken_port_in_one_line(tmp_path: Path, redis_url: str) -> None:
    checkout = _run_sh_checkout(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "REDIS_URL": redis_url, "MANHATTAN_PORT": str(port)}
        env["WINDCITY_PORT"] = str(free_port())
        run = subprocess.run(
            ["bash", "scripts/run.sh"], cwd=checkout, env=env, capture_output=True, text=True
        )
    assert run.returncode == 1
    lines = (run.stdout + run.stderr).strip().splitlines()
    assert len(lines) == 1 and f"port {port}" in lines[0] and "in use" in lines[0], lines


def test_the_worker_runs_from_the_same_image_with_a_heartbeat_check(tmp_path):
    worker = COMPOSE["services"]["worker"]
    assert worker["build"] == "." and worker["command"] == ["python", "-m", "shared.worker"]
    assert worker["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert worker["healthcheck"]["test"] == ["CMD", "python", "-m", "shared.worker", "--check"]
    beat = tmp_path / "beat"
    env = {**os.environ, "WORKER_HEARTBEAT_FILE": str(beat), "PYTHONPATH": str(ROOT)}
    check = [sys.executable, "-m", "shared.worker", "--check"]
    assert subprocess.run(check, env=env, cwd=ROOT).returncode == 1  # no heartbeat yet
    beat.touch()
    assert subprocess.run(check, env=env, cwd=ROOT).returncode == 0
    os.utime(beat, (time.time() - 60, time.time() - 60))
    assert subprocess.run(check, env=env, cwd=ROOT).returncode == 1  # a stuck worker
