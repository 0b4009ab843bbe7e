"""The CLI's languages: English (the source), Japanese and German (issue 34).

The language is ``--lang``, else the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``
that is set (POSIX order; ``C`` and ``POSIX`` are English, ``ja_JP.UTF-8`` is Japanese,
a language the CLI does not speak is English). Every text for people is an English
gettext ``msgid`` marked in the code with :func:`_` (or :func:`N_` where it is kept in
a constant and translated when shown, or :func:`ngettext` when it has a plural); the
translations are gettext ``.po`` files (``locales/<lang>/LC_MESSAGES/boardgames.po``,
kept in step with the code by ``scripts/i18n.py extract``), read with Babel the first
time a language is chosen. Values go into ``{name}`` fields after the lookup, so a
translator sees whole sentences. JSON output, problem codes and move notation never
change with the language; the services are asked (``Accept-Language``) for problem
titles and details in the same language.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Final

DEFAULT: Final = "en"
LANGUAGES: Final = ("en", "ja", "de")
"""Every language the CLI speaks; English, the source language, first."""
LOCALES: Final = Path(__file__).resolve().parent / "locales"
DOMAIN: Final = "boardgames"
ENVIRONMENT: Final = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The variables that name the language, strongest first (POSIX)."""


def catalog_path(language: str) -> Path:
    """The ``.po`` file of ``language``."""
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def normalize(value: str | None) -> str | None:
    """The language a locale name or tag stands for (``ja_JP.UTF-8``, ``de-AT``, ``C``),
    ``None`` for an empty value; a language the CLI does not speak is English."""
    if not value:
        return None
    code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else DEFAULT


def choose(flag: str | None, environ: Mapping[str, str]) -> str:
    """The language to speak: ``--lang``, else the environment (:data:`ENVIRONMENT`)."""
    for value in (flag, *(environ.get(name) for name in ENVIRONMENT)):
        language = normalize(value)
        if language:
            return language
    return DEFAULT


@cache
def load(language: str) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """``language``'s translated, non-fuzzy entries: ``msgid -> msgstr`` and, for the
    entries with a plural, ``msgid -> (msgstr[0], msgstr[1], ...)``."""
    from babel.messages.pofile import read_po  # only when a translation is needed

    with catalog_path(language).open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    single: dict[str, str] = {}
    plural: dict[str, tuple[str, ...]] = {}
    for m in catalog:
        if not m.id or m.fuzzy or not m.string:
            continue
        if isinstance(m.id, str) and isinstance(m.string, str):
            single[m.id] = m.string
        elif isinstance(m.id, tuple | list) and all(m.string):
            plural[str(m.id[0])] = tuple(str(s) for s in m.string)
    return single, plural


class _State:
    language: str = DEFAULT


def set_language(language: str) -> None:
    """Speak ``language`` from now on (one of :data:`LANGUAGES`, else English)."""
    _State.language = language if language in LANGUAGES else DEFAULT


def language() -> str:
    """The language the CLI speaks now."""
    return _State.language


def _fill(text: str, english: str, params: Mapping[str, Any]) -> str:
    if not params:
        return text
    try:
        return text.format_map(params)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English stands
        return english.format_map(params)


def _(msgid: str, **params: Any) -> str:
    """``msgid`` in the current language, its ``{name}`` fields filled from ``params``
    (without params the text is taken literally)."""
    if _State.language == DEFAULT:
        return _fill(msgid, msgid, params)
    return _fill(load(_State.language)[0].get(msgid, msgid), msgid, params)


def N_(msgid: str) -> str:
    """Marks ``msgid`` for the catalogs; it is translated (with :func:`_`) when shown."""
    return msgid


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    """The form of ``singular``/``plural`` for the number ``n`` in the current language;
    ``n`` is a field too."""
    params = {"n": n, **params}
    english = singular if n == 1 else plural
    if _State.language == DEFAULT:
        return _fill(english, english, params)
    forms = load(_State.language)[1].get(singular)
    if not forms:
        return _fill(english, english, params)
    index = 0 if len(forms) == 1 else (0 if n == 1 else 1)
    return _fill(forms[index], english, params)


def person(who: str, third: str, second: str, **params: Any) -> str:
    """A sentence about ``who``: ``third`` (with ``{who}``), or ``second`` when ``who``
    is the second person (the name ``you``: the default name of one playing against
    bots, whatever its case); both are msgids
    (marked with :func:`N_`)."""
    if who.strip().lower() != "you":
        return _(third, who=who, **params)
    text = _(second, **params)
    return text[:1].upper() + text[1:] if who[:1].isupper() else text


ARGPARSE: Final = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("not allowed with argument %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
)
"""argparse's own words (headings, its errors), which :func:`speak_argparse` translates."""


def speak_argparse() -> None:
    """Make argparse say its own words (``usage:``, ``options``, its errors) through the
    CLI's catalogs, in the current language."""
    import argparse

    argparse._ = _  # type: ignore[attr-defined]  # argparse looks its words up through it
