"""5,000 long-polls from one address do not hold up other clients' moves (real gunicorn
with gevent workers, real Redis, the default wait caps).

Before the caps, about 4,100 such waits filled both workers' connection slots
(``worker_connections``) for their whole wait and no move got through. Now each worker
holds at most ``EVENTS_MAX_WAITERS_PER_ADDRESS`` (100) of them and refuses the rest at
once (``429`` with ``Retry-After``). The test plays moves on a fixed schedule from
another address, first alone, then under the flood, and compares the latency of a move
(``GET legal-moves`` + ``POST moves``, timed from its scheduled start, so a stall counts
in full); it also checks that a third address's long-poll is still served.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.conftest import ROOT, wait_until
from tests.reliability.conftest import Service

CLIENTS = int(os.environ.get("WAIT_FLOOD_CLIENTS", "5000"))
FLOOD_FROM, OTHER = "127.0.0.2", "127.0.0.3"
RATE = 40  # moves per second, on a fixed schedule
FLOOD_WAIT = 25  # seconds each of the flood's long-polls asks to wait
PER_ADDRESS = 100  # EVENTS_MAX_WAITERS_PER_ADDRESS's default, per worker
_CAPS = {k: v for k, v in os.environ.items() if k.startswith("EVENTS_MAX_WAITERS")}  # a control run


class Mover:
    """Plays moves in 2-seat Manhattan games, one move at a time; new games as they end."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = requests.Session()
        # each request on a new connection, as many separate clients would come: a
        # worker whose connection slots are all taken accepts none of them
        self.http.headers["Connection"] = "close"
        self.rng = random.Random(7)
        self.games = [self._new_game() for _ in range(4)]

    def _new_game(self) -> dict[str, Any]:
        http = self.http
        created = http.post(f"{self.base}/games", json={"players": 2}, timeout=10).json()
        game_id = created["id"]
        tokens = [
            http.post(f"{self.base}/games/{game_id}/players", json={"name": n}, timeout=10).json()[
                "token"
            ]
            for n in ("ann", "bob")
        ]
        headers = {"Authorization": f"Bearer {created['host_token']}"}
        started = http.post(f"{self.base}/games/{game_id}/start", headers=headers, timeout=10)
        return {"id": game_id, "tokens": tokens, "to_act": started.json()["to_act"]}

    def move(self, n: int) -> int:
        """One move in game ``n % 4``; the status of its POST."""
        game = self.games[n % len(self.games)]
        headers = {"Authorization": f"Bearer {game['tokens'][game['to_act'][0]]}"}
        url = f"{self.base}/games/{game['id']}"
        legal = self.http.get(f"{url}/legal-moves", headers=headers, timeout=10).json()["moves"]
        if not legal:  # an earlier answer was lost: whose turn is it now?
            game["to_act"] = self.http.get(url, timeout=10).json()["to_act"]
            return 0
        r = self.http.post(f"{url}/moves", json=self.rng.choice(legal), headers=headers, timeout=10)
        if r.status_code == 200:
            view = r.json()["game"]
            game["to_act"] = view["to_act"]
            if view["status"] != "running":
                self.games[n % len(self.games)] = self._new_game()
        return r.status_code

    def play(self, seconds: float) -> dict[str, Any]:
        """Moves at ``RATE``/s for ``seconds``: statuses and latency percentiles (ms)."""
        statuses: list[int | str] = []
        latencies: list[float] = []
        start = time.perf_counter()
        for n in range(int(seconds * RATE)):
            scheduled = start + n / RATE
            time.sleep(max(0.0, scheduled - time.perf_counter()))
            try:
                statuses.append(self.move(n))
            except requests.RequestException as error:
                statuses.append(repr(error))
            latencies.append((time.perf_counter() - scheduled) * 1000)
        latencies.sort()

        def pct(p: float) -> float:
            return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))], 1)

        return {"moves": len(statuses), "statuses": statuses, "p50": pct(0.5), "p99": pct(0.99)}


@pytest.fixture
def service(redis_url: str) -> Iterator[Service]:
    svc = Service("manhattan", redis_url, workers=2, **_CAPS)
    try:
        yield svc
    finally:
        svc.stop()


def _stats(line: str) -> dict[str, int]:
    return json.loads(line) if line.strip().startswith("{") else {}


def test_a_flood_of_waits_from_one_address_does_not_slow_other_moves(service: Service) -> None:
    mover = Mover(service.base)
    quiet = mover.play(5)

    idle = mover._new_game()  # nobody moves here: every long-poll on it waits
    after = requests.get(f"{service.base}/games/{idle['id']}", timeout=5).json()["version"]
    url = f"{service.base}/games/{idle['id']}/events?after={after}&wait={FLOOD_WAIT}"
    flood = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.reliability.waiter_flood",
            url,
            FLOOD_FROM,
            str(CLIENTS),
            "30",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        last: dict[str, int] = {}

        def refused_all_but_the_admitted() -> bool:
            last.update(_stats(flood.stdout.readline()))
            # settled: every client beyond the admitted ones (two workers' caps) refused
            settled = CLIENTS - 2 * PER_ADDRESS - 20
            return last.get("started") == CLIENTS and last.get("429", 0) >= settled

        ramp = time.perf_counter()
        wait_until(refused_all_but_the_admitted, 40, f"the flood's first round ({last})")
        ramp = time.perf_counter() - ramp
        held = last["pending"]
        flooded = mover.play(8)
        # a long-poll from another address is still admitted, and waits its second
        other = requests.Session()
        other.mount("http://", _SourceAdapter(OTHER))
        t = time.perf_counter()
        r = other.get(url.replace(f"wait={FLOOD_WAIT}", "wait=1"), timeout=10)
        other_waited = time.perf_counter() - t
    finally:
        flood.terminate()
        out, _ = flood.communicate(timeout=15)
    final = [_stats(line) for line in out.splitlines() if line.strip()]
    final_stats = final[-1] if final else last

    print(
        f"\nmove latency at {RATE}/s, 2 gevent workers: alone p50 {quiet['p50']} ms / "
        f"p99 {quiet['p99']} ms ({quiet['moves']} moves); with {CLIENTS} long-polls from one "
        f"address: p50 {flooded['p50']} ms / p99 {flooded['p99']} ms ({flooded['moves']} moves)"
        f"; waits held {held}; first round refused in {ramp:.1f} s; flood answers {final_stats}"
    )
    statuses = quiet["statuses"] + flooded["statuses"]
    assert all(s == 200 for s in statuses), [s for s in statuses if s != 200]
    # Against the failure, not against a machine's speed: without the caps a move gets a
    # connection slot only when a held wait ends, so it stalls for the flood's whole wait
    # (p50 ~48 s). With them, moves are slowed only by the CPU the flood's refused
    # requests take; on a loaded 2-core CI machine that was p99 10.5 s, so the bound sits
    # below one wait, not at a multiple of the quiet run.
    assert flooded["p99"] < 0.8 * FLOOD_WAIT * 1000, (quiet["p99"], flooded)
    assert held <= 2 * PER_ADDRESS + 20, last  # the rest were refused, not parked
    assert final_stats.get("429", 0) >= CLIENTS - 2 * PER_ADDRESS
    assert not {k for k in final_stats if k.startswith("5")}, final_stats  # no 5xx at all
    assert r.status_code == 200 and r.json()["events"] == []
    assert 0.9 < other_waited < 0.8 * FLOOD_WAIT  # waited its second; no held slot


class _SourceAdapter(requests.adapters.HTTPAdapter):
    """Connections from a chosen local address (another client, as the server sees it)."""

    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)
