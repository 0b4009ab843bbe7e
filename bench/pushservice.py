"""A stand-in push service on 127.0.0.1 that speaks RFC 8030 as a browser's would.

Each :meth:`PushService.subscribe` makes what a browser's ``PushManager.subscribe``
gives: an endpoint here, and the keys of a fresh P-256 key pair and auth secret that
only this service (the "device") holds. Every POST must carry a VAPID JWT (RFC 8292)
signed with the service's public key (``k``), for this origin (``aud``), unexpired
(``exp`` at most 24 h ahead) and with a ``mailto:``/``https:`` ``sub``; its body is
decrypted (RFC 8291, aes128gcm, with ``http_ece``) so the tests read what a phone would
show. A request failing any check is answered 400/401/403 and recorded as refused.

Each record also holds ``wall`` (``time.time()`` when the request was read, before any
check) and ``decrypt_s`` (the decryption's own time), for ``bench/push.py``.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from bench.common import free_port


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """See the module's docstring. ``status[path]`` answers a device's pushes (201 by
    default); ``delay[path]`` holds them that many seconds first."""

    def __init__(self, vapid_public: str) -> None:
        self.port = free_port()
        self.vapid_public = vapid_public
        self.devices: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self.received: list[dict[str, Any]] = []
        self.refused: list[str] = []
        self.status: dict[str, int] = {}
        self.delay: dict[str, float] = {}
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def subscribe(self, device: str) -> dict[str, Any]:
        """A new device's ``PushSubscription.toJSON()``."""
        private = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        self.devices[f"/push/{device}"] = (private, auth)
        point = private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.origin}/push/{device}",
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(auth)},
        }

    def shown(self, device: str) -> list[dict[str, Any]]:
        """The decrypted payloads a device got, in order."""
        with self._lock:
            return [r["payload"] for r in self.received if r["path"] == f"/push/{device}"]

    def pushes(self, device: str) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self.received if r["path"] == f"/push/{device}"]

    def check_vapid(self, header: str) -> str | None:
        """Why the ``Authorization`` header is refused (``None``: it is valid)."""
        scheme, _, params = header.partition(" ")
        if scheme.lower() != "vapid":
            return "not vapid"
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        if parts.get("k") != self.vapid_public:
            return "another key"
        head, claims, signature = parts["t"].split(".")
        if json.loads(unb64(head)) != {"typ": "JWT", "alg": "ES256"}:
            return "header"
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"]))
        try:
            key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "signature"
        body = json.loads(unb64(claims))
        if body.get("aud") != self.origin:
            return "aud"
        if not time.time() < body.get("exp", 0) <= time.time() + 86400:
            return "exp"
        if not str(body.get("sub", "")).startswith(("mailto:", "https:")):
            return "sub"
        return None

    def start(self) -> None:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                why = outer.check(self.path, dict(self.headers.items()), data)
                if why is not None:
                    outer.refused.append(why)
                    self.send_response(401 if why in ("signature", "aud", "exp") else 400)
                    self.end_headers()
                    return
                time.sleep(outer.delay.get(self.path, 0.0))
                self.send_response(outer.status.get(self.path, 201))
                self.send_header("Location", f"{outer.origin}/message/{time.monotonic_ns()}")
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def check(self, path: str, headers: dict[str, str], data: bytes) -> str | None:
        """Check and record one push (``None``), or why it is refused."""
        wall = time.time()
        headers = {k.lower(): v for k, v in headers.items()}
        if path not in self.devices:
            return "no such subscription"
        why = self.check_vapid(headers.get("authorization", ""))
        if why is not None:
            return why
        if headers.get("content-encoding") != "aes128gcm" or "ttl" not in headers:
            return "headers"
        private, auth = self.devices[path]
        began = time.perf_counter()
        plain = http_ece.decrypt(data, private_key=private, auth_secret=auth, version="aes128gcm")
        decrypt_s = time.perf_counter() - began
        with self._lock:
            self.received.append(
                {
                    "path": path,
                    "headers": headers,
                    "payload": json.loads(plain),
                    "at": time.monotonic(),
                    "wall": wall,
                    "decrypt_s": decrypt_s,
                }
            )
        return None

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
