"""``boardgames webhook listen``: a small local receiver that verifies and prints each
webhook delivery (Standard Webhooks signatures, checked with the standardwebhooks
package). For people wiring a platform to the services: run it, register
``http://<this host>:<port>/`` and watch what arrives (the service must allow private
addresses, ``WEBHOOK_ALLOW_PRIVATE=1``, to call a local address)."""

from __future__ import annotations

import argparse
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TextIO

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from .i18n import _

MAX_BODY = 1024 * 1024


def add_parser(games: Any) -> None:
    hook = games.add_parser("webhook", help=_("webhook tools"))
    what = hook.add_subparsers(dest="command", required=True)
    p = what.add_parser("listen", help=_("receive, verify and print webhook deliveries"))
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--host", default="127.0.0.1", help=_("address to listen on"))
    p.add_argument("--secret", required=True, help=_("the whsec_... secret shown at registration"))
    p.add_argument("--json", action="store_true", help=_("one JSON line per delivery"))


def make_server(
    host: str, port: int, secret: str, out: TextIO = sys.stdout, as_json: bool = False
) -> ThreadingHTTPServer:
    """A receiver answering 204 to a verified delivery, 400 to any other request."""
    verifier = Webhook(secret)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self.send_response(413)
                self.end_headers()
                return
            body = self.rfile.read(length)
            headers = dict(self.headers.items())
            try:
                payload = verifier.verify(body, headers)
            except (WebhookVerificationError, ValueError) as error:
                msg = headers.get("webhook-id", "?")
                print(_("REJECTED {id}: {error}", id=msg, error=error), file=out, flush=True)
                self.send_response(400)
                self.end_headers()
                return
            msg_id = self.headers.get("webhook-id")
            if as_json:
                print(json.dumps({"id": msg_id, **payload}), file=out, flush=True)
            else:
                data = payload.get("data", {})
                print(
                    f"{payload.get('type')} {msg_id} game={data.get('game_id')} "
                    f"v{data.get('version')} to_act={data.get('to_act')}",
                    file=out,
                    flush=True,
                )
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_: Any) -> None:
            pass

    return ThreadingHTTPServer((host, port), Handler)


def run(args: argparse.Namespace) -> int:
    server = make_server(args.host, args.port, args.secret, as_json=args.json)
    url = f"http://{args.host}:{args.port}/"
    print(_("listening on {url} (Ctrl-C to stop)", url=url), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
