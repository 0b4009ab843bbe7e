"""Problems in the request's language (issue 34): ``title`` and ``detail`` follow
``Accept-Language`` (English by default, Japanese, German), ``Content-Language`` says
which, ``code``, ``type`` and the extra fields never change; every title and detail
template has a translation in every catalog; the English texts are as they were."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from services.manhattan.rules import ENGINE as MANHATTAN
from shared.engine import RuleError
from shared.games import errors as ge
from shared.games import names
from shared.games.base import not_found
from shared.http.errors import HTTP, title
from shared.i18n import CATALOGS, LANGUAGES, negotiate, render
from shared.i18n.extract import OTHER_TITLE, fields_of, http_titles, problems, scan
from tests.kit.helpers import assert_problem, auth, create, started_game, view


def _get(client: FlaskClient, path: str, language: str | None, **kwargs: Any) -> Any:
    headers = dict(kwargs.pop("headers", {}))
    if language is not None:
        headers["Accept-Language"] = language
    return client.open(path, headers=headers, **kwargs)


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("ja", "ja"),
        ("de", "de"),
        ("en", "en"),
        ("fr", "en"),  # a language the API does not speak: English
        ("*", "en"),
        ("de-AT", "de"),  # a regional tag matches its language
        ("JA-jp", "ja"),
        ("fr, de;q=0.5", "de"),  # the first language we speak, in the client's order
        ("de;q=0.4, ja;q=0.9", "ja"),  # q-values, not the order, rank
        ("ja;q=0, de", "de"),  # q=0: not acceptable
        ("en-GB, ja;q=0.8", "en"),
        (";;;, q=", "en"),
    ],
)
def test_negotiation(header: str | None, language: str) -> None:
    assert negotiate(header) == language


GAME_NOT_FOUND = {
    "en": ("Not Found", "There is no game 'nope'."),
    "ja": ("見つかりません", "ゲーム 'nope' はありません。"),
    "de": ("Nicht gefunden", "Es gibt kein Spiel 'nope'."),
}


@pytest.mark.parametrize(
    ("header", "language"),
    [(None, "en"), ("ja", "ja"), ("de-DE", "de"), ("xx", "en"), ("en;q=0.1, de;q=0.7", "de")],
)
def test_a_404_in_each_language(toy_client: FlaskClient, header: str, language: str) -> None:
    r = _get(toy_client, "/games/nope", header)
    body = assert_problem(r, 404, "game-not-found")
    assert (body["title"], body["detail"]) == GAME_NOT_FOUND[language]
    assert body["type"] == "urn:boardgames:problem:game-not-found"
    assert r.headers["Content-Language"] == language
    assert "Accept-Language" in r.headers["Vary"]
    # (issue 39) raw UTF-8 as the views are, not \u escapes
    assert GAME_NOT_FOUND[language][0].encode() in r.data
    assert b"\\u" not in r.data


def _same_but_words(bodies: dict[str, dict[str, Any]]) -> None:
    """``code``, ``type``, ``status`` and every extra field are the same in each language;
    the words are not English but in Japanese and German."""
    words = {"title", "detail", "request_id"}
    english = {k: v for k, v in bodies["en"].items() if k not in words}
    for language, body in bodies.items():
        assert {k: v for k, v in body.items() if k not in words} == english, language
        assert list(body) == list(bodies["en"])  # the same fields, in the same order
        if language != "en":
            assert body["title"] != bodies["en"]["title"], language
            assert body["detail"] != bodies["en"]["detail"], language


def test_a_409_with_a_value(toy_client: FlaskClient) -> None:
    game_id, _, tokens = started_game(toy_client, 2)
    waiting = next(s for s in (0, 1) if s not in view(toy_client, game_id)["to_act"])
    bodies = {}
    for language in LANGUAGES:
        r = _get(
            toy_client,
            f"/games/{game_id}/moves",
            language,
            method="POST",
            json={"type": "pick", "value": 1},
            headers=auth(tokens[waiting]),
        )
        bodies[language] = assert_problem(r, 409, "not-your-turn")
        assert r.headers["Content-Language"] == language
    assert bodies["en"]["detail"] == f"Seat {waiting} is not expected to act now."
    assert bodies["ja"]["detail"] == f"席 {waiting} は今は手番ではありません。"
    assert bodies["de"]["detail"] == f"Platz {waiting} ist gerade nicht am Zug."
    _same_but_words(bodies)


def test_a_422_keeps_its_errors(toy_client: FlaskClient) -> None:
    bodies = {}
    for language in LANGUAGES:
        r = _get(toy_client, "/games", language, method="POST", json={"players": "many"})
        bodies[language] = assert_problem(r, 422, "validation-error")
    assert bodies["en"]["detail"] == "The request failed validation; see `errors`."
    assert bodies["de"]["title"] == "Nicht verarbeitbarer Inhalt"
    assert bodies["ja"]["errors"] == bodies["en"]["errors"]  # the schemas' messages
    _same_but_words(bodies)


def test_a_412_keeps_its_version(toy_client: FlaskClient) -> None:
    game_id, host = create(toy_client, players=2)
    bodies = {}
    for language in LANGUAGES:
        headers = {**auth(host), "If-Match": '"7"'}
        r = _get(toy_client, f"/games/{game_id}/start", language, method="POST", headers=headers)
        bodies[language] = assert_problem(r, 412, "version-mismatch")
    assert bodies["en"]["detail"] == "The game is at version 1; If-Match does not match."
    assert bodies["ja"]["detail"] == "ゲームはバージョン 1 です。If-Match が一致しません。"
    assert bodies["de"]["version"] == 1
    _same_but_words(bodies)


def test_a_401_keeps_its_challenge(toy_client: FlaskClient) -> None:
    game_id, _ = create(toy_client, players=2)
    r = _get(toy_client, f"/games/{game_id}/start", "de", method="POST")
    body = assert_problem(r, 401, "missing-token")
    assert r.headers["WWW-Authenticate"] == 'Bearer realm="boardgames"'
    assert body["title"] == "Nicht authentifiziert"
    assert body["detail"] == "Dafür ist ein Bearer-Token nötig (Authorization: Bearer <token>)."
    assert r.headers["Content-Language"] == "de"


def test_an_engine_refusal(manhattan_client: FlaskClient) -> None:
    """A RuleError's template is translated, its values inserted after: Manhattan's
    selection phase refuses a ``place`` move."""
    game_id, _, tokens = started_game(manhattan_client, 2)
    seat = view(manhattan_client, game_id)["to_act"][0]
    move = {"type": "place", "city": 1, "lot": 1, "floors": 1}
    bodies = {}
    for language in LANGUAGES:
        r = _get(
            manhattan_client,
            f"/games/{game_id}/moves",
            language,
            method="POST",
            json=move,
            headers=auth(tokens[seat]),
        )
        bodies[language] = assert_problem(r, 409, "wrong-phase")
    assert bodies["en"]["detail"] == "no 'place' in the select phase"
    assert bodies["ja"]["detail"] == "select フェーズに 'place' はできません"
    assert bodies["de"]["detail"] == "kein 'place' in der Phase select"
    _same_but_words(bodies)


def test_answers_outside_flask_speak_too(toy_client: FlaskClient) -> None:
    """The WSGI layer in front of Flask (an unsupported transfer coding) negotiates too."""
    r = toy_client.post(
        "/games",
        data=b"{}",
        headers={"Transfer-Encoding": "gzip, chunked", "Accept-Language": "ja"},
    )
    body = assert_problem(r, 501, "not-implemented")
    assert r.headers["Content-Language"] == "ja"
    assert body["title"].encode() in r.data  # raw UTF-8 here too
    assert body["title"] == "実装されていません"


def test_english_details_are_as_before() -> None:
    """The templates render exactly the English texts the f-strings made."""
    assert ge.Conflict(
        "not-your-turn", "Seat {seat} is not expected to act now.", seat=2
    ).detail == ("Seat 2 is not expected to act now.")
    assert not_found("a1b2").detail == "There is no game 'a1b2'."
    assert str(not_found("a1b2")) == "There is no game 'a1b2'."
    with pytest.raises(ge.Invalid) as hidden:
        names.check("a\u200bb")
    assert hidden.value.detail == (
        "name: U+200B (ZERO WIDTH SPACE) cannot be seen; use visible characters."
    )
    assert hidden.value.extra == {"errors": {"json": {"name": [names.MESSAGE]}}}
    state = MANHATTAN.setup(2, {}, 7)
    seat = MANHATTAN.to_act(state)[0]
    with pytest.raises(RuleError) as refused:
        MANHATTAN.apply_move(state, seat, {"type": "select", "pieces": [1]})
    assert refused.value.message == "select exactly 6 pieces"
    assert (refused.value.template, refused.value.params) == ("select exactly {k} pieces", {"k": 6})
    with pytest.raises(RuleError) as unknown:
        MANHATTAN.apply_move(state, seat, {"type": "fly"})
    assert str(unknown.value) == unknown.value.message == "unknown move type 'fly'"
    # the old signature still works: a plain message, no params
    plain = RuleError("bad-move", "a move must be {an} object")
    assert (plain.message, plain.params) == ("a move must be {an} object", {})


def test_every_text_has_every_translation() -> None:
    """The catalogs are complete: ``scripts/i18n.py check`` (a stale .pot, an f-string
    detail, a msgid untranslated or fuzzy in a language, fields that differ)."""
    assert problems() == []


def test_every_translation_renders() -> None:
    """Each translated template formats with its own fields (no stray brace, no field
    the code does not pass)."""
    for text in scan().messages:
        params = {name: 1 for name in fields_of(text)}
        english = render(text, params or None)
        for language in LANGUAGES[1:]:
            translated = CATALOGS[language][text]
            assert render(text, params or None, language) == (
                translated.format_map(params) if params else translated
            )
            assert translated != text or text in {"Error"}, (language, text)
        assert english == (text.format_map(params) if params else text)


def test_the_scan_reads_the_titles_the_http_layer_has() -> None:
    assert http_titles() == {status: name for status, (_, name) in HTTP.items()}
    assert title(599) == OTHER_TITLE
