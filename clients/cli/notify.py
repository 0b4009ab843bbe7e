"""``boardgames notify``: your player's push notification settings and devices.

Without options it shows them (``GET /players/me/push``, and ``GET /push/key`` to say
whether the service sends push at all); ``--events``, ``--quiet``, ``--time-zone`` and
``--language`` change them (``PATCH``); ``--remove ID`` stops pushing to a device
(``DELETE /players/me/push/subscriptions/{id}``). Devices subscribe from the browser
client (``/play?notifications=1``); the settings are the player's, for every device.
"""

from __future__ import annotations

import argparse
import re
from datetime import UTC, datetime
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .client import GAMES, client_for, default_url
from .commands_kit import Command, UsageError, emit
from .errors import ApiError
from .i18n import _
from .tokens_store import TokenStore
from .turns import add_parser as add_watch_parser
from .turns import cmd_watch_all

Json = dict[str, Any]
LANGUAGES = ("en", "ja", "de")
QUIET = re.compile(r"^(?P<start>\d\d:\d\d)-(?P<end>\d\d:\d\d)$")


def add_parser(games: Any) -> None:
    """``notify`` (and ``watch --all``), under the top-level subparsers ``games``."""
    p = games.add_parser(
        "notify", help=_("your push notifications: events, quiet hours, language, devices")
    )
    p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    p.add_argument("--url", help=_("ask this service (default: where you registered)"))
    p.add_argument(
        "--events",
        metavar="LIST",
        help=_("what to push, comma-separated: your_turn,game_over,clock_low (empty: nothing)"),
    )
    p.add_argument(
        "--quiet",
        metavar="HH:MM-HH:MM",
        help=_("no push in these hours of your time zone; off: none"),
    )
    p.add_argument("--time-zone", metavar="ZONE", help=_("an IANA name, e.g. Europe/Berlin"))
    p.add_argument("--language", choices=LANGUAGES, help=_("the language of the notifications"))
    p.add_argument(
        "--remove", metavar="DEVICE_ID", action="append", default=[], help=_("stop pushing there")
    )
    add_watch_parser(games)


def changes_of(args: argparse.Namespace) -> Json:
    """The ``PATCH`` body the options ask for (empty: change nothing)."""
    changes: Json = {}
    if args.events is not None:
        changes["events"] = [e.strip() for e in args.events.split(",") if e.strip()]
    if args.quiet is not None:
        match = QUIET.match(args.quiet.strip())
        if args.quiet.strip().lower() in ("off", "none", ""):
            changes["quiet_hours"] = None
        elif match:
            changes["quiet_hours"] = {"start": match["start"], "end": match["end"]}
        else:
            raise UsageError(_("--quiet takes HH:MM-HH:MM (e.g. 22:00-07:00) or off"))
    if args.time_zone:
        changes["time_zone"] = args.time_zone
    if args.language:
        changes["language"] = args.language
    return changes


def settings_view(settings: Json, push_on: bool) -> Group:
    """The settings and devices, for people."""
    lines = [
        Text(_("push notifications: on") if push_on else _("this service sends no push")),
        Text(_("events: {events}", events=", ".join(settings["events"]) or _("none"))),
    ]
    quiet = settings.get("quiet_hours")
    zone = settings["time_zone"]
    if quiet:
        lines.append(Text(_("quiet hours: {start}-{end} ({zone})", zone=zone, **quiet)))
    else:
        lines.append(Text(_("quiet hours: none (time zone {zone})", zone=zone)))
    lines.append(Text(_("language: {language}", language=settings["language"])))
    subs = settings.get("subscriptions") or []
    if not subs:
        lines.append(Text(_("no devices: turn notifications on in the browser client")))
        return Group(*lines)
    table = Table(title=_("devices"), title_justify="left")
    for column in (_("id"), _("device"), _("since")):
        table.add_column(column)
    for sub in subs:
        since = datetime.fromtimestamp(int(sub.get("since") or 0) / 1000, UTC)
        table.add_row(sub["id"], sub.get("device") or "-", since.strftime("%Y-%m-%d %H:%M UTC"))
    return Group(*lines, table)


def cmd_notify(args: argparse.Namespace) -> int:
    """Show, change and prune the player's push settings (see the module docstring)."""
    player = TokenStore().player()
    if not player:
        raise UsageError(_("no player yet: boardgames register NAME"))
    client = client_for(GAMES[0], args.url or player.get("url") or default_url(GAMES[0]))
    key = player["key"]
    for device in args.remove:
        client.remove_push_subscription(key, device)
    changes = changes_of(args)
    settings = client.push_settings(key, changes or None)
    try:
        push_on = bool(client.push_key().get("public_key"))
    except ApiError as exc:
        if exc.code != "push-disabled":
            raise
        push_on = False
    emit(args, {"push": push_on, **settings}, settings_view(settings, push_on))
    return 0


COMMANDS: dict[str, Command] = {"notify": cmd_notify, "watch": cmd_watch_all}
