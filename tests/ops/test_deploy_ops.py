"""The monitoring files: Prometheus scrapes what compose runs, with the token compose sets,
and every dashboard panel and alert names a metric the code defines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from prometheus_client.registry import REGISTRY

import shared.ops.metrics  # noqa: F401  (registers the metrics)

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
PROMETHEUS = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
ALERTS = yaml.safe_load((ROOT / "deploy" / "alerts.yml").read_text())
DASHBOARD = json.loads((ROOT / "deploy" / "grafana" / "dashboards" / "boardgames.json").read_text())
GAUGE_ON_SCRAPE = {"boardgames_games"}  # collected from Redis per scrape (metrics_http.py)


def known_names() -> set[str]:
    names = set(GAUGE_ON_SCRAPE)
    for family in REGISTRY.collect():
        names.add(family.name + "_total" if family.type == "counter" else family.name)
    return {n for n in names if n.startswith("boardgames_")}


def metric_names(expr: str) -> set[str]:
    return {re.sub(r"_(bucket|count|sum)$", "", n) for n in re.findall(r"boardgames_\w+", expr)}


def test_prometheus_scrapes_both_services_with_the_token_and_the_worker() -> None:
    jobs = {job["job_name"]: job for job in PROMETHEUS["scrape_configs"]}
    for game, port in (("manhattan", 8001), ("windcity", 8002)):
        job = jobs[game]
        assert job["static_configs"][0]["targets"] == [f"{game}:{port}"]
        assert job["authorization"]["type"] == "Bearer"
        env = COMPOSE["services"][game]["environment"]
        assert env["LOG_FORMAT"] == "json"
        assert (
            env["METRICS_TOKEN"]
            == COMPOSE["services"]["prometheus"]["environment"]["METRICS_TOKEN"]
        )
        token_file = job["authorization"]["credentials_file"]
        assert token_file in " ".join(COMPOSE["services"]["prometheus"]["command"])
    assert jobs["worker"]["static_configs"][0]["targets"] == ["worker:9100"]
    mounts = " ".join(COMPOSE["services"]["prometheus"]["volumes"])
    assert "./deploy/prometheus.yml:/etc/prometheus/prometheus.yml" in mounts
    assert "./deploy/alerts.yml:" + PROMETHEUS["rule_files"][0] in mounts


def test_dashboard_and_alerts_name_only_real_metrics() -> None:
    known = known_names()
    exprs = [t["expr"] for p in DASHBOARD["panels"] for t in p["targets"]]
    exprs += [rule["expr"] for group in ALERTS["groups"] for rule in group["rules"]]
    used = set()
    for expr in exprs:
        names = metric_names(expr)
        assert names <= known, f"unknown metric in {expr!r}: {names - known}"
        used |= names
    # every service metric is on the dashboard
    assert known - used == set(), known - used


def test_operations_guide_names_every_metric() -> None:
    guide = (ROOT / "docs" / "operations.md").read_text()
    for name in known_names():
        assert name in guide, name
