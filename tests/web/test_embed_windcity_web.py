"""Wind City's embed (issue 44), for real: Wind City under gunicorn for a platform whose
API key allows one host page on another origin (tests/web/embedhost.py). A seat plans
a turn from its card and answers an insurance market in the frame, the host page told
ready, your_turn, moved in order; a spectator's embed made for the player whose plan
is secret (the drawn card and the plan, private until the turn is revealed) shows
neither, nor receives them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
import requests
from playwright.sync_api import Page, Request

from tests.web.embedhost import Platform, embed_frame, hosted, types
from tests.web.test_windcity_web import play_one


@pytest.fixture(scope="module")
def windcity(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    yield from hosted("windcity", redis_url, tmp_path_factory)


def planning(seat: int) -> Callable[[dict[str, Any]], bool]:
    """A view's test: ``seat`` is to plan its turn (it has drawn its card)."""
    return lambda view: view["state"]["phase"] == "plan" and view["to_act"] == [seat]


def answer(platform: Platform, game_id: str, headers: dict[str, str]) -> None:
    """The first legal move of the seat of ``headers``, through the API."""
    url = f"{platform.base}/games/{game_id}"
    moves = requests.get(f"{url}/legal-moves", headers=headers).json()["moves"]
    assert requests.post(f"{url}/moves", json=moves[0], headers=headers).ok


def test_a_seat_plans_and_insures_in_the_frame_the_host_told_in_order(
    windcity: Platform, open_page: Callable
) -> None:
    """Ann plans her turn in the frame, then answers Bob's insurance market there: her
    own turn starts with that move of hers, and the host page is told so (your_turn
    again, as her webhook would be). The rest of a short game goes through the API:
    game_over with the public result."""
    game_id, who, bob = windcity.seated_game(max_turns=10)
    windcity.play(game_id, who, bob, until=planning(0))  # the setup, Bob's first turn
    page = open_page()
    page.goto(windcity.allowed.url(windcity.link(game_id, who)))
    frame = cast(Page, embed_frame(page))  # (a frame has every method play_one uses)
    page.wait_for_function("got.some(m => m.type === 'your_turn')")
    seen = {"kauf": False, "renew": False, "insure": False}
    play_one(frame, seen)  # a plan from the card: the insurance market opens
    page.wait_for_function("got.some(m => m.type === 'moved')")
    assert frame.evaluate("boardgamesPage.view.to_act") == [1]
    # Bob answers (Ann's turn is revealed), then plans: Ann is asked for insurance
    bearer = {"Authorization": f"Bearer {bob}"}
    answer(windcity, game_id, bearer)
    assert planning(1)(requests.get(f"{windcity.base}/games/{game_id}", headers=bearer).json())
    answer(windcity, game_id, bearer)
    page.wait_for_function("got.filter(m => m.type === 'your_turn').length === 2")
    assert frame.evaluate("document.body.dataset.phase") == "insure"
    version = frame.evaluate("boardgamesPage.view.version")
    play_one(frame, seen)  # an answer to Bob's market: Bob's turn is revealed, Ann's begins
    page.wait_for_function(f"got.some(m => m.type === 'moved' && m.version > {version})")
    page.wait_for_function("got.filter(m => m.type === 'your_turn').length === 3")
    seen_types = types(page)
    collapsed = [t for i, t in enumerate(seen_types) if i == 0 or t != seen_types[i - 1]]
    assert collapsed == ["ready", "your_turn", "moved", "your_turn", "moved", "your_turn"], (
        seen_types
    )
    versions = page.evaluate("got.filter(m => m.type === 'moved').map(m => m.version)")
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    windcity.finish(game_id, who, bob)
    page.wait_for_function("got.some(m => m.type === 'game_over')")
    over = page.evaluate("got.find(m => m.type === 'game_over')")
    public = requests.get(f"{windcity.base}/games/{game_id}/score").json()["result"]
    assert over["result"] == public and types(page)[-1] == "game_over"
    assert page.errors == [] and "error" not in types(page)


def private_parts(value: Any) -> list[Any]:
    """The shapes of a seat's secrets anywhere in ``value`` (a JSON answer): a drawn card
    (``{"number", "actions"}``), a plan (``{"actions", "kauf", "renew"}``) or the
    state's ``you`` (a view's own ``you`` is a seat number or null; a revealed turn's
    event names its card by number and its plan as a list, in public)."""
    found: list[Any] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("card", "plan", "you") and isinstance(item, dict):
                found.append(item)
            else:
                found += private_parts(item)
    elif isinstance(value, list):
        for item in value:
            found += private_parts(item)
    return found


def test_a_spectators_embed_never_shows_the_card_nor_the_plan(
    windcity: Platform, open_page: Callable
) -> None:
    """Ann has drawn her card and planned (a Kauf when her card offers one); her plan is
    secret until Bob has answered the market. A watching embed made for her shows the
    board, never her card, plan, path or Kauf target, and none of them reaches the page."""
    game_id, who, bob = windcity.seated_game(spectators="link")
    windcity.play(game_id, who, bob, until=planning(0))
    ann = windcity.as_player(who)
    url = f"{windcity.base}/games/{game_id}"
    moves = requests.get(f"{url}/legal-moves", headers=ann).json()["moves"]
    plan = max(moves, key=lambda m: (m["kauf"] is not None, len(m["actions"])))
    assert requests.post(f"{url}/moves", json=plan, headers=ann).ok
    seat_view = requests.get(url, headers=ann).json()
    secret = seat_view["state"]["you"]
    assert secret["card"] and secret["plan"]["actions"] == plan["actions"]
    assert private_parts(seat_view) == [secret]  # (what is looked for below, found here)
    page = open_page()
    finished: list[Request] = []
    page.on("requestfinished", lambda r: finished.append(r))
    page.goto(windcity.allowed.url(windcity.link(game_id, who, mode="watch")))
    frame = embed_frame(page)
    frame.wait_for_selector("#board")
    frame.wait_for_function("document.body.dataset.chat === 'ready'")  # (its last read)
    view = frame.evaluate("boardgamesPage.view")
    assert view["you"] is None and view["state"]["phase"] == "insure"
    assert private_parts(view) == []
    for selector in ("#plan", "#make-plan", "#insure-panel", "#board .planned", "#board .target"):
        assert frame.query_selector(selector) is None, selector
    text = frame.inner_text("body")
    assert "Your card" not in text and "Your plan" not in text and "Kauf on" not in text
    # nothing the page read holds them (its session, the view, log, events, score, chat)
    api = [r for r in finished if r.url.startswith(windcity.base) and "/play/" not in r.url]
    answers = [r.response() for r in api]  # (not the page's own files: its catalog)
    bodies = {a.url: a.json() for a in answers if a and "json" in a.headers["content-type"]}
    assert any(f"/games/{game_id}/log" in url for url in bodies), list(bodies)
    assert {url: body for url, body in bodies.items() if private_parts(body)} == {}
    # ... and once Bob has answered, the turn is revealed to it (a move it follows)
    answer(windcity, game_id, {"Authorization": f"Bearer {bob}"})
    page.wait_for_function("got.some(m => m.type === 'moved')")
    assert frame.evaluate("boardgamesPage.view.you") is None
    assert page.errors == [] and "error" not in types(page) and "your_turn" not in types(page)
