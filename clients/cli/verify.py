"""``boardgames <game> verify GAME``: was that game's shuffle fair, and did it go by the rules?

Two checks on a game's log once it is over (docs/api.md, "Checking a game"):

1. the commitment: ``sha256("<seed>:<salt>")`` (decimal seed, the salt's 32 hex digits)
   equals the ``seed_commitment`` published when the game was created (or the one the
   user noted then, ``--commitment``), so the seed was fixed before anyone joined;
2. the replay: the game's pure rules (``services.<game>.rules``), set up from that seed,
   accept every logged move in order and produce exactly the logged events and result.

This is the one command that runs the rules in the client. They are loaded with
``importlib`` only when it runs (like ``evaluate.py``), need nothing of the service kit
but ``shared.rng``/``shared.engine`` and never Flask or Redis. The hash is written out
here rather than imported: a verifier shares no code with the service it checks.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass, field
from typing import Any

from .i18n import _, ngettext

Json = dict[str, Any]
OVER = ("finished", "cancelled")
KIT_EVENTS = {"game_created", "player_joined", "game_started", "game_cancelled", "game_finished"}


# Options the service echoes beside the game's own, which the rules never see (the seat
# count is setup's first argument; the clock and the take-over bot are the service's).
SERVICE_OPTIONS = frozenset({"players", "clock", "takeover"})


class Unverified(Exception):
    """A check that failed; the message is the one line shown to the user."""


@dataclass
class Report:
    """What was checked, one line each; ``ok`` when every check passed."""

    game_id: str
    checks: list[Json] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c["ok"] for c in self.checks)

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.checks.append({"check": name, "ok": ok, "detail": detail})

    def failure(self) -> str | None:
        """The first failed check's line."""
        return next((c["detail"] for c in self.checks if not c["ok"]), None)


def commitment(seed: int, salt: str) -> str:
    """The documented encoding: SHA-256 hex of ``f"{seed}:{salt}"`` in ASCII."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


def load_rules(game: str) -> Any:  # a shared.engine.Engine (not imported: HTTP-only)
    """The game's pure engine (``ENGINE`` of its rules package)."""
    try:
        engine = importlib.import_module(f"services.{game}.rules").ENGINE
        return engine
    except ImportError as error:
        raise Unverified(
            _("the rules of {game} are not installed here ({error})", game=game, error=error)
        ) from error


def _plain(value: Any) -> Any:
    """``value`` as it reads after a JSON round trip (tuples become lists...)."""
    return json.loads(json.dumps(value))


def check_commitment(log: Json, noted: str | None) -> str:
    """The commitment check's line; raises :class:`Unverified` when it fails."""
    published = log.get("seed_commitment")
    if noted is not None and published != noted.strip().lower():
        raise Unverified(
            _(
                "the log's seed_commitment {published} is not the {noted} you noted: "
                "the service changed its commitment",
                published=published,
                noted=noted,
            )
        )
    if published is None:
        if log.get("seed_chosen"):
            raise Unverified(
                _(
                    "the seed was chosen by the game's creator, who may have known every "
                    "hand: there is no commitment to check"
                )
            )
        raise Unverified(_("the game has no seed commitment (created before commitments)"))
    seed, salt = log.get("seed"), log.get("salt")
    if not isinstance(seed, int) or not isinstance(salt, str):
        raise Unverified(_("the log does not reveal the seed and its salt"))
    computed = commitment(seed, salt)
    if computed != published:
        raise Unverified(
            _(
                "{hash} is {computed}, not the published {published}: "
                "the seed is not the one committed to",
                hash=f'sha256("{seed}:{salt}")',
                computed=computed,
                published=published,
            )
        )
    return _(
        "{hash} = {published}…, the published commitment",
        hash=f'sha256("{seed}:{salt}")',
        published=published[:16],
    )


def replay(rules: Any, log: Json) -> str:
    """The replay check's line: every logged move is legal from the seed, in order, and
    yields the logged events and result; raises :class:`Unverified` at the first gap."""
    events_at: dict[int, list[Json]] = {}
    for event in log.get("events", []):
        events_at.setdefault(event["version"], []).append(event)
    started = [e["version"] for e in log.get("events", []) if e["type"] == "game_started"]
    moves = log.get("moves") or []
    if not started:
        if moves:
            raise Unverified(_("the log has moves but the game never started"))
        return _("the game never started: no move to replay")
    options = {k: v for k, v in log["options"].items() if k not in SERVICE_OPTIONS}
    state = rules.setup(len(log["players"]), options, log["seed"])
    explained = {started[0]}
    last = started[0]
    for entry in moves:
        version = entry["version"]
        if version <= last:
            raise Unverified(_("the move at version {version} is out of order", version=version))
        last = version
        try:
            state, events = rules.apply_move(state, entry["seat"], entry["move"])
        except ValueError as error:  # RuleError
            raise Unverified(
                _(
                    "the move at version {version} (seat {seat}) is illegal: {error}",
                    version=version,
                    seat=entry["seat"],
                    error=error,
                )
            ) from error
        logged = [
            {k: v for k, v in e.items() if k not in ("id", "version")}
            for e in events_at.get(version, [])
            if e["type"] not in KIT_EVENTS
        ]
        if _plain(list(events)) != logged:
            raise Unverified(
                _("the events at version {version} are not what the move causes", version=version)
            )
        explained.add(version)
    strays = sorted(
        v for v, evs in events_at.items() if v not in explained and set(_types(evs)) - KIT_EVENTS
    )
    if strays:
        raise Unverified(
            _("events at version {version} come from no logged move", version=strays[0])
        )
    finished = [e for e in log.get("events", []) if e["type"] == "game_finished"]
    if rules.is_over(state):
        if log["status"] != "finished" or not finished:
            raise Unverified(_("the moves end the game, but the log does not say it finished"))
        if _plain(rules.result(state)) != finished[-1]["result"]:
            raise Unverified(_("the logged result is not the result of the moves"))
        return ngettext(
            "{n} move, legal; every event and the result match",
            "{n} moves, all legal; every event and the result match",
            len(moves),
        )
    if log["status"] == "finished":
        raise Unverified(_("the log says the game finished, but its moves do not end it"))
    return ngettext(
        "{n} move, legal; every event matches (cancelled before the end)",
        "{n} moves, all legal; every event matches (cancelled before the end)",
        len(moves),
    )


def _types(events: list[Json]) -> list[str]:
    return [e["type"] for e in events]


def verify(game: str, log: Json, noted: str | None = None) -> Report:
    """Both checks on ``log`` (``GET /games/{id}/log``); each adds its line to the report."""
    report = Report(str(log.get("id")))
    if log.get("status") not in OVER:
        report.add(
            "over",
            False,
            _(
                "the game is {status}: its seed is revealed only once it is over",
                status=log.get("status"),
            ),
        )
        return report
    for name, check in (
        ("commitment", lambda: check_commitment(log, noted)),
        ("replay", lambda: replay(load_rules(game), log)),
    ):
        try:
            report.add(name, True, check())
        except Unverified as failed:
            report.add(name, False, str(failed))
        except (KeyError, TypeError) as error:  # a log not shaped as documented
            why = f"{type(error).__name__}: {error}"
            report.add(name, False, _("the log is malformed ({why})", why=why))
    return report
