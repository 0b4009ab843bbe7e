"""Redis memory per game, measured with ``MEMORY USAGE`` (exact: ``SAMPLES 0``).

Run: ``python -m bench.memory [--game manhattan] [--games 100] [--players 4]
[--stream-node-max-bytes 1024]`` (the last: Redis's setting, which the deployment
should use, see docs/operations.md; without it the server's default, 4096).

The real app runs in-process on a private Redis; ``--games`` games are played by bots
with random legal moves to half their length (in progress; ``--at``: another fraction),
then to the end
(finished). Every key of every game is measured (document, capped events stream,
history tail and archive; games of older code also had a moves list and an idempotency
hash) and averaged; also the document's size as stored (compressed, see
shared/store/document_codec.py) and as JSON. Done twice: with an
``Idempotency-Key`` on every move (what the CLI client sends) and without.

Also over each game's whole life, every game's keys measured after every round of
moves: the mean while in progress (what a store of games at every stage holds per game)
and the peak (each game's largest total, averaged over the games; the history tail is
longest just before it rolls into the archive).
"""

from __future__ import annotations

import argparse
import statistics
import sys

from bench.common import redis_server
from bench.inproc import Bot, make_app
from shared.store import jsoncodec, load_doc

PARTS = ("game", "events", "tail", "hist")


def usage(client, prefix: str, bots: list[Bot]) -> dict[str, float]:
    pipe = client.pipeline(transaction=False)
    for bot in bots:
        base = f"{prefix}:{{{bot.id}}}"
        for part in PARTS:
            pipe.memory_usage(f"{base}:{part}", samples=0)
        pipe.get(f"{base}:game")
        pipe.xlen(f"{base}:events")
        pipe.pttl(f"{base}:events")
    raw = pipe.execute()
    width = len(PARTS) + 3
    rows = [raw[i : i + width] for i in range(0, len(raw), width)]
    out = {part: statistics.mean(r[i] or 0 for r in rows) for i, part in enumerate(PARTS)}
    out["total"] = sum(out[p] for p in PARTS)
    docs = [r[len(PARTS)] for r in rows]
    out["stored_bytes"] = statistics.mean(len(d.encode()) for d in docs)
    out["json_bytes"] = statistics.mean(len(jsoncodec.dumps(load_doc(d))) for d in docs)
    out["event_count"] = statistics.mean(r[len(PARTS) + 1] for r in rows)
    out["moves_made"] = statistics.mean(b.moves for b in bots)
    out["events_ttl_s"] = max(r[len(PARTS) + 2] for r in rows) / 1000
    return {k: round(v) for k, v in out.items()}


def game_totals(client, prefix: str, bots: list[Bot]) -> list[int]:
    """Each game's bytes over all its keys."""
    pipe = client.pipeline(transaction=False)
    for bot in bots:
        for part in PARTS:
            pipe.memory_usage(f"{prefix}:{{{bot.id}}}:{part}", samples=0)
    raw = pipe.execute()
    return [sum(n or 0 for n in raw[i : i + len(PARTS)]) for i in range(0, len(raw), len(PARTS))]


def play(
    client, prefix: str, bots: list[Bot], half: int
) -> tuple[dict[str, float], dict[str, float], dict[str, int]]:
    """Play the games ``half`` moves each (measured: in progress), then to the end
    (finished), every game's total taken after every round of moves (its life)."""
    peaks = [0] * len(bots)
    samples: list[int] = []

    def sample() -> None:
        totals = game_totals(client, prefix, bots)
        for n, (bot, total) in enumerate(zip(bots, totals, strict=True)):
            peaks[n] = max(peaks[n], total)
            if bot.status == "running":
                samples.append(total)

    for _ in range(half):
        for bot in bots:
            bot.step()
        sample()
    running = usage(client, prefix, bots)
    while any([bot.step() for bot in bots]):
        sample()
    finished = usage(client, prefix, bots)
    life = {"mean": round(statistics.mean(samples)), "peak": round(statistics.mean(peaks))}
    return running, finished, life


def run(
    game: str, games: int, players: int, node_bytes: int | None = None, at: float = 0.5
) -> dict:
    with redis_server(appendonly=False) as server:
        app, prefix = make_app(game, server.url)
        client = server.client()
        if node_bytes is not None:
            client.config_set("stream-node-max-bytes", node_bytes)
        out = {}
        for idem in (True, False):
            # length of a game with these seeds, to stop the in-progress ones half-way
            bots = [Bot(app, players, seed, idem) for seed in range(games)]
            lengths = []
            for seed in range(min(games, 5)):
                probe = Bot(app, players, 10_000 + seed, idem)
                while probe.step():
                    pass
                lengths.append(probe.moves)
            half = int(statistics.mean(lengths) * at)
            running, finished, life = play(client, prefix, bots, half)
            key = "with_key" if idem else "without_key"
            out[key] = {
                "in_progress": running,
                "finished": finished,
                "game_length": half,
                "life": life,
            }
            client.flushdb()
        return out


def markdown(game: str, players: int, out: dict, node_bytes: int | None = None) -> list[str]:
    node = "" if node_bytes is None else f" --stream-node-max-bytes {node_bytes}"
    lines = [
        f"`python -m bench.memory --game {game} --players {players}{node}` (bytes per game, mean)",
        "",
        "| game state | keys | document (stored / JSON bytes) | events (entries) | history tail "
        "| history archive | **total** |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, label in (("with_key", "with Idempotency-Keys"), ("without_key", "no keys")):
        life = out[key]["life"]
        lines.append(
            f"| over its life, {label}: mean while in progress / peak (each game's "
            f"largest, mean) | | | | | | **{life['mean'] / 1024:.1f} / "
            f"{life['peak'] / 1024:.1f} KiB** |"
        )
        for when in ("in_progress", "finished"):
            u = out[key][when]
            lines.append(
                f"| {when.replace('_', ' ')} ({u['moves_made']} moves), {label} | "
                f"{sum(1 for p in PARTS if u[p])} | {u['game']} "
                f"({u['stored_bytes']} / {u['json_bytes']}) | "
                f"{u['events']} ({u['event_count']}) | {u['tail']} | {u['hist']} | "
                f"**{u['total']} = {u['total'] / 1024:.1f} KiB** |"
            )
            if when == "finished" and u["events_ttl_s"] <= 3600:  # the stream expires soon
                rest = u["total"] - u["events"]
                lines.append(
                    f"| finished, {label}, once its stream expired "
                    f"(within {u['events_ttl_s']} s) | {sum(1 for p in PARTS if u[p]) - 1} | "
                    f"{u['game']} | 0 | {u['tail']} | {u['hist']} | "
                    f"**{rest} = {rest / 1024:.1f} KiB** |"
                )
    return lines


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument(
        "--stream-node-max-bytes",
        type=int,
        default=None,
        help="Redis's stream-node-max-bytes (default: the server's, 4096)",
    )
    ap.add_argument(
        "--at",
        type=float,
        default=0.5,
        help="where the in-progress games are measured, as a fraction of a game (0.5)",
    )
    args = ap.parse_args(argv)
    out = run(args.game, args.games, args.players, args.stream_node_max_bytes, args.at)
    print("\n".join(markdown(args.game, args.players, out, args.stream_node_max_bytes)))
    return out


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
