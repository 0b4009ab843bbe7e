"""Quiet hours and the push headers, as pure functions (shared/push/messages.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from shared.push.messages import headers, held_back, quiet_until


def _ms(stamp: str) -> int:
    return int(datetime.fromisoformat(stamp).astimezone(UTC).timestamp() * 1000)


BERLIN = {"quiet_hours": {"start": "22:00", "end": "07:00"}, "time_zone": "Europe/Berlin"}


def _note(kind: str, deadline: str | None) -> dict:
    data = {"game": "toy", "game_id": "g1", "seat": 0, "deadlines": {"0": deadline}}
    return {"type": kind, "data": data}


def test_quiet_hours_over_midnight_in_the_players_zone() -> None:
    assert quiet_until(BERLIN, _ms("2026-07-01T21:59:00+02:00")) is None
    ends = _ms("2026-07-02T07:00:00+02:00")
    assert quiet_until(BERLIN, _ms("2026-07-01T22:00:00+02:00")) == ends
    assert quiet_until(BERLIN, _ms("2026-07-02T06:59:00+02:00")) == ends
    assert quiet_until(BERLIN, _ms("2026-07-02T07:00:00+02:00")) is None
    assert quiet_until({**BERLIN, "quiet_hours": None}, _ms("2026-07-01T23:00:00+02:00")) is None
    day = {"quiet_hours": {"start": "09:00", "end": "17:00"}, "time_zone": "Asia/Tokyo"}
    assert quiet_until(day, _ms("2026-07-01T08:59:00+09:00")) is None
    assert quiet_until(day, _ms("2026-07-01T12:00:00+09:00")) == _ms("2026-07-01T17:00:00+09:00")


def test_only_a_clock_low_due_before_the_end_goes_through() -> None:
    night = _ms("2026-07-02T03:00:00+02:00")
    assert held_back(_note("your_turn", "2026-07-02T01:30:00Z"), BERLIN, night)
    assert not held_back(_note("clock_low", "2026-07-02T04:00:00+02:00"), BERLIN, night)
    assert held_back(_note("clock_low", "2026-07-02T08:00:00+02:00"), BERLIN, night)
    assert not held_back(_note("your_turn", None), BERLIN, _ms("2026-07-02T12:00:00+02:00"))


def test_ttl_until_the_deadline_urgency_and_one_topic_per_game() -> None:
    now = _ms("2026-07-02T12:00:00Z")
    turn = headers(_note("your_turn", "2026-07-02T12:10:00Z"), now, 86400)
    assert turn["TTL"] == "600" and turn["Urgency"] == "high"
    over = headers(_note("game_over", None), now, 86400)
    assert over["TTL"] == "86400" and over["Urgency"] == "normal"
    assert turn["Topic"] == over["Topic"] and len(turn["Topic"]) == 32
    other = _note("your_turn", None)
    other["data"]["game_id"] = "g2"
    assert headers(other, now, 86400)["Topic"] != turn["Topic"]
    late = headers(_note("your_turn", "2026-07-02T11:00:00Z"), now, 86400)
    assert late["TTL"] == "0"
