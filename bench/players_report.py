"""bench.players, the report: its figures as Markdown (what ``python -m bench.players``
prints)."""

from __future__ import annotations

import argparse
from typing import Any

from bench.players_data import LIVE_SHARE
from bench.players_measure import LIMIT


def markdown(args: argparse.Namespace, out: dict[str, Any]) -> list[str]:
    b, m = out["build"], out["memory"]
    mem = m["used_memory"]
    flags = (
        f"--players {args.players} --memberships {args.memberships} --games {args.games} "
        f"--requests {args.requests} --match-players {args.match_players}"
    )
    mib = 1024 * 1024
    lines = [
        f"`python -m bench.players {flags}`",
        "",
        "machine: " + ", ".join(f"{k} {v}" for k, v in out["machine"].items()),
        "",
        f"Data set: {b['players']:,} players ({b['heavy_players']} with 1,000 games), "
        f"{b['real_games']:,} real Manhattan games (create + 4 joins in-process; their "
        f"{b['real_memberships']:,} memberships written by the game's script), "
        f"{b['bulk_memberships']:,} more memberships written straight into the indexes, "
        f"pointing at those games (shared documents); {m['index']['entries']:,} index "
        f"entries in {m['index']['keys']:,} keys (all + live, live = the newest "
        f"{LIVE_SHARE:.0%}). Built in {b['seconds']['registry']} s (registry), "
        f"{b['seconds']['games']} s (games), {b['seconds']['bulk']} s (bulk). "
        f"Registry check: a player made without the pipeline has the same fields "
        f"{out['registry_check']['fields']} ({out['registry_check']['same_fields']}), "
        f"a pipelined player's key verifies ({out['registry_check']['key_verified']}).",
        "",
        "| Redis memory (used_memory) | MiB | per item |",
        "|---|---|---|",
        f"| empty | {mem['empty'] / mib:.1f} | |",
        f"| + {b['players']:,} players (registry) | {mem['registry'] / mib:.1f} "
        f"| **{m['per_player']:.0f} B per player** (MEMORY USAGE of one hash: "
        f"{m['per_player_key']:.0f} B) |",
        f"| + {b['real_games']:,} games with their seats' memberships | "
        f"{mem['games'] / mib:.1f} | {m['per_game'] / 1024:.1f} KiB per game (just started, "
        f"4 index entries; the server's default stream-node-max-bytes: see bench.memory) |",
        f"| + {b['bulk_memberships']:,} memberships | {mem['memberships'] / mib:.1f} | "
        f"**{m['per_bulk_membership']:.0f} B per membership** (with its share of live "
        f"entries and of the keys) |",
        f"| index keys by MEMORY USAGE | {m['index']['bytes'] / mib:.1f} | "
        f"{m['index_per_entry']:.0f} B per index entry; by a key's size: "
        + ", ".join(
            f"{k} entries {v:.0f} B ({m['index']['entries_by_size'][k]:,} entries)"
            for k, v in m["index"]["per_entry"].items()
        )
        + " |",
        "",
        f'"My games" pages (limit {LIMIT}), one request at a time; in-process is '
        "`Games.player_games`, HTTP is `GET /players/me/games` with the player key "
        "through gunicorn (its commands include the key's registry read):",
        "",
        "| page | entries | in-process p50 / p99 ms | round trips | Redis commands "
        "| HTTP p50 / p99 ms | HTTP commands | services + Redis CPU ms / request "
        "| others' cores meanwhile |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for a, h in zip(out["pages_inproc"], out["pages_http"], strict=True):
        mix = ", ".join(f"{k} {v:g}" for k, v in a["mix"].items())
        lines.append(
            f"| {a['case']} ({a['requests']} requests) | {a['entries']:g} "
            f"| {a['p50_ms']} / **{a['p99_ms']}** | {a['round_trips']:g} "
            f"| {a['commands']:g} ({mix}) | {h['p50_ms']} / **{h['p99_ms']}** "
            f"| {h['commands']:g} | {h['cpu_ms']} | {h['other_cores']} |"
        )
    lines += [
        "",
        'Quick match (`POST /matches` `{"players": 4}`, player keys, gunicorn):',
        "",
        "| run | players | seated | tables (full) | started by the last join | p50 / p99 ms "
        "| wall s | Redis commands / match (most frequent) | CPU ms / match: services, Redis "
        "| cores: services, Redis, this client, others' |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key, label in (("match_one_at_a_time", "one at a time"), ("match_at_once", "all at once")):
        r = out[key]
        refused = f", refused {r['refused']}" if r["refused"] else ""
        mix = ", ".join(f"{k} {v:g}" for k, v in r["mix"].items())
        cores = ", ".join(f"{v:g}" for v in r["cores"].values())
        lines.append(
            f"| {label} | {r['players']:,} | {r['seated']:,}{refused} | {r['tables']} "
            f"({r['full_tables']}) | {r['started_by_last_join']} | {r['p50_ms']} / "
            f"**{r['p99_ms']}** | {r['wall_s']} | {r['commands']:g} "
            f"(EVALSHA {r['evalsha']:g}; {mix}) "
            f"| {r['services_ms']}, {r['redis_ms']} | {cores} |"
        )
    lines += [
        "",
        "`POST /moves` of a 4-seat game, 20 games of 10 moves per row (in-process, Flask "
        "test client and its fast path, the data set's Redis), alternated:",
        "",
        "| seats | moves | round trips | Redis commands (incl. inside Lua) "
        "| Redis µs (read + EVALSHA) |",
        "|---|---|---|---|---|",
    ]
    labels = {
        "names": "no player (seat tokens)",
        "players": "all 4 bound to heavy players (1,000 games each), seat tokens",
        "fresh players": "all 4 bound to new players (empty indexes), seat tokens",
        "player keys": "all 4 bound to heavy players, moved with player keys",
    }
    for r in out["moves"]:
        lines.append(
            f"| {labels[r['mode']]} | {r['posts']} | **{r['round_trips']:g}** "
            f"| {r['commands']:g} | {r['redis_us']:g} |"
        )
    return lines
