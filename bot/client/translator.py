"""The slash commands in the players' languages: discord.py's ``app_commands.Translator`` over the
gettext catalogs (`bot.i18n`).

discord.py passes every command, group and option name, description and choice name through
:class:`CommandTranslator` when it syncs, and registers what it returns as the command's
``name_localizations`` / ``description_localizations``; Discord then shows each user the
commands in their client's language. The catalogs hold them with a context (``msgctxt``) saying
what they are, so a command named "table" and the word "table" in a sentence are translated apart:
:data:`CONTEXTS`. A name Discord would refuse (upper case, a space, over 32 characters) is never
registered: :func:`valid_name` falls back to the English name.

``python -m bot.client.translator bot/locales/uno.pot`` adds every command string to the template
(``scripts/i18n`` runs it after Babel's extraction).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from bot.i18n import ENGLISH, language_of, translator

CONTEXTS = {
    app_commands.TranslationContextLocation.command_name: "command name",
    app_commands.TranslationContextLocation.group_name: "command name",
    app_commands.TranslationContextLocation.parameter_name: "option name",
    app_commands.TranslationContextLocation.command_description: "command description",
    app_commands.TranslationContextLocation.group_description: "command description",
    app_commands.TranslationContextLocation.parameter_description: "option description",
    app_commands.TranslationContextLocation.choice_name: "choice",
}
"""The catalog context of each kind of command string."""
NAMES = frozenset({"command name", "option name"})
_NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule, for the scripts we use: \w is letters, digits and _


def valid_name(name: str) -> bool:
    """Whether Discord takes ``name`` as a command or option name: 1 to 32 letters, digits, ``-``
    or ``_``, lower case where the letter has cases (Discord's "Application Command Naming").

    >>> valid_name("règles_maison"), valid_name("Règles"), valid_name("forget me")
    (True, False, False)
    """
    return bool(_NAME.match(name)) and name == name.lower()


class CommandTranslator(app_commands.Translator):
    """Command strings from the catalogs (see the module's docstring); English is the source."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """``string`` in ``locale``'s language, or None (Discord shows the English one) where
        there is no catalog, no translation, or a name Discord would refuse."""
        lang = language_of(locale)
        kind = CONTEXTS.get(context.location)
        if lang == ENGLISH or kind is None:  # English is the source; other locales read it
            return None
        text = translator(lang).pgettext(kind, string.message)
        if text == string.message or (kind in NAMES and not valid_name(text)):
            return None
        return text


def command_strings(tree: app_commands.CommandTree[discord.Client]) -> Iterator[tuple[str, str]]:
    """Every (context, English text) of the tree's global commands that Discord shows a user."""
    for command in tree.get_commands():
        yield from _strings(command)


def _strings(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu,
) -> Iterator[tuple[str, str]]:
    yield "command name", command.name
    if isinstance(command, app_commands.ContextMenu):
        return
    yield "command description", command.description
    if isinstance(command, app_commands.Group):
        for sub in command.commands:
            yield from _strings(sub)
        return
    for parameter in command.parameters:
        yield "option name", parameter.name
        yield "option description", parameter.description
        for choice in parameter.choices:
            yield "choice", choice.name


def _bot_tree() -> app_commands.CommandTree[discord.Client]:
    """The bot's command tree, built without connecting (the cog only registers commands)."""
    import asyncio
    from types import SimpleNamespace

    from cogs.uno import Uno

    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    cog = Uno(SimpleNamespace(service=None))  # type: ignore[arg-type]
    group = cog.__cog_app_commands_group__
    assert group is not None  # a GroupCog: /uno and its subcommands
    tree.add_command(group)
    asyncio.run(client.close())
    return tree


def add_to_template(path: Path) -> int:
    """Add every command string to the ``.pot`` template at ``path``; returns how many."""
    with path.open("rb") as f:
        catalog = read_po(f)
    strings = sorted(set(command_strings(_bot_tree())))
    for context, text in strings:
        catalog.add(text, context=context)
    with path.open("wb") as f:
        write_po(f, catalog, omit_header=True, no_location=True, sort_output=True)
    return len(strings)


if __name__ == "__main__":
    print(f"{add_to_template(Path(sys.argv[1]))} command strings added to {sys.argv[1]}")
