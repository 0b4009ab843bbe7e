"""The operator's moderation commands, over HTTP with an admin API key (a key made with
``boardgames admin keys add --admin``; ``--key`` or ``$BOARDGAMES_ADMIN_KEY``):

- ``boardgames admin reports list [--status open|resolved]`` and
  ``admin reports resolve REPORT_ID dismissed|actioned [--note ...]``;
- ``admin message delete GAME_ID MESSAGE_ID --reason ...`` (a chat message becomes a
  placeholder everywhere);
- ``admin suspend PLAYER_ID (--seconds N | --until TIME) --reason ...`` and
  ``admin unsuspend PLAYER_ID [--reason ...]``;
- ``admin audit [--limit N]``: the audit log, newest first.

Reports, suspensions and the audit log are common to both services (one registry), so
any service answers them (``--service``, ``--url``); a message lives in its game's
service. The ``/admin`` routes are in docs/api.md, "Moderation".
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from . import i18n
from .errors import ApiError, TransportError, describe_problem
from .i18n import _
from .transport import GAMES, Transport

Json = dict[str, Any]
PAGE = 50
COMMANDS = ("reports", "message", "suspend", "unsuspend", "audit")


class Operator(Transport):
    """The ``/admin`` routes of one service, with the operator's key as bearer."""

    def __init__(self, base_url: str | None, game: str, key: str) -> None:
        super().__init__(base_url, game=game)
        self.key = key

    def reports(self, status: str, limit: int, cursor: str | None = None) -> Json:
        params = {"status": status, "limit": limit, "cursor": cursor}
        found: Json = self._get("/admin/reports", self.key, params=params)
        return found

    def resolve(self, report_id: str, action: str, note: str | None) -> Json:
        body = {"action": action, **({"note": note} if note else {})}
        path = f"/admin/reports/{report_id}/resolve"
        found: Json = self._request("POST", path, token=self.key, json_body=body)
        return found

    def delete_message(self, game_id: str, message_id: str, reason: str) -> Json:
        path = f"/admin/games/{game_id}/chat/{message_id}"
        body = {"reason": reason}
        found: Json = self._request("DELETE", path, token=self.key, json_body=body)
        return found

    def suspend(self, player_id: str, body: Json) -> Json:
        path = f"/admin/players/{player_id}/suspension"
        found: Json = self._request("PUT", path, token=self.key, json_body=body)
        return found

    def unsuspend(self, player_id: str, reason: str | None) -> None:
        body = {"reason": reason} if reason else None
        path = f"/admin/players/{player_id}/suspension"
        self._request("DELETE", path, token=self.key, json_body=body)

    def audit(self, limit: int, cursor: str | None = None) -> Json:
        params = {"limit": limit, "cursor": cursor}
        found: Json = self._get("/admin/audit", self.key, params=params)
        return found


def add_parsers(what: Any) -> None:
    """The moderation commands, beside ``admin keys`` (``what``: the admin subparsers)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    common.add_argument("--key", help=_("the operator's API key (default: $BOARDGAMES_ADMIN_KEY)"))
    common.add_argument("--service", choices=GAMES, default=GAMES[0], help=_("the service to ask"))
    common.add_argument("--url", help=_("the service's URL (default: the service's)"))

    reports = what.add_parser("reports", help=_("the players' reports (list, resolve)"))
    action = reports.add_subparsers(dest="action", required=True)
    p = action.add_parser("list", parents=[common], help=_("list reports, oldest first"))
    p.add_argument("--status", choices=["open", "resolved"], default="open")
    p.add_argument("--limit", type=int, default=PAGE, metavar="N", help=_("show at most N"))
    p = action.add_parser("resolve", parents=[common], help=_("resolve an open report"))
    p.add_argument("report_id", metavar="REPORT_ID")
    p.add_argument("outcome", choices=["dismissed", "actioned"], metavar="dismissed|actioned")
    p.add_argument("--note", help=_("what was done, for the audit log"))

    message = what.add_parser("message", help=_("chat messages (delete)"))
    action = message.add_subparsers(dest="action", required=True)
    p = action.add_parser(
        "delete", parents=[common], help=_("replace a chat message by a placeholder")
    )
    p.add_argument("game_id", metavar="GAME_ID")
    p.add_argument("message_id", metavar="MESSAGE_ID")
    p.add_argument("--reason", required=True, help=_("why, for the audit log"))

    p = what.add_parser("suspend", parents=[common], help=_("suspend a player for a time"))
    p.add_argument("player_id", metavar="PLAYER_ID")
    when = p.add_mutually_exclusive_group(required=True)
    when.add_argument("--seconds", type=int, metavar="N", help=_("for N seconds"))
    when.add_argument("--until", metavar="TIME", help=_("until TIME (RFC 3339)"))
    p.add_argument("--reason", required=True, help=_("why, for the audit log"))

    p = what.add_parser("unsuspend", parents=[common], help=_("lift a player's suspension"))
    p.add_argument("player_id", metavar="PLAYER_ID")
    p.add_argument("--reason", help=_("why, for the audit log"))

    p = what.add_parser("audit", parents=[common], help=_("the audit log, newest first"))
    p.add_argument("--limit", type=int, default=PAGE, metavar="N", help=_("show at most N"))


def _operator(args: argparse.Namespace) -> Operator:
    key = args.key or os.environ.get("BOARDGAMES_ADMIN_KEY")
    if not key:
        raise SystemExit(_("error: give --key KEY or set BOARDGAMES_ADMIN_KEY"))
    op = Operator(args.url, args.service, key)
    op.language = i18n.language()  # the services' problems in the CLI's language
    return op


def _report_line(report: Json) -> str:
    who = report["subject"].get("name") or "?"
    by = report["reporter"].get("name") or "?"
    context = report.get("context") or {}
    where = context.get("game") or "-"
    return _(
        "{id}  {reason} about {who} by {by} in {service} game {game} at {at}",
        id=report["id"],
        reason=report["reason"],
        who=who,
        by=by,
        service=context.get("service", "?"),
        game=where,
        at=report["created_at"],
    )


def _paged(fetch: Any, key: str, limit: int) -> list[Json]:
    """Up to ``limit`` entries, following the cursors."""
    out: list[Json] = []
    cursor = None
    while len(out) < limit:
        page = fetch(min(100, limit - len(out)), cursor)
        out += page[key]
        cursor = page.get("next_cursor")
        if not cursor:
            break
    return out


def _carry_out(args: argparse.Namespace, op: Operator) -> tuple[Any, list[str]]:
    """The answer (for ``--json``) and the lines for people."""
    if args.command == "reports" and args.action == "list":
        found = _paged(lambda n, c: op.reports(args.status, n, c), "reports", args.limit)
        lines = []
        for report in found:
            lines.append(_report_line(report))
            if report.get("note"):
                lines.append(f"    {report['note']}")
        return found, lines or [_("no reports")]
    if args.command == "reports":
        done = op.resolve(args.report_id, args.outcome, args.note)
        return done, [_("report {id} resolved: {action}", id=done["id"], action=args.outcome)]
    if args.command == "message":
        done = op.delete_message(args.game_id, args.message_id, args.reason)
        return done, [_("message {id} deleted", id=args.message_id)]
    if args.command == "suspend":
        body: Json = {"reason": args.reason}
        body.update({"seconds": args.seconds} if args.seconds else {"until": args.until})
        done = op.suspend(args.player_id, body)
        return done, [
            _("player {id} suspended until {until}", id=args.player_id, until=done["until"])
        ]
    if args.command == "unsuspend":
        op.unsuspend(args.player_id, args.reason)
        return {"player": args.player_id}, [_("player {id} may play again", id=args.player_id)]
    entries = _paged(lambda n, c: op.audit(n, c), "entries", args.limit)
    lines = [
        _(
            "{at}  {who}  {action} {target}: {reason}",
            at=e["at"],
            who=e["who"],
            action=e["action"],
            target=e["target"],
            reason=e.get("reason") or "-",
        )
        for e in entries
    ]
    return entries, lines or [_("the audit log is empty")]


def run(args: argparse.Namespace) -> int:
    """Carry out one moderation command; 1 when the service refused it."""
    op = _operator(args)
    try:
        answer, lines = _carry_out(args, op)
    except ApiError as error:
        print(describe_problem(error), file=sys.stderr)
        return 1
    except TransportError as error:
        print(str(error), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(answer, ensure_ascii=False))
    else:
        for line in lines:
            print(line)
    return 0
