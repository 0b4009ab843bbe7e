"""``boardgames admin keys add|list|revoke|set-frame-origins``: manage the services' API
keys file (the moderation commands over HTTP are clients/cli/moderation.py's).

The file is what ``API_KEYS_FILE`` names on the services (JSON). It holds each key's
id, name, quotas and SHA-256 hash, never the key: ``add`` prints the new key once and it
cannot be shown again. The services re-read the file when it changes, so no restart is
needed. This edits the file only (no import of the service code): writes go to a
temporary file that replaces the old one, under a lock, so a service never reads half a
file and two admins never lose each other's changes.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import re
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.cells import cell_len

from . import moderation, words
from .i18n import _

KEY_PREFIX = "bgk_"
ROLES = ("admin",)


def add_parser(games: Any) -> None:
    """The ``admin`` subcommand tree, under the top-level subparsers ``games``."""
    admin = games.add_parser("admin", help=_("operator commands (API keys, moderation)"))
    what = admin.add_subparsers(dest="command", required=True)
    moderation.add_parsers(what)
    keys = what.add_parser("keys", help=_("manage API keys (API_KEYS_FILE)"))
    action = keys.add_subparsers(dest="action", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--file", help=_("the keys file (default: $API_KEYS_FILE)"))
    common.add_argument("--json", action="store_true", help=_("print JSON for scripts"))

    p = action.add_parser("add", parents=[common], help=_("create a key (printed once)"))
    p.add_argument("--name", required=True, help=_("who the key is for"))
    p.add_argument("--games-per-hour", type=int, default=0, help=_("0: no limit"))
    p.add_argument("--max-live-games", type=int, default=0, help=_("open or running; 0: no limit"))
    p.add_argument(
        "--frame-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help=_("an origin allowed to frame this key's embeds, e.g. https://example.com (repeat)"),
    )
    p.add_argument(
        "--role",
        action="append",
        choices=ROLES,
        default=[],
        help=_("a role of the key (admin: an operator's key, for the moderation routes)"),
    )
    p.add_argument(
        "--admin", action="store_true", help=_("an operator's key (the same as --role admin)")
    )
    action.add_parser("list", parents=[common], help=_("list keys (never the keys themselves)"))
    p = action.add_parser("revoke", parents=[common], help=_("revoke a key by id or name"))
    p.add_argument("key", metavar="ID_OR_NAME")
    p = action.add_parser(
        "set-frame-origins",
        parents=[common],
        help=_("replace the origins allowed to frame a key's embeds (by id or name)"),
    )
    p.add_argument("key", metavar="ID_OR_NAME")
    p.add_argument("origins", nargs="*", metavar="ORIGIN", help=_("e.g. https://example.com"))
    p.add_argument(
        "--none", action="store_true", help=_("no origin: no page may frame the key's embeds")
    )


def hash_key(key: str) -> str:
    """The SHA-256 hex digest the services compare a presented key against."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _path(args: argparse.Namespace) -> Path:
    value = args.file or os.environ.get("API_KEYS_FILE")
    if not value:
        raise SystemExit(_("error: give --file PATH or set API_KEYS_FILE"))
    return Path(value)


def _load(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"keys": []}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("keys"), list):
        raise SystemExit(
            _('error: {path} is not a keys file (a JSON object with a "keys" list)', path=path)
        )
    return data


def _save(path: Path, data: dict[str, Any]) -> None:
    """Replace the file atomically (readable by its owner only: it names the customers)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{path}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _pad(value: Any, width: int) -> str:
    """``value`` left-aligned in ``width`` terminal columns (a Japanese character takes two)."""
    text = str(value)
    return text + " " * max(0, width - cell_len(text))


def _public(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != "hash"}


ORIGIN = re.compile(
    r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?"
)


def add(
    path: Path,
    name: str,
    games_per_hour: int,
    max_live_games: int,
    frame_origins: list[str] | tuple[str, ...] = (),
    roles: tuple[str, ...] = (),
) -> tuple[str, dict]:
    """Create a key; returns the key (to show once) and its entry. ``frame_origins``:
    the origins (``scheme://host[:port]``) allowed to frame the key's embeds; ``roles``:
    ``admin`` makes it an operator's (the moderation routes)."""
    if games_per_hour < 0 or max_live_games < 0:
        raise SystemExit(_("error: quotas are whole numbers >= 0 (0: no limit)"))
    _check_origins(frame_origins)
    with _locked(path):
        data = _load(path)
        ids = {entry.get("id") for entry in data["keys"]}
        key_id = secrets.token_hex(4)
        while key_id in ids:
            key_id = secrets.token_hex(4)
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        entry = {
            "id": key_id,
            "name": name,
            "hash": hash_key(key),
            "games_per_hour": games_per_hour,
            "max_live_games": max_live_games,
            "frame_origins": list(frame_origins),
            "roles": sorted(set(roles)),
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "revoked": False,
        }
        data["keys"].append(entry)
        _save(path, data)
    return key, entry


def _check_origins(origins: list[str] | tuple[str, ...]) -> None:
    for origin in origins:
        if not ORIGIN.fullmatch(origin):
            raise SystemExit(
                _("error: {origin} is not an origin (scheme://host[:port])", origin=repr(origin))
            )


def _active(data: dict[str, Any], which: str) -> list[dict[str, Any]]:
    """The active keys whose id or name is ``which`` (an error when there is none)."""
    hits = [
        e for e in data["keys"] if not e.get("revoked") and which in (e.get("id"), e.get("name"))
    ]
    if not hits:
        raise SystemExit(_("error: no active key with id or name {which}", which=repr(which)))
    return hits


def set_frame_origins(path: Path, which: str, origins: list[str]) -> list[dict[str, Any]]:
    """Replace the ``frame_origins`` of the active keys whose id or name is ``which``
    (checked as at creation; none: no page may frame their embeds); returns them. The
    services read the file again at the next embed page or session: no restart."""
    _check_origins(origins)
    with _locked(path):
        data = _load(path)
        hits = _active(data, which)
        for entry in hits:
            entry["frame_origins"] = list(origins)
        _save(path, data)
    return hits


def revoke(path: Path, which: str) -> list[dict[str, Any]]:
    """Revoke the active keys whose id or name is ``which``; returns them."""
    with _locked(path):
        data = _load(path)
        hits = _active(data, which)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        for entry in hits:
            entry["revoked"] = True
            entry["revoked_at"] = now
        _save(path, data)
    return hits


def run(args: argparse.Namespace) -> int:
    """Carry out ``boardgames admin keys ...`` (or a moderation command)."""
    if args.command in moderation.COMMANDS:
        return moderation.run(args)
    path = _path(args)
    if args.action == "add":
        roles = tuple(args.role) + (("admin",) if args.admin else ())
        key, entry = add(
            path, args.name, args.games_per_hour, args.max_live_games, args.frame_origin, roles
        )
        if args.json:
            print(json.dumps({**_public(entry), "key": key}))
        else:
            print(
                _(
                    "key {id} ({name}) added to {path}.",
                    id=entry["id"],
                    name=entry["name"],
                    path=path,
                )
            )
            print(f"  {key}")
            print(_("This is the only time the key is shown: hand it over now."))
        return 0
    if args.action == "set-frame-origins":
        return _run_set_frame_origins(path, args)
    if args.action == "revoke":
        hits = revoke(path, args.key)
        if args.json:
            print(json.dumps([_public(e) for e in hits]))
        else:
            for entry in hits:
                print(_("key {id} ({name}) revoked.", id=entry["id"], name=entry["name"]))
        return 0
    entries = [_public(e) for e in _load(path)["keys"]]
    if args.json:
        print(json.dumps(entries))
        return 0
    if not entries:
        print(_("no keys in {path}", path=path))
    for line in _table(entries):
        print(line)
    return 0


def _table(entries: list[dict[str, Any]]) -> list[str]:
    """One line a key, its columns as wide as their widest cell (at least 8; a Japanese
    character takes two) and its frame origins last (``none``: no page may frame it)."""
    rows = []
    for e in entries:
        state = _("revoked") if e.get("revoked") else _("active")
        if e.get("roles"):
            state = f"{state} [{','.join(e['roles'])}]"
        rows.append(
            {
                "id": e["id"],
                "name": e["name"],
                "state": state,
                "per_hour": e.get("games_per_hour") or _("unlimited"),
                "live": e.get("max_live_games") or _("unlimited"),
                "created": words.when(e.get("created_at")) or "?",
            }
        )
    widths = {k: max([8, *(cell_len(str(r[k])) for r in rows)]) for k in rows[0]} if rows else {}
    return [
        _(
            "{id}  {name} {state} games/hour: {per_hour} live games: {live} created {created}"
            " frame origins: {origins}",
            **{k: _pad(v, widths[k]) for k, v in row.items()},
            origins=" ".join(e.get("frame_origins") or ()) or _("none"),
        )
        for row, e in zip(rows, entries, strict=True)
    ]


def _run_set_frame_origins(path: Path, args: argparse.Namespace) -> int:
    if bool(args.origins) == args.none:
        raise SystemExit(_("error: give the origins, or --none to allow no page"))
    hits = set_frame_origins(path, args.key, args.origins)
    if args.json:
        print(json.dumps([_public(e) for e in hits]))
        return 0
    for entry in hits:
        origins = " ".join(entry["frame_origins"]) or _("none")
        print(
            _(
                "key {id} ({name}): frame origins {origins}",
                id=entry["id"],
                name=entry["name"],
                origins=origins,
            )
        )
    return 0
