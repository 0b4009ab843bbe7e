"""Make a preset dictionary for the history archive's chunks (shared/games/history.py).

Run once per new dictionary: ``python -m scripts.history_dictionary N`` writes
``shared/games/history-N.dict``. A dictionary is frozen once written: every archived
chunk compressed with it names it (``N:`` before the chunk), so ``history.py`` must keep
reading it for as long as such games may be stored. A new one gets a new number.

It is the archived record text of random 4-player games of each game the kit serves
(the real app, in process, bots with Idempotency-Keys, as ``bench.memory`` plays them),
the last 16 KiB of each: zlib finds there the record shapes, move types, squares and
event names a chunk repeats, so a 32-record chunk compresses about 30% smaller.
"""

from __future__ import annotations

import base64
import sys
import zlib
from pathlib import Path

from bench.common import redis_server
from bench.inproc import Bot, make_app

GAMES = ("manhattan", "windcity")
PART = 16 * 1024
ROOT = Path(__file__).resolve().parent.parent


def record_text(game: str, seeds: range) -> bytes:
    """The archived record lines of whole games, as the archive holds them."""
    with redis_server(appendonly=False) as server:
        app, _ = make_app(game, server.url)
        bots = [Bot(app, 4, seed) for seed in seeds]
        while any([bot.step() for bot in bots]):
            pass
        client = server.client()
        hists = [client.get(key) for key in sorted(client.keys("*:hist"))]
    chunks = [c for hist in hists for c in hist.split("\n") if c]
    return b"\n".join(zlib.decompress(base64.b85decode(c)) for c in chunks if ":" not in c)


def main(argv: list[str]) -> None:
    number = int(argv[0])
    target = ROOT / "shared" / "games" / f"history-{number}.dict"
    if target.exists():
        sys.exit(f"{target} exists: a dictionary is never changed, make a new number")
    target.write_bytes(b"".join(record_text(g, range(7000, 7012))[-PART:] for g in GAMES))
    print(f"wrote {target} ({target.stat().st_size} bytes)")


if __name__ == "__main__":
    main(sys.argv[1:])
