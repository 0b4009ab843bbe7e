"""The settings in the manifests: every setting the code reads is documented, every
variable a manifest sets is a real one."""

from __future__ import annotations

import re

from shared.ops.config import SETTINGS

from .manifests import ROOT, _containers, _of_kind, _settings_env


def _readme_settings() -> set[str]:
    text = (ROOT / "README.md").read_text()
    table = text.split("## Settings (environment variables)")[1].split("\n#")[0]
    names: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            names |= set(re.findall(r"`([A-Z][A-Z0-9_]*)`", line.split("|")[1]))
    return names


def _read_outside_settings() -> set[str]:
    """Variables read by gunicorn.conf.py and the Dockerfile's command, not settings."""
    gunicorn = (ROOT / "gunicorn.conf.py").read_text()
    names = set(re.findall(r"os\.environ(?:\.get\(|\[)\"([A-Z][A-Z0-9_]*)\"", gunicorn))
    dockerfile = (ROOT / "Dockerfile").read_text()
    names |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)\}", dockerfile))
    return names


def test_every_setting_the_code_reads_is_documented():
    documented = _readme_settings()
    assert set(SETTINGS) <= documented, set(SETTINGS) - documented
    assert _read_outside_settings() - {"PROMETHEUS_MULTIPROC_DIR"} <= documented


def test_every_variable_the_manifests_set_is_a_real_setting(overlay):
    name, resources = overlay
    real = (set(SETTINGS) | _read_outside_settings()) & _readme_settings()
    assert {"GAME", "PORT", "WEB_CONCURRENCY", "METRICS_DIR"} <= real
    for deployment in _of_kind(resources, "Deployment"):
        for container in _containers(deployment):
            unknown = set(_settings_env(resources, container)) - real
            assert not unknown, (name, deployment["metadata"]["name"], unknown)
            # set by gunicorn.conf.py for each service: never from outside
            assert "PROMETHEUS_MULTIPROC_DIR" not in _settings_env(resources, container)
    for config in _of_kind(resources, "ConfigMap"):
        for key, value in config["data"].items():
            kind = SETTINGS.get(key, (str, None))[0]
            if kind is bool:
                assert value in {"0", "1"}, (key, value)
            elif kind in (int, float):
                kind(value)  # a number the settings loader takes
