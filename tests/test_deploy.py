"""The deployment files: docker-compose.yml is well-formed compose wired the way the README says.

There is no Docker engine on the CI machine, so this checks the file's structure
against the compose file format's rules that matter here, not by running it.
"""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
GAMES = {"manhattan": 8001, "windcity": 8002}
ALLOWED_SERVICE_KEYS = {
    "build", "image", "command", "environment", "ports", "depends_on",
    "healthcheck", "volumes", "restart", "entrypoint",
}  # fmt: skip


def test_top_level_is_compose():
    assert set(COMPOSE) <= {"services", "volumes", "networks", "name"}
    assert {"redis", *GAMES, "prometheus"} <= set(COMPOSE["services"])
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
