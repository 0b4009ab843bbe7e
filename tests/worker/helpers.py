"""Helpers of the worker tests: games set up over HTTP, and checks read from Redis."""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

from clients.cli.client import GameClient, client_for
from shared.games import history
from shared.store import load_doc
from tests.conftest import wait_until

PREFIX = {"manhattan": "mh", "windcity": "wc"}


def new_game(
    game: str, url: str, humans: list[str], bots: list[str], **options: Any
) -> tuple[str, GameClient, list[GameClient]]:
    """An open game of ``humans`` (joined in order) then ``bots`` (seated by the host):
    its id, the host's client and one client per human."""
    host = client_for(game, url)
    gid = host.create(len(humans) + len(bots), **options)["id"]
    players = []
    for name in humans:
        player = client_for(game, url)
        player.join(gid, name)
        players.append(player)
    for bot in bots:
        host.add_bot(gid, bot)
    return gid, host, players


def stored(redis_client: Any, game: str, gid: str) -> tuple[dict, list[dict]]:
    """The stored document and moves (read directly: the seed is secret over HTTP)."""
    base = f"{PREFIX[game]}:{{{gid}}}"
    doc = load_doc(redis_client.get(f"{base}:game"))
    records = history.stored(redis_client.get(f"{base}:tail"), redis_client.get(f"{base}:hist"))
    return doc, history.all_moves(records)


def assert_replays(redis_client: Any, game: str, gid: str) -> tuple[dict, list[dict]]:
    """Every stored move applied exactly once: one move per version, versions increasing,
    and replaying them from the seed gives exactly the stored state."""
    doc, moves = stored(redis_client, game, gid)
    versions = [m["version"] for m in moves]
    assert versions == sorted(set(versions)), versions
    engine = importlib.import_module(f"services.{game}.rules").ENGINE
    state = engine.setup(len(doc["players"]), dict(doc["options"]), doc["seed"])
    for entry in moves:
        state, _ = engine.apply_move(state, entry["seat"], entry["move"])
    assert state == doc["state"]
    return doc, moves


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> float:
    """Wait until ``check()``; the seconds it took."""
    began = time.monotonic()
    wait_until(check, timeout, what)
    return time.monotonic() - began


def event_types(client: GameClient, gid: str) -> list[dict]:
    return client.events(gid, limit=1000)["events"]
