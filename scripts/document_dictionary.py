"""Make a preset zstd dictionary for stored game documents (shared/store/document_codec.py).

Run once per new dictionary: ``python -m scripts.document_dictionary N`` writes
``shared/document-N.dict``. A dictionary is frozen once written: every document
compressed with it names it (``N:`` before the compressed text), so ``doccodec.py`` must
keep reading it for as long as such games may be stored. A new one gets a new number.

It is trained (zstd's ``train_dictionary``) on the stored documents of random games of
each game the kit serves, 2 to 5 players, taken after every write from creation to the
end: the real app, in process, bots with Idempotency-Keys, as ``bench.memory`` plays
them. zstd finds there the field names, the engine states' shapes, squares and phases a
document repeats, so a 2.4 KB document compresses to about 0.5 KB (0.7 KB in base64).
"""

from __future__ import annotations

import sys
from pathlib import Path

import zstandard

from bench.common import redis_server
from bench.inproc import Bot, make_app
from shared.store import document_codec as doccodec
from shared.store import jsoncodec

GAMES = {"manhattan": (2, 3, 4), "windcity": (2, 3, 4, 5)}
SIZE = 8 * 1024
ROOT = Path(__file__).resolve().parent.parent


def documents(game: str, seeds: range, player_counts: tuple[int, ...]) -> list[bytes]:
    """Each game's document (as doccodec compresses it) after each of its writes."""
    out: list[bytes] = []
    with redis_server(appendonly=False) as server:
        app, prefix = make_app(game, server.url)
        client = server.client()
        for seed in seeds:
            bot = Bot(app, player_counts[seed % len(player_counts)], seed)
            key = f"{prefix}:{{{bot.id}}}:game"
            while True:
                out.append(jsoncodec.dumps(doccodec.unpack(client.get(key))))
                if not bot.step():
                    break
    return out


def main(argv: list[str]) -> None:
    number = int(argv[0])
    target = ROOT / "shared" / f"document-{number}.dict"
    if target.exists():
        sys.exit(f"{target} exists: a dictionary is never changed, make a new number")
    doccodec.CURRENT = 0  # the games' own documents, written before the dictionary exists
    samples = [d for g, counts in GAMES.items() for d in documents(g, range(9000, 9024), counts)]
    target.write_bytes(zstandard.train_dictionary(SIZE, samples).as_bytes())
    print(f"wrote {target} ({target.stat().st_size} bytes) from {len(samples)} documents")


if __name__ == "__main__":
    main(sys.argv[1:])
