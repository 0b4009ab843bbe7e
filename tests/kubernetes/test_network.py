"""The NetworkPolicies: limited egress, the games' ports open, webhooks to the internet
but never the private ranges, Redis reached by the app only."""

from __future__ import annotations

from .manifests import APP, GAMES, Resource, _of_kind, _selects, _workloads


def _policies_for(resources: list[Resource], labels: dict[str, str], kind: str) -> list:
    return [
        p
        for p in _of_kind(resources, "NetworkPolicy")
        if kind in p["spec"]["policyTypes"] and _selects(p["spec"]["podSelector"], labels)
    ]


def test_network_policies(overlay):
    name, resources = overlay
    labels = {
        w["metadata"]["name"]: w["spec"]["template"]["metadata"]["labels"]
        for w in _workloads(resources)
    }
    # every pod's egress is limited (a policy selects it), and each game's port is open
    for pod in labels.values():
        assert _policies_for(resources, pod, "Egress"), pod
    for game, port in GAMES.items():
        rules = [r for p in _policies_for(resources, labels[game], "Ingress")
                 for r in p["spec"]["ingress"]]  # fmt: skip
        assert any(
            "from" not in r and {"port": port, "protocol": "TCP"} in r["ports"] for r in rules
        ), game
    # webhooks: the worker may reach the internet, never the private ranges
    blocks = [
        peer["ipBlock"]
        for p in _policies_for(resources, labels["worker"], "Egress")
        for rule in p["spec"]["egress"]
        for peer in rule.get("to", [])
        if "ipBlock" in peer and peer["ipBlock"]["cidr"] == "0.0.0.0/0"
    ]
    assert len(blocks) == 1
    assert {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16"} <= set(
        blocks[0]["except"]
    )
    for game in GAMES:  # the game services call no one but Redis (and DNS)
        for policy in _policies_for(resources, labels[game], "Egress"):
            for rule in policy["spec"]["egress"]:
                for peer in rule.get("to", []):
                    assert peer.get("ipBlock", {}).get("cidr") != "0.0.0.0/0", game
    if name == "dev":  # Redis: from the app's pods only, on its port; no egress
        ingress = _policies_for(resources, labels["redis"], "Ingress")
        assert len(ingress) == 1
        (rule,) = ingress[0]["spec"]["ingress"]
        (peer,) = rule["from"]
        allowed = {n for n, pod in labels.items() if _selects(peer["podSelector"], pod)}
        assert allowed == APP and rule["ports"] == [{"port": 6379, "protocol": "TCP"}]
        egress = _policies_for(resources, labels["redis"], "Egress")
        assert [p["spec"].get("egress", []) for p in egress] == [[]]
