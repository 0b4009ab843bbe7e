"""An in-process driver for the bench scripts that count Redis work (round trips,
memory): the real app (``create_app``) through Flask's test client against a private
Redis, bots choosing random legal moves, exactly as over HTTP but without sockets."""

from __future__ import annotations

import random
import uuid
from typing import Any

from flask import Flask

from services.manhattan.app import create_app as manhattan_app
from services.windcity.app import create_app as windcity_app

FACTORIES = {"manhattan": (manhattan_app, "mh"), "windcity": (windcity_app, "wc")}


class Bot:
    """One game and its seats' tokens, moved by random legal moves."""

    def __init__(self, app: Flask, players: int, seed: int, idem: bool = True) -> None:
        self.c = app.test_client()
        self.rng = random.Random(seed)
        self.idem = idem
        created = self.c.post("/games", json={"players": players, "seed": seed}).get_json()
        self.id, self.host = created["id"], created["host_token"]
        self.tokens = [
            self.c.post(f"/games/{self.id}/players", json={"name": f"bot{i}"}).get_json()["token"]
            for i in range(players)
        ]
        view = self.c.post(f"/games/{self.id}/start", headers=self.auth(self.host)).get_json()
        self.to_act, self.status, self.moves = view["to_act"], view["status"], 0

    @staticmethod
    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def legal(self) -> list[dict[str, Any]]:
        headers = self.auth(self.tokens[self.to_act[0]])
        path = f"/games/{self.id}?include=legal_moves"
        return self.c.get(path, headers=headers).get_json()["legal_moves"]

    def post(self, move: dict[str, Any]) -> None:
        headers = self.auth(self.tokens[self.to_act[0]])
        if self.idem:
            headers["Idempotency-Key"] = uuid.uuid4().hex
        reply = self.c.post(f"/games/{self.id}/moves", json=move, headers=headers)
        assert reply.status_code == 200, reply.get_data(as_text=True)
        game = reply.get_json()["game"]
        self.to_act, self.status = game["to_act"], game["status"]
        self.moves += 1

    def step(self) -> bool:
        """One move; False once the game is over."""
        if self.status != "running":
            return False
        self.post(self.rng.choice(self.legal()))
        return self.status == "running"


def make_app(game: str, redis_url: str, cluster: bool = False) -> tuple[Flask, str]:
    factory, prefix = FACTORIES[game]
    config = {"REDIS_URL": redis_url, "LOG_LEVEL": "WARNING", "REDIS_CLUSTER": cluster}
    return factory(config), prefix
