"""The players' languages: gettext catalogs (Babel) and which language a message is in.

Every string a player reads is English source text wrapped for translation (``tr._("...")``,
``tr.ngettext(...)``; ``N_("...")`` marks data such as a table of names, translated where it is
shown). The catalogs are ``bot/locales/<language>/LC_MESSAGES/uno.po``; they are compiled by Babel
in memory the first time a language is used (50-60 ms each; the bot does it at start), so a fresh clone needs no build
step and a catalog can never be stale. ``scripts/i18n`` extracts and updates them.

The language is always an argument: a render function takes the :class:`Tr` of the language it
writes in, so two tables in one event loop never share a "current language". Private messages
(a hand, a refusal) take the user's ``interaction.locale``; public ones (lobby, table, summaries)
the channel's language (``/uno settings language``, else the server's ``guild_locale``).

>>> translator("fr").ngettext("{n} card", "{n} cards", 2).format(n=2)
'2 cartes'
>>> language_of("es-419"), language_of("pt-BR"), language_of("de"), language_of(None)
('es', 'pt_BR', 'en', 'en')
"""

from __future__ import annotations

import ast
import gettext
import io
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import IO, Any

from babel.messages.extract import extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES = Path(__file__).parent / "locales"
DOMAIN = "uno"
ENGLISH = "en"
LANGUAGES = {ENGLISH: "English", "fr": "Français", "es": "Español", "pt_BR": "Português (Brasil)"}
"""Each language the bot speaks (its catalog's folder name) and its own name for itself."""
SERVER = "server"
"""The ``/uno settings language`` choice that follows the server's language again (the channel's
setting removed)."""
DISCORD_LOCALES = {
    "en-US": ENGLISH,
    "en-GB": ENGLISH,
    "fr": "fr",
    "es-ES": "es",
    "es-419": "es",
    "pt-BR": "pt_BR",
}
"""Discord's locales (``discord.Locale`` values) that have a catalog: Spain's Spanish and Latin
America's share one; any other locale reads English."""


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it here (it is translated where it is
    shown, in that reader's language)."""
    return message


def language_of(locale: object) -> str:
    """The catalog for a Discord locale (``discord.Locale``, its value such as ``"es-419"``, or
    one of :data:`LANGUAGES`), English for any other or None."""
    text = str(getattr(locale, "value", locale) or "")
    if text in LANGUAGES:
        return text
    return DISCORD_LOCALES.get(text, ENGLISH)


def channel_language(settings: dict[str, Any], interaction: Any) -> str:
    """The language of a channel's public messages: its ``/uno settings language`` (``settings``:
    the channel's saved settings), else the server's (``interaction.guild_locale``), else English."""
    return language_of(settings.get("language") or getattr(interaction, "guild_locale", None))


class Tr:
    """One language's translations: ``_`` (gettext) and ``ngettext``, Python ``str.format``
    placeholders (``{n}``, ``{name}``) kept as in English.

    Attributes:
        lang: the catalog's name (a key of :data:`LANGUAGES`).
    """

    __slots__ = ("_catalog", "lang")

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog

    def _(self, message: str) -> str:
        """``message`` in this language (itself where the catalog lacks it)."""
        return self._catalog.gettext(message) if message else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` for ``n`` in this language's plural rules."""
        return self._catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in this language where it means what ``context`` says (a command's name
        and a word in a sentence are translated apart)."""
        return self._catalog.pgettext(context, message)

    def n(self, singular: str, plural: str, n: int) -> str:
        """``ngettext`` with ``{n}`` filled in: ``tr.n("{n} card", "{n} cards", 2)``."""
        return self.ngettext(singular, plural, n).format(n=n)

    def __repr__(self) -> str:
        return f"Tr({self.lang!r})"


def catalog_path(lang: str) -> Path:
    """Where the ``.po`` catalog of ``lang`` is."""
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translator(lang: str) -> Tr:
    """The translations of ``lang`` (a key of :data:`LANGUAGES`; any other reads English),
    compiled from its ``.po`` at first use and kept.

    Raises:
        babel.messages.pofile.PoFileError: a catalog that can't be read (a test reads each).
    """
    lang = language_of(lang)
    if lang == ENGLISH:
        return Tr(lang, gettext.NullTranslations())
    with catalog_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Tr(lang, gettext.GNUTranslations(compiled))


ENGLISH_TR = translator(ENGLISH)
"""English: the source text (tests, logs, and the default where no language is known)."""


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[Any]:
    """The Babel extraction method of ``babel.cfg``: Babel's own for Python (``_``, ``N_``,
    ``ngettext``, ``n``), and each refusal's literal text, which the engine (standard library only)
    and the bot's ``UnoError`` subclasses raise unmarked: ``default_message = "..."`` and
    ``raise SomeError("...")`` or ``raise SomeError.of("...", value=...)`` (capitalized: a sentence), the Wild Customizable rules' names
    and the sides' names. Those are translated where they are shown (``bot.client.errors``,
    ``bot.render``)."""
    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for node in ast.walk(ast.parse(source)):
        text: ast.expr | None = None
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "default_message" for t in node.targets
        ):
            text = node.value
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            text = node.exc.args[0]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "CustomRule":
            text = node.args[1]  # a Wild Customizable rule's name
        elif isinstance(node, ast.keyword) and node.arg == "side_names" and isinstance(node.value, ast.Tuple):
            yield from ((e.lineno, "", e.value, []) for e in node.value.elts if isinstance(e, ast.Constant))
        if isinstance(text, ast.Constant) and isinstance(text.value, str) and text.value[:1].isupper():
            yield text.lineno, "", text.value, []
