"""The players' languages through real discord.py: each user's hand in their Discord client's
language, the table in the channel's, the slash commands as each user's client shows them."""

from __future__ import annotations

from bot.localdiscord.interactions import command_paths
from bot.localdiscord.testing import LocalDiscord
from tests.e2e.helpers import click, command, labels, published_table, rig, table_message, table_of


def _paths(uno: LocalDiscord, locale: str) -> set[str]:
    return {c["path"] for c in command_paths(uno.stand_in.state, locale)}


async def test_a_french_and_a_spanish_player_at_a_portuguese_table(uno: LocalDiscord) -> None:
    """The channel is set to Brazilian Portuguese; a French user opens the lobby with the
    command's French name and a Spanish user joins: the lobby and table are in Portuguese, each
    hand in its user's language, and a hand refreshed in the background keeps it."""
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    bob.locale, carol.locale = "fr", "es-419"
    uno.stand_in.grant(alice, "manage_channels")
    answer = await command(uno, alice, ch, "uno settings", language="pt_BR")
    assert answer is not None and "Language: **Português (Brasil)**" in answer.text  # alice reads English

    # Each client shows the commands in its language (as registered through the translator).
    assert {"uno nouvelle", "uno main", "uno réglages"} <= _paths(uno, "fr")
    assert {"uno nueva", "uno mano", "uno ajustes"} <= _paths(uno, "es-419")
    assert "uno new" in _paths(uno, "en-US") and "uno nouvelle" not in _paths(uno, "en-US")
    french_new = next(c for c in command_paths(uno.stand_in.state, "fr") if c["path"] == "uno nouvelle")
    assert french_new["description"] == "Ouvrir une nouvelle partie d’UNO dans ce salon."
    assert "édition" in [o["name"] for o in french_new["options"]]

    lobby = await command(uno, bob, ch, "uno nouvelle", édition="classic")  # typed in French
    assert lobby is not None and lobby.text.startswith("### Sala de UNO\n")
    assert {"Entrar", "Sair", "Adicionar bot", "Começar"} <= set(labels(lobby))
    await click(uno, carol, lobby, "Entrar")
    await click(uno, bob, lobby, "Começar")
    await uno.stand_in.wait_until(lambda: published_table(uno, ch))
    table = table_of(uno, ch)
    assert table.language == "pt_BR"
    rig(
        uno, ch, variant="classic", dealer="carol",
        hands={"bob": ["red 2", "green 4", "wild draw four"], "carol": ["red 5", "yellow 6", "blue 7"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    table.log.clear()
    await uno.stand_in.wait_until(lambda: "Minha mão" in labels(table_message(uno, ch)))
    bot_table = table_message(uno, ch)

    bob_hand = await click(uno, bob, bot_table, "Minha mão")
    assert bob_hand is not None and bob_hand.ephemeral
    assert "Ta main dans" in bob_hand.text and "Tes cartes" in bob_hand.text and "🟥 2 rouge" in bob_hand.text
    assert "Piocher" in labels(bob_hand) and "🌈 joker +4" in labels(bob_hand)
    carol_hand = await click(uno, carol, bot_table, "Minha mão")
    assert carol_hand is not None and "Tu mano en" in carol_hand.text and "Tus cartas" in carol_hand.text
    assert "Robar" not in labels(carol_hand)  # not carol's move: no Draw button, and no English one either
    assert "Draw" not in labels(bob_hand)

    await click(uno, bob, bob_hand, "🟥 2 rouge")  # bob plays: the table says so in Portuguese
    shown = await uno.stand_in.wait_until(
        lambda: "bob jogou 🟥 2 vermelho" in table_message(uno, ch).text and table_message(uno, ch)
    )
    assert "Carta do topo: **🟥 2 vermelho**" in shown.text and "Esperando **carol**" in shown.text
    # carol's open hand is refreshed in the background, in Spanish still: now her move.
    refreshed = await uno.stand_in.wait_until(
        lambda: (m := uno.stand_in.state.messages.get(carol_hand.id)) and "Te toca" in m.text and m
    )
    assert "Tus cartas" in refreshed.text and "Robar" in labels(refreshed)
    # A refusal is in the refused user's language, typed with the Spanish names.
    answer = await command(uno, carol, ch, "uno expulsar", miembro="carol")
    assert answer is not None and answer.text == "No puedes expulsarte; /uno salir te saca de la mesa."
    # After a restart the table's log says so in the table's language too.
    await uno.restart_client()
    await uno.stand_in.wait_until(
        lambda: "♻️ O bot reiniciou; a partida continua." in table_message(uno, ch).text
    )


async def test_rules_in_the_readers_language(uno: LocalDiscord) -> None:
    """``/uno rules`` answers a French user from the French page (docs/rules.fr.md), finds a card
    by its French name; an English user still reads English."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    bob.locale = "fr"
    answer = await command(uno, bob, ch, "uno règles", édition="flip", carte="passe tous")
    assert answer is not None and answer.ephemeral
    assert answer.text.startswith("**7.8 Passe tous**\nFace sombre.") and "English" not in answer.text
    answer = await command(uno, bob, ch, "uno règles", édition="flip")
    assert answer is not None and answer.text.startswith(
        "## 7. UNO Flip\n112 cartes à deux faces, 2 à 10 joueurs."
    )
    answer = await command(uno, alice, ch, "uno rules", variant="flip", card="skip everyone")
    assert answer is not None and answer.text.startswith("**7.8 Skip Everyone**\nDark side.")
