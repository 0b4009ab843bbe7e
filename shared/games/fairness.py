"""Commit, then reveal: the seed a service picks is fixed, and provably so, before play.

At creation the service publishes ``sha256("<seed>:<salt>")`` (the seed in decimal, the
salt 32 lowercase hex digits: 128 random bits, so the 63-bit seed cannot be found by
trying them all); once the game is over the log reveals the seed and the salt, and anyone
can recompute the hash and replay the moves. The encoding is documented in docs/api.md
and re-implemented by the CLI's ``verify`` on purpose: a verifier shares no code with
the service it checks.
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BITS = 63


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 hex of ``f"{seed}:{salt}"`` (ASCII)."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


def new_seed() -> tuple[int, str, str]:
    """A random seed, its salt and their commitment."""
    seed = secrets.randbits(SEED_BITS)
    salt = secrets.token_hex(16)
    return seed, salt, commitment(seed, salt)
