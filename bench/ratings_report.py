"""bench.ratings, the report: its figures as Markdown (what ``python -m bench.ratings``
prints)."""

from __future__ import annotations

import argparse
from typing import Any

from bench.ratings_snapshot import PROBE_GAP_S, SLOW_MS
from shared.store.ratings import CHUNK, KEPT


def markdown(args: argparse.Namespace, out: dict[str, Any]) -> list[str]:
    b, m, chk, mv = out["build"], out["memory"], out["check"], out["moves"]
    mem = m["used_memory"]
    flags = (
        f"--players {args.players} --requests {args.requests} --games {args.games} "
        f"--snapshots {args.snapshots}"
    )
    mib = 1024 * 1024
    every = out["settings"]["LEADERBOARD_SNAPSHOT_SECONDS"]
    per_rated = m["fields_per_player"] + m["board_per_player"]
    lines = [
        f"`python -m bench.ratings {flags}`",
        "",
        "machine: " + ", ".join(f"{k} {v}" for k, v in out["machine"].items()),
        "",
        f"Data set: {b['players']:,} players (registry) with Manhattan ratings, "
        f"{b['board']:,} on the board `mh:lb:{{}}` (with the 4 real players); built in "
        f"{b['seconds']['registry']} s (registry) + {b['seconds']['ratings']} s (rating "
        f"fields, then the board from them); {args.games} real rated games of 4 players "
        f"and their baselines in {b['seconds']['games']} s. Check against the real "
        f"players ({chk['checked']}): fields {chk['fields']} in that order "
        f"({chk['same_fields_and_order']}), texts as rating.lua writes them "
        f"({chk['texts_as_lua_writes']}), hash encoding {chk['encoding']} for all "
        f"({chk['same_encoding']}), board score = ordinal(mu, sigma) ({chk['board_is_ordinal']}).",
        "",
        "| Redis memory | figure |",
        "|---|---|",
        f"| used_memory: registry / + rating fields / + board | {mem['registry'] / mib:.1f} / "
        f"{mem['fields'] / mib:.1f} / {mem['board'] / mib:.1f} MiB |",
        f"| **per rated player** | **{per_rated:.0f} B**: {m['fields_per_player']:.0f} B of "
        f"rating fields (MEMORY USAGE of a registry hash {m['hash_before']:.0f} -> "
        f"{m['hash_after']:.0f} B) + {m['board_per_player']:.0f} B of board entry |",
        f"| the board (`MEMORY USAGE`) | {m['board_key'] / mib:.1f} MiB ({m['board_encoding']}) |",
        f"| one snapshot (`MEMORY USAGE`, {m['snapshot_encoding']}) | "
        f"{m['snapshot_key'] / mib:.1f} MiB (a ZUNIONSTORE copy: "
        f"{out['snapshot']['zunionstore_key'] / mib:.1f} MiB); the {KEPT} newest kept, one "
        f"taken every {every} s: **{m['snapshots_alive']} alive** after "
        f"{out['snapshot']['times'] + 1} refreshes ({m['snapshots_listed']} listed in "
        f"`:snaps`, the same keys: {m['alive_are_listed']}), "
        f"{m['snapshots_alive'] * m['snapshot_key'] / mib:.0f} MiB; the newest equal to the "
        f"board: {m['snapshot_is_board']} |",
        f"| `players:{{<id>}}:rated` of a real player | {m['rated_key']:.0f} B with "
        f"{m['rated_entries']} games (one entry per rated game of the last "
        "GAME_TTL_FINISHED + GAME_TTL_IDLE) |",
        "",
        "Leaderboard pages, one request at a time, the worker's snapshot in place (none "
        "taken by a request). In-process: `Ratings.snapshot` (first pages only: the pointer) "
        "+ `Ratings.page` + `leaderboard_entries`; HTTP: `GET "
        "/leaderboards/manhattan` through gunicorn (anonymous, keep-alive):",
        "",
        "| page | entries | in-process p50 / p99 ms (snapshot, page, details + entries) "
        "| round trips | Redis commands | HTTP p50 / p99 ms | HTTP commands "
        "| services + Redis CPU ms / request | others' cores |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for a, h in zip(out["pages_inproc"], out["pages_http"], strict=True):
        parts = ", ".join(
            f"{a[p][0]:g}/{a[p][1]:g}" for p in ("snapshot", "page", "details") if p in a
        )
        mix = ", ".join(f"{k} {v:g}" for k, v in a["mix"].items())
        lines.append(
            f"| {a['case']} ({a['requests']}) | {a['entries']:g} | {a['total'][0]:g} / "
            f"**{a['total'][1]:g}** ({parts}) | {a['round_trips']:g} | {a['commands']:g} "
            f"({mix}) | {h['p50_ms']} / **{h['p99_ms']}** | {h['commands']:g} "
            f"| {h['cpu_ms']} | {h['other_cores']} |"
        )
    base = out["baseline_http"]
    lines.append(
        f"| baseline: `GET /players/{{id}}` ({base['requests']}) | | | | | {base['p50_ms']} "
        f"/ **{base['p99_ms']}** | {base['commands']:g} | {base['cpu_ms']} "
        f"| {base['other_cores']} |"
    )
    sn, fr, pr = out["snapshot"], out["copies"], out["snapshot"]["probe"]

    def probe(way: str) -> str:
        p = pr[way]
        return (
            f"{p['n']} | {p['p50_ms']} / {p['p99_ms']} / **{p['max_ms']}** | {p['slow']}"
            if p["n"]
            else "0 | | "
        )

    mix = ", ".join(f"{k} {v}" for k, v in sn["mix"].items())
    lines += [
        "",
        f"The snapshot of the {b['board']:,}-entry board, {sn['times']} times each way in "
        f"turn, in-process. `Ratings.refresh` (what the worker runs every {every} s: ZSCAN "
        f"COUNT {CHUNK} + ZADD of each chunk; commands: {mix}) against one ZUNIONSTORE of "
        "the same board (the design it replaced). Inside Redis, from the slow log "
        "(slowlog-log-slower-than 0: every command's own µs):",
        "",
        "| way | wall p50 / max ms | longest single command p50 / max ms (per snapshot) |",
        "|---|---|---|",
        f"| `Ratings.refresh` | {sn['refresh_wall_p50_ms']} / {sn['refresh_wall_max_ms']} "
        f"({sn['refresh_redis_ms']} ms of it inside Redis) | ZSCAN "
        f"{sn['zscan_longest_p50_ms']} / **{sn['zscan_longest_max_ms']}** "
        f"({sn['calls']['zscan']} calls), ZADD {sn['zadd_longest_p50_ms']} / "
        f"**{sn['zadd_longest_max_ms']}** ({sn['calls']['zadd']} calls), any other "
        f"{sn['other_longest_p50_ms']} / {sn['other_longest_max_ms']} |",
        f"| one ZUNIONSTORE (baseline) | {sn['zunionstore_wall_p50_ms']} / "
        f"{sn['zunionstore_wall_max_ms']} | ZUNIONSTORE {sn['zunionstore_longest_p50_ms']} / "
        f"**{sn['zunionstore_longest_max_ms']}** |",
        "",
        f"Meanwhile, from another process on its own connection, a GET of a small key every "
        f"{PROBE_GAP_S * 1000:g} ms, each timed (the GETs that overlapped):",
        "",
        f"| while | GETs | p50 / p99 / max ms | over {SLOW_MS} ms |",
        "|---|---|---|---|",
        f"| `Ratings.refresh` runs | {probe('refresh')} |",
        f"| ZUNIONSTORE runs (baseline) | {probe('zunionstore')} |",
        f"| nothing (100 ms gaps before each) | {probe('quiet')} |",
        "",
        f"The very first first-page read (no snapshot yet) takes one itself: "
        f"{out['first_snapshot_ms']} ms; after that pages only read the pointer. Freeing a "
        f"copy inside Redis, medians, ms: DEL {fr['del']}, UNLINK {fr['unlink']} (older "
        f"snapshots are UNLINK-ed; a copy by COPY {fr['copy']}, by ZUNIONSTORE "
        f"{fr['zunionstore']}).",
        "",
        f"`POST /moves`, {mv['games']} 4-player games of each kind, the same seeds and "
        "moves (in-process, Flask test client and its fast path):",
        "",
        "| seats | moves not ending the game | round trips | commands (of them EXPIRE) "
        "| Redis µs | the ending move: round trips | commands | Redis µs |",
        "|---|---|---|---|---|---|---|---|",
    ]
    labels = {
        "rated": "4 players, rated",
        "unrated": '4 players, `"rated": false`',
        "names": "4 names (no player)",
    }
    for mode, label in labels.items():
        r = mv[mode]
        lines.append(
            f"| {label} | {r['moves']} | **{r['round_trips']:g}** | {r['commands']:.1f} "
            f"({r['expire']:.2f}) | {r['usec']:.0f} | **{r['end_round_trips']:g}** "
            f"| **{r['end_commands']:g}** | {r['end_usec']:.0f} |"
        )
    p = mv["pairs"]
    extra = ", ".join(f"{k} +{v:g}" for k, v in mv["end_extra_mix"].items())
    fewer = ", ".join(f"{k} -{v:g}" for k, v in mv["end_fewer_mix"].items())
    lines += [
        "",
        f"Move by move, rated against unrated: {p['same_round_trips']} of {p['moves']} "
        f"non-ending moves sent the same round trips, {p['same_commands_but_expire']} ran "
        f"the same commands but EXPIRE (the player indexes' once-a-second EXPIRE, timing); "
        f"commands that differed at all: {p['differing_commands'] or 'none'}.",
        "",
        f"The ending move, rated: {mv['rated']['end_trips']}",
        "",
        f"The ending move, unrated: {mv['unrated']['end_trips']}",
        "",
        f"Extra commands of the rated ending move (per game): {extra}"
        + (f"; fewer: {fewer}" if fewer else ""),
    ]
    return lines
