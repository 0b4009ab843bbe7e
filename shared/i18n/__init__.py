"""The API's languages: problem titles and details in English, Japanese and German.

An error's ``detail`` is a template with named parameters (``"Seat {seat} is not
expected to act now."``, ``seat=2``): the English template is the gettext ``msgid``, the
translation is looked up on the template and the values are inserted after. The
catalogs are gettext ``.po`` files (``locales/<lang>/LC_MESSAGES/messages.po``, made from
``locales/messages.pot`` by ``scripts/i18n.py extract``), read with Babel once, at
import. A text no catalog translates stays English.

Pure lookups, no Flask: ``shared.http`` picks the language of a request
(``Accept-Language``) and renders its problems; the layers below raise templates only.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from babel.core import negotiate_locale
from babel.messages.pofile import read_po
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

DEFAULT: Final = "en"
LANGUAGES: Final = ("en", "ja", "de")
"""Every language the API speaks; English, the source language, first."""
LOCALES: Final = Path(__file__).resolve().parent / "locales"
DOMAIN: Final = "messages"


def catalog_path(language: str) -> Path:
    """The ``.po`` file of ``language``."""
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def load(language: str) -> dict[str, str]:
    """``msgid -> msgstr`` of ``language``'s catalog: its translated, non-fuzzy entries."""
    with catalog_path(language).open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    return {
        str(m.id): str(m.string)
        for m in catalog
        if m.id and isinstance(m.id, str) and m.string and not m.fuzzy
    }


CATALOGS: Final[dict[str, dict[str, str]]] = {lang: load(lang) for lang in LANGUAGES[1:]}


@lru_cache(maxsize=512)
def negotiate(accept_language: str | None) -> str:
    """The language to answer in for an ``Accept-Language`` header: the most preferred
    (by q-value, then order) of :data:`LANGUAGES`, a regional tag matching its language
    (``de-AT`` is ``de``); English when the header is absent or names none of them."""
    if not accept_language:
        return DEFAULT
    accepted = parse_accept_header(accept_language, LanguageAccept)
    preferred = [value for value, quality in accepted if quality > 0 and value != "*"]
    found = negotiate_locale(preferred, LANGUAGES, sep="-")
    return found.split("-")[0].lower() if found else DEFAULT


def translate(text: str, language: str) -> str:
    """``text`` (an English msgid) in ``language``, or ``text`` itself if untranslated."""
    return CATALOGS.get(language, {}).get(text, text)


def render(template: str, params: Mapping[str, Any] | None, language: str = DEFAULT) -> str:
    """``template`` translated to ``language``, then its ``{name}`` fields filled from
    ``params`` (a template without params is taken literally: its braces are text)."""
    text = translate(template, language)
    if not params:
        return text
    try:
        return text.format_map(params)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English stands
        return template.format_map(params)
