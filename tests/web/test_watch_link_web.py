"""A spectator opens a game's watch link (issue 41): `/play?game=<id>&watch=<code>` of a
game whose `spectators` is `link`. The page carries the code into every read it makes
(the view, the score, the log and its event stream) and follows the game live; without
the code it says why it cannot show the game."""

from __future__ import annotations

from tests.web.drive import ApiGame, caught_up, get


def test_a_watch_link_shows_the_game_and_follows_it(live_windcity: str, open_page) -> None:
    base = live_windcity
    game = ApiGame.create("windcity", base, ["Ann", "Bob"], 41, max_turns=10, spectators="link")
    code = get(base, f"/games/{game.id}", game.host)["watch_link"].split("watch=")[1]
    watcher = open_page()
    watcher.goto(f"{base}/play?game={game.id}&watch={code}")
    watcher.wait_for_selector("body[data-status=running]")
    caught_up(watcher, game)
    version = int(watcher.evaluate("document.body.dataset.version"))
    game.step()  # the stream (EventSource, with the code) brings the move
    caught_up(watcher, game)
    assert int(watcher.evaluate("document.body.dataset.version")) > version
    assert watcher.locator("#join").count() == 0
    assert watcher.errors == []

    stranger = open_page()  # the same page without the code
    stranger.goto(f"{base}/play?game={game.id}&watch=1")
    stranger.wait_for_selector("#main .problem")
    assert "watch link" in stranger.locator("#main .problem").text_content()
