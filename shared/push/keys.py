"""The VAPID key pair (RFC 8292): the service's identity toward push services.

The private key is the setting ``PUSH_VAPID_PRIVATE_KEY``: the raw 32-byte P-256 scalar
in unpadded base64url, as ``python -m shared.push.keys`` (or ``boardgames-vapid``)
prints it. The public key is derived from it (one fact, one setting) and served to
clients by ``GET /push/key``, which a browser passes to ``PushManager.subscribe`` as
``applicationServerKey``. Without a private key push is off: :func:`require` raises
``push-disabled``.
"""

from __future__ import annotations

import argparse
import base64
import sys
from typing import Any

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid

from shared.games.errors import NotFound


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def generate() -> tuple[str, str]:
    """A new key pair: the private key (the setting's value) and the public key."""
    vapid = Vapid()
    vapid.generate_keys()
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(private), public_of(vapid)


def public_of(vapid: Vapid) -> str:
    """The uncompressed P-256 point, unpadded base64url (``applicationServerKey``)."""
    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def signer(settings: dict[str, Any]) -> Vapid | None:
    """The VAPID signer of ``PUSH_VAPID_PRIVATE_KEY`` (``None``: push is off)."""
    private = settings.get("PUSH_VAPID_PRIVATE_KEY", "")
    return Vapid.from_string(private) if private else None


def require(settings: dict[str, Any]) -> Vapid:
    """The signer; ``push-disabled`` (404) when the operator has set no key."""
    vapid = signer(settings)
    if vapid is None:
        raise NotFound(
            "push-disabled",
            "This service sends no push notifications: its operator has not set "
            "PUSH_VAPID_PRIVATE_KEY.",
        )
    return vapid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="boardgames-vapid",
        description="Print a new VAPID key pair for Web Push (keep the private key secret).",
    )
    parser.parse_args(argv)
    private, public = generate()
    print(f"PUSH_VAPID_PRIVATE_KEY={private}")
    print(f"# public key (served by GET /push/key): {public}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
