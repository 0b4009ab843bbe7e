"""``boardgames webhook listen``: verifies and prints good deliveries, rejects others."""

from __future__ import annotations

import io
import json
import threading

import requests

from clients.cli.__main__ import build_parser
from clients.cli.webhook import make_server
from shared.webhooks import signing
from tests.conftest import free_port


def test_listen_verifies_and_prints() -> None:
    secret = signing.secret_for("k", "wh_1")
    out = io.StringIO()
    port = free_port()
    server = make_server("127.0.0.1", port, secret, out, as_json=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        body = json.dumps({"type": "webhook.test", "timestamp": "t", "data": {"game_id": "g"}})
        url = f"http://127.0.0.1:{port}/"
        good = requests.post(url, data=body, headers=signing.headers(secret, "msg_1", body))
        assert good.status_code == 204
        forged = signing.headers(signing.secret_for("k", "wh_2"), "msg_2", body)
        assert requests.post(url, data=body, headers=forged).status_code == 400
        assert requests.post(url, data=body).status_code == 400
    finally:
        server.shutdown()
        server.server_close()
    lines = out.getvalue().splitlines()
    assert json.loads(lines[0]) == {"id": "msg_1", **json.loads(body)}
    assert lines[1].startswith("REJECTED msg_2")
    args = build_parser().parse_args(["webhook", "listen", "--port", "9", "--secret", secret])
    assert (args.game, args.command, args.port) == ("webhook", "listen", 9)
