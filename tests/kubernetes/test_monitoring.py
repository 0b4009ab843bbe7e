"""The ServiceMonitor component, and docs/operations.md saying how to deploy each
overlay."""

from __future__ import annotations

from .kubectl import render
from .manifests import APP, GAMES, OVERLAYS, ROOT, SERVICEMONITOR, _of_kind, _selects


def test_the_servicemonitor_component_scrapes_every_service():
    base = render(OVERLAYS["production"])
    resources = render(OVERLAYS["production"], extra_components=(SERVICEMONITOR,))
    monitors = _of_kind(resources, "ServiceMonitor")
    assert len(resources) == len(base) + len(monitors) and len(monitors) == 2
    # the base never lists it: without the Prometheus Operator's CRD it would not apply
    assert not any(_of_kind(render(overlay), "ServiceMonitor") for overlay in OVERLAYS.values())
    scraped = set()
    for monitor in monitors:
        assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
        assert monitor["metadata"]["namespace"] == "boardgames"
        for service in _of_kind(resources, "Service"):
            if _selects(monitor["spec"]["selector"], service["metadata"]["labels"]):
                scraped.add(service["metadata"]["name"])
                ports = {p["name"] for p in service["spec"]["ports"]}
                for endpoint in monitor["spec"]["endpoints"]:
                    assert endpoint["port"] in ports and endpoint["path"] == "/metrics"
                    if service["metadata"]["name"] in GAMES:  # behind METRICS_TOKEN
                        credentials = endpoint["authorization"]["credentials"]
                        assert credentials == {"name": "boardgames", "key": "METRICS_TOKEN"}
    assert scraped == APP


def test_operations_says_how_to_deploy_each_overlay():
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("## Kubernetes")[1].split("\n## ")[0]
    for overlay in OVERLAYS:
        assert f"kubectl apply -k deploy/kubernetes/overlays/{overlay}" in section
    for secret in ("boardgames-api-keys", "WEBHOOK_SIGNING_KEY", "METRICS_TOKEN"):
        assert secret in section
    assert "docs/operations.md#kubernetes" in (ROOT / "README.md").read_text()
