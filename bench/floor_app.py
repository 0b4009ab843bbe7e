"""The floor: the smallest Flask endpoint that touches Redis like a game request does.

``GET /floor`` does one Redis GET and one SET (two round trips) and answers a tiny
JSON body; ``GET /readyz`` answers 200. Served by the same ``gunicorn.conf.py`` as the
games (``gunicorn -c gunicorn.conf.py 'bench.floor_app:create_app()'``), so the ratio
game moves/s : floor requests/s measures what the game logic, validation, tokens and the
write script cost on top of "Flask + gunicorn + Redis".
"""

from __future__ import annotations

import os

import redis
from flask import Flask, jsonify


def create_app() -> Flask:
    app = Flask("floor")
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    cluster = os.environ.get("REDIS_CLUSTER", "").lower() in {"1", "true", "yes", "on"}
    factory = redis.RedisCluster.from_url if cluster else redis.Redis.from_url
    client = factory(url, decode_responses=True, max_connections=4000)

    @app.get("/floor")
    def floor():
        value = client.get("bench:floor")
        client.set("bench:floor", "x" if value is None else value)
        return jsonify(ok=True)

    @app.get("/readyz")
    def ready():
        return jsonify(ok=bool(client.ping()))

    return app
