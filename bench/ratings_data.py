"""bench.ratings, the data set: rating fields written in pipelines for bulk players (as
``rating.lua`` writes them), the leaderboard filled from them, and the check that bulk
players look like players rated through the real path."""

from __future__ import annotations

import random
from typing import Any

from shared.games.ratings import ordinal
from shared.store.players import registry_key

BATCH = 1000  # players per pipeline
TENANT = ""  # no API keys: one board
RATING_FIELDS = ("n", "won", "mu", "sigma")  # in the order rating.lua first writes them


def g17(x: float) -> str:
    """A float as rating.lua writes it (``string.format('%.17g', x)``)."""
    return f"{x:.17g}"


def add_ratings(client: Any, game: str, ids: list[str], rng: random.Random) -> dict[str, float]:
    """Rating fields for ``ids`` (games played 5-300, sigma shrinking with them, mu
    spread around the default, wins about a quarter of the games, some ties); each
    player's board value: ``ordinal`` of the texts written, as ``settle_ratings`` ranks."""
    pipe = client.pipeline(transaction=False)
    scores: dict[str, float] = {}
    for n, player_id in enumerate(ids):
        played = min(300, 5 + int(rng.expovariate(1 / 40)))
        sigma = g17(max(0.9, 25 / 3 * 0.985**played) * rng.uniform(0.95, 1.05))
        mu = g17(rng.gauss(25.0, 4.0))
        won = sum(1 for _ in range(played) if rng.random() < 0.25) + 0.5 * (n % 7 == 0)
        fields = {f"{game}:n": str(played), f"{game}:won": g17(won)}
        pipe.hset(
            registry_key(player_id), mapping={**fields, f"{game}:mu": mu, f"{game}:sigma": sigma}
        )
        scores[player_id] = ordinal(float(mu), float(sigma))
        if len(pipe) >= BATCH:
            pipe.execute()
    pipe.execute()
    return scores


def fill_board(client: Any, board: str, scores: dict[str, float]) -> None:
    pipe = client.pipeline(transaction=False)
    items = list(scores.items())
    for n in range(0, len(items), BATCH):
        pipe.zadd(board, dict(items[n : n + BATCH]))
    pipe.execute()


def check_layout(
    client: Any, game: str, board: str, least: int, real: list[str], bulk: list[str]
) -> dict:
    """Whether bulk players look like players rated through the real path."""
    ours = {f"{game}:{f}" for f in RATING_FIELDS}

    def shape(player_id: str) -> tuple[list[str], str, bool, bool]:
        fields = client.hgetall(registry_key(player_id))
        names = [k for k in fields if k in ours]
        mu, sigma = float(fields[f"{game}:mu"]), float(fields[f"{game}:sigma"])
        texts = all(g17(float(fields[k])) == fields[k] for k in (f"{game}:mu", f"{game}:sigma"))
        texts = texts and fields[f"{game}:n"].isdigit() and float(fields[f"{game}:won"]) >= 0
        score = client.zscore(board, player_id)
        shown = int(fields[f"{game}:n"]) >= least  # below it, settle_ratings keeps it off
        encoding = client.object("encoding", registry_key(player_id))
        return names, encoding, texts, score == (ordinal(mu, sigma) if shown else None)

    real_shapes = [shape(p) for p in real]
    bulk_shapes = [shape(p) for p in bulk]
    return {
        "fields": real_shapes[0][0],
        "same_fields_and_order": all(s[0] == real_shapes[0][0] for s in real_shapes + bulk_shapes),
        "same_encoding": len({s[1] for s in real_shapes + bulk_shapes}) == 1,
        "encoding": real_shapes[0][1],
        "texts_as_lua_writes": all(s[2] for s in real_shapes + bulk_shapes),
        "board_is_ordinal": all(s[3] for s in real_shapes + bulk_shapes),
        "checked": f"{len(real)} real, {len(bulk)} bulk",
    }
