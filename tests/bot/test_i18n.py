"""The message catalogs (bot/i18n.py): complete, with the English placeholders, plural forms right,
slash command names Discord takes; and whose language each message is in."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from discord import app_commands

from bot import render
from bot.client.errors import message_for
from bot.client.translator import CommandTranslator, _bot_tree, command_strings, valid_name
from bot.engine import ai
from bot.engine.cards import Face
from bot.engine.editions import EDITIONS
from bot.engine.options import HouseRule, Options
from bot.engine.variants import VARIANTS
from bot.i18n import ENGLISH, LANGUAGES, catalog_path, channel_language, language_of, translator
from bot.localdiscord.limits import walk_components
from bot.tables import Seat, Table

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "n": (1, 2), "say": None}
"""As scripts/i18n gives them to Babel."""
OTHERS = sorted(set(LANGUAGES) - {ENGLISH})
_PLACEHOLDER = re.compile(r"(?<!\{)\{([a-z_]*)\}(?!\})|\{\{([a-z_]+)\}\}")


def _extracted() -> set[tuple[str | None, str]]:
    """Every (context, msgid) the code has now: Babel's extraction with babel.cfg, and the slash
    commands' strings (as scripts/i18n extract makes the template)."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: set[tuple[str | None, str]] = set()
    for folder in ("bot", "cogs"):
        for _, _, message, _, context in extract_from_dir(
            ROOT / folder, method_map, options_map, keywords=KEYWORDS
        ):
            found.add((context, message[0] if isinstance(message, tuple) else message))
    found |= set(command_strings(_bot_tree()))
    return found


@pytest.fixture(scope="module")
def extracted() -> set[tuple[str | None, str]]:
    return _extracted()


def _catalog(lang: str) -> dict[tuple[str | None, str], object]:
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id): m for m in catalog if m.id}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_is_translated_in_every_catalog(
    lang: str, extracted: set[tuple[str | None, str]]
) -> None:
    """A string added to the code and not to a catalog (scripts/i18n update, then translate it)
    fails here, as does an empty or fuzzy translation."""
    catalog = _catalog(lang)
    missing = sorted((c or "", m) for c, m in extracted if (c, m) not in catalog)
    assert not missing, f"{lang}: not in the catalog (run scripts/i18n update): {missing[:10]}"
    untranslated = [
        key
        for key, m in catalog.items()
        if key in extracted
        and (not m.string or (isinstance(m.string, tuple) and not all(m.string)) or m.fuzzy)  # type: ignore[attr-defined]
    ]
    assert not untranslated, f"{lang}: untranslated or fuzzy: {untranslated[:10]}"


def _placeholders(text: str) -> list[str]:
    return sorted({a or b for a, b in _PLACEHOLDER.findall(text)})  # one may be used twice


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_keep_the_english_placeholders(lang: str) -> None:
    """``{name}``, ``{n}``, ``{card}``... are filled in by the code: a translation must have the
    same ones (each plural form those of the English plural)."""
    wrong = []
    for (_, _), m in _catalog(lang).items():
        msgid, msgstr = m.id, m.string  # type: ignore[attr-defined]
        pairs = [(msgid[1], form) for form in msgstr] if isinstance(msgid, tuple) else [(msgid, msgstr)]
        wrong += [(english, form) for english, form in pairs if _placeholders(english) != _placeholders(form)]
    assert not wrong, f"{lang}: placeholders differ: {wrong[:5]}"


def test_a_translation_with_a_wrong_placeholder_is_caught() -> None:
    """The check above reads placeholders as the code fills them (``{{name}}`` is filled later)."""
    assert _placeholders("{name} drew {n} cards") == ["n", "name"]
    assert _placeholders("{{name}}'s hand when the {card} was played") == ["card", "name"]
    assert _placeholders("{nom} a pioché {n} cartes") != _placeholders("{name} drew {n} cards")


PLAYER_SLOTS = ("name", "names", "host", "winner", "winners", "by", "who", "bot", "target", "mention")
"""The placeholders a player's (or a team's) name fills."""


def test_french_never_writes_a_word_it_would_elide_before_a_player_s_name() -> None:
    """ "de alice", "que alice" are wrong (French elides: "d’alice", "qu’alice") and "de Bot 1"
    right, so no French message puts de, que, le, la or ne before a name: "Palmarès : {name}",
    "{bot} remplace {name}"."""
    slot = "|".join(PLAYER_SLOTS)
    before = re.compile(
        rf"\b(de|que|lorsque|puisque|jusque|le|la|ne|se|je|me|te)\s+\**\{{\{{?({slot})\}}", re.I
    )
    found = []
    for m in _catalog("fr").values():
        said = m.string  # type: ignore[attr-defined]
        found += [form for form in ([said] if isinstance(said, str) else said) if before.search(form)]
    assert not found, found


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "1 card", "2 cards"),
        ("fr", "1 carte", "2 cartes"),
        ("es", "1 carta", "2 cartas"),
        ("pt_BR", "1 carta", "2 cartas"),
    ],
)
def test_plural_forms(lang: str, one: str, two: str) -> None:
    tr = translator(lang)
    assert (render.count(1, "card", tr), render.count(2, "card", tr)) == (one, two)
    assert render.count(0, "card", translator("fr")) == "0 carte"  # French: 0 takes the singular


def test_each_language_names_the_cards_as_its_sheets_do() -> None:
    names = {
        lang: render.faces.face_name(Face.parse("wild draw four"), translator(lang)) for lang in LANGUAGES
    }
    assert names == {
        "en": "wild draw four",
        "fr": "joker +4",
        "es": "comodín roba 4",
        "pt_BR": "curinga comprar 4",
    }
    assert render.faces.face_name(Face.parse("red 7"), translator("fr")) == "7 rouge"
    assert render.edition_name("cars2", translator("pt_BR")) == "UNO Carros 2"


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        ("fr", "fr"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("pt-BR", "pt_BR"),
        ("en-GB", "en"),
        ("de", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_read_their_catalog(locale: str | None, lang: str) -> None:
    assert language_of(discord.Locale(locale) if locale else None) == lang


def test_a_channel_speaks_its_setting_else_its_server_s_language() -> None:
    guild = SimpleNamespace(guild_locale=discord.Locale("es-419"))
    assert channel_language({"language": "fr"}, guild) == "fr"
    assert channel_language({}, guild) == "es"
    assert channel_language({}, SimpleNamespace(guild_locale=None)) == "en"


def test_a_refusal_naming_a_value_reads_in_each_language() -> None:
    """A refusal raised once is said to each reader in theirs (``UnoError.of``)."""
    from bot.engine.errors import NotInGame

    error = NotInGame.of("{name} isn't at this table.", name="Zoé")
    assert error.message == "Zoé isn't at this table."
    assert message_for(error, translator("fr")) == "Zoé n’est pas à cette table."
    assert message_for(NotInGame(), translator("pt_BR")) == "Você não joga nesta partida."


def test_the_engine_s_refusals_naming_a_value_read_in_each_language() -> None:
    """A card or color the engine does not know (a forged press, a typo) is refused in the
    reader's language, the value kept as given."""
    from bot.engine.dos.cards import DosCard
    from bot.engine.errors import UnoError
    from bot.engine.game import Game

    game = Game(["a", "b"], seed=1)
    game.start_round()
    refused = []
    for act in (lambda: game.play(game.pending.player or "", "blue 11"), lambda: DosCard.parse("purple 3")):
        with pytest.raises(UnoError) as caught:
            act()
        refused.append(caught.value)
    french = [message_for(e, translator("fr")) for e in refused]
    assert french == ["Aucune carte ne s’appelle blue 11.", "Aucune carte ne s’appelle purple 3."]
    assert message_for(refused[0], translator("es")) == "No hay ninguna carta llamada blue 11."


def test_one_table_s_language_never_leaks_into_another_s() -> None:
    """Two tables rendered in turn in one process, one French and one Spanish: each in its own
    (the language is an argument, never a global)."""
    french = Table.new(guild_id=1, channel_id=1, host=Seat("1", "Zoé"))
    spanish = Table.new(guild_id=1, channel_id=2, host=Seat("2", "Iker"))
    french.language, spanish.language = "fr", "es"
    for _ in range(2):
        fr_lobby = _view_text(render.lobby(french, translator(french.language)))
        es_lobby = _view_text(render.lobby(spanish, translator(spanish.language)))
        assert fr_lobby.startswith("### Salon d’attente UNO\n") and es_lobby.startswith("### Sala de UNO\n")


@pytest.mark.parametrize(
    ("lang", "hard", "taken_over"), [("fr", "difficile", "pour"), ("es", "difícil", "por")]
)
def test_a_bot_s_level_and_whose_seat_it_took_read_in_the_table_s_language(
    lang: str, hard: str, taken_over: str
) -> None:
    """A bot's name is stored in English ("Bot 2 (hard)", "Bot 3 (for Zoé)") and said in the
    reader's language in the lobby and the game's lines."""
    table = Table.new(guild_id=1, channel_id=1, host=Seat("1", "Zoé"))
    table.join(Seat("4", "Iker"))
    table.add_ai("hard")
    table.start(seed=3)
    bot = table.hand_to_bot("1")
    tr = translator(lang)
    lobby = _view_text(render.lobby_over(table, "x", tr, ""))
    assert f"Bot 1 ({hard})" in lobby and "(hard)" not in lobby
    assert render.seat_name(bot.name, tr) == f"Bot 2 ({taken_over} Zoé)"
    assert f"Bot 2 ({taken_over} Zoé)" in lobby


@pytest.mark.parametrize("lang", OTHERS)
def test_command_names_and_descriptions_fit_discord_rules(lang: str) -> None:
    """Every command and option name a catalog gives is one Discord takes (lower case, no space,
    at most 32 characters), every description and choice at most 100 characters."""
    tr = translator(lang)
    for context, text in command_strings(_bot_tree()):
        translated = tr.pgettext(context, text)
        if context in ("command name", "option name"):
            assert valid_name(translated), (lang, text, translated)
        else:
            assert 1 <= len(translated) <= 100, (lang, text, translated)


def test_the_command_translator_localizes_for_each_catalog_s_locales() -> None:
    """What discord.py registers as ``name_localizations``: the catalog's name for fr, es-ES,
    es-419 and pt-BR, nothing for English or a language without a catalog."""
    translator_ = CommandTranslator()
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, None)
    name = app_commands.locale_str("new")
    got = {
        loc: asyncio.run(translator_.translate(name, discord.Locale(loc), context))
        for loc in ("fr", "es-ES", "es-419", "pt-BR", "en-US", "de")
    }
    assert got == {
        "fr": "nouvelle",
        "es-ES": "nueva",
        "es-419": "nueva",
        "pt-BR": "nova",
        "en-US": None,
        "de": None,
    }


def _english_left(lang: str) -> list[str]:
    """The English phrases a ``lang`` reader should never see: each literal run (between
    placeholders) of two words or more of every message that the catalog says otherwise."""
    phrases = set()
    for m in _catalog(lang).values():
        msgid, msgstr = m.id, m.string  # type: ignore[attr-defined]
        english = [msgid] if isinstance(msgid, str) else list(msgid)
        said = [msgstr] if isinstance(msgstr, str) else list(msgstr)
        for text in english:
            for run in re.split(r"\{\{?[a-z_]*\}?\}", text):
                run = run.strip(" .:,!()*·→—…")
                if " " in run and len(run) >= 8 and not any(run in s for s in said):
                    phrases.add(run)
    return sorted(phrases)


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(EDITIONS))
@pytest.mark.parametrize("lang", OTHERS)
def test_every_edition_plays_to_its_end_with_no_english_left(lang: str, variant: str) -> None:
    """A whole game of each edition (DOS too), every house rule on, in each language: its lobby, table,
    every hand, every log line, round summary and the standings hold no English phrase (a string
    the code shows without translating it, or that a catalog lacks)."""
    tr, rng = translator(lang), random.Random(7)
    options = Options(house_rules=frozenset(HouseRule), customizable_rule="swap-hands", target_score=60)
    seats = [Seat(str(i), name) for i, name in enumerate(["Zoé", "Iker", "Ana", "Léo"], 1)]
    table = Table.new(guild_id=1, channel_id=5, host=seats[0], variant=variant, options=options)
    for seat in seats[1:]:
        table.join(seat)
    table.language = lang
    shown = [_view_text(render.lobby(table, tr))]
    table.log.extend(render.log_lines(table, table.start(seed=7), tr))
    game = table.game
    assert game is not None
    for _ in range(5000):
        if game.game_over:
            break
        player = game.pending.player
        assert player is not None
        events = game.apply(player, ai.choose(game, player, rng, "easy"))
        table.log.extend(render.log_lines(table, events, tr))
        shown += [*table.log, _view_text(render.table(table, tr))]
        shown += [_view_text(render.hand(table, p, tr)) for p in game.seated]
        if game.round_over and not game.game_over:
            shown.append(render.round_summary(table, game.round_winner, game.round_points, tr))
            table.log.extend(render.log_lines(table, game.start_round(), tr))
    assert game.game_over
    shown += [_view_text(render.standings(table, tr))]
    text = "\n".join(shown)
    leaked = [phrase for phrase in _english_left(lang) if phrase in text]
    assert not leaked, f"{lang} {variant}: English left: {leaked[:5]}"
    if lang == "fr":  # French puts a space before : ; ! ? ("alice : DOS !"), built lines too;
        # the UNO! and DOS! buttons and marks are the calls' names, as their cards print them.
        found = {m.group().strip("*") for m in re.finditer(r"\S+[:;!?](?=\s|$)", text)}
        tight = sorted(found - {"UNO!", "DOS!"})
        assert not tight, f"{variant}: no space before the mark: {tight[:5]}"


def _view_text(view: discord.ui.LayoutView) -> str:
    """A Components V2 message's text displays, then its buttons' labels and selects'
    placeholders and options, one a line."""
    parts = list(walk_components(view.to_components()))
    texts = [c["content"] for c in parts if c["type"] == 10]
    labels = [str(c.get("label") or c.get("placeholder") or "") for c in parts if c["type"] in (2, 3)]
    options = [str(o["label"]) for c in parts for o in c.get("options", ())]
    return "\n".join(texts + labels + options)


def test_every_rank_of_every_edition_has_a_name_to_translate() -> None:
    """A new card needs its name in ``RANK_NAMES`` (else it would read in English everywhere)."""
    ranks = {f.rank for v in VARIANTS.values() for f in (*v.light, *v.dark)}
    unnamed = [r for r in ranks if r not in render.faces.RANK_NAMES and r.number is None]
    assert not unnamed


def test_zero_takes_the_plural_in_portuguese_and_the_singular_in_french() -> None:
    """Brazilian Portuguese says "0 rodadas" (CLDR's rule, which Babel wrote into the catalog,
    made zero singular: "0 rodada"); French says "0 manche"."""
    pt, fr = translator("pt_BR"), translator("fr")
    assert [pt.n("{n} round", "{n} rounds", n).format(n=n) for n in (0, 1, 2)] == [
        "0 rodadas",
        "1 rodada",
        "2 rodadas",
    ]
    assert fr.n("{n} round", "{n} rounds", 0).format(n=0) == "0 manche"
