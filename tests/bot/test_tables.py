"""Lobby rules, snapshots and the registry's locks (bot/tables.py)."""

from __future__ import annotations

import random

import pytest

from bot.engine import ai
from bot.engine.errors import BadOption, NotInGame
from bot.engine.options import Options, Scoring
from bot.tables import Handover, LobbyError, Seat, Table, level_named, options_from


def _lobby(*names: str) -> Table:
    table = Table.new(guild_id=1, channel_id=2, host=Seat("1", names[0]))
    for i, name in enumerate(names[1:], start=2):
        table.join(Seat(str(i), name))
    return table


def test_join_twice_and_full_table_are_refused() -> None:
    """A seated player can't join again, and an eleventh seat is refused."""
    table = _lobby("Ana", "Ben")
    with pytest.raises(LobbyError):
        table.join(Seat("2", "Ben"))
    for _ in range(8):
        table.add_ai()
    with pytest.raises(LobbyError):
        table.add_ai()
    assert len(table.seats) == 10


def test_a_bot_has_a_level_shown_by_its_name_and_saved_with_the_table() -> None:
    """Bots sit at easy, normal or hard (docs/rules.md §5.4): a level other than normal shows by
    the name, every level survives a snapshot (an old snapshot's bots are normal), and an unknown
    level is refused without seating anyone."""
    table = _lobby("Ana")
    with pytest.raises(LobbyError, match="easy, normal or hard"):
        table.add_ai("expert")
    assert len(table.seats) == 1
    for level in ("hard", "normal", "easy"):
        table.add_ai(level)
    assert [(s.name, s.level) for s in table.seats[1:]] == [
        ("Bot 1 (hard)", "hard"), ("Bot 2", "normal"), ("Bot 3 (easy)", "easy")
    ]  # fmt: skip
    snapshot = table.to_snapshot()
    assert [s.level for s in Table.from_snapshot(snapshot).seats] == ["normal", "hard", "normal", "easy"]
    snapshot["seats"] = [seat[:2] for seat in snapshot["seats"]]  # saved before levels
    assert {s.level for s in Table.from_snapshot(snapshot).seats} == {"normal"}
    snapshot["seats"][1].append("expert")
    with pytest.raises(BadOption):
        Table.from_snapshot(snapshot)
    # A rematch reads its bots back from the game's record, where only their names are kept.
    assert [level_named(s.name) for s in table.seats[1:]] == ["hard", "normal", "easy"]
    assert level_named("Bot 4 (for Ana)") == "normal"


def test_host_leaving_hands_the_lobby_to_the_next_human() -> None:
    """When the host stands up, the next human becomes host (never a bot)."""
    table = _lobby("Ana")
    table.add_ai()
    table.join(Seat("5", "Cy"))
    table.leave_lobby("1")
    assert table.host.id == "5"


def test_start_needs_two_players_and_valid_options() -> None:
    """One player can't start; partners with three players is a bad option."""
    table = _lobby("Ana")
    with pytest.raises(LobbyError):
        table.start()
    table.join(Seat("2", "Ben"))
    table.join(Seat("3", "Cy"))
    table.configure(options=Options(partners=True))
    with pytest.raises(BadOption):
        table.start()
    assert table.state == "lobby"


def test_remove_ai_takes_the_last_added_bot() -> None:
    """The host's Remove bot takes the newest computer seat; none left, or a started game, is refused."""
    table = _lobby("Ana")
    table.add_ai()
    table.join(Seat("2", "Ben"))
    table.add_ai()
    v = table.version
    assert table.remove_ai().name == "Bot 2"
    assert [s.name for s in table.seats] == ["Ana", "Bot 1", "Ben"] and table.version == v + 1
    table.remove_ai()
    with pytest.raises(LobbyError):
        table.remove_ai()
    table.add_ai()
    table.start(seed=1)
    with pytest.raises(LobbyError):
        table.remove_ai()


def test_options_that_cannot_go_together_are_refused_when_chosen() -> None:
    """Options no table could start with are refused when chosen, and nothing changes."""
    table = _lobby("Ana", "Ben")
    table.configure(options=Options(partners=True))
    v = table.version
    with pytest.raises(BadOption, match="Partners and elimination"):
        table.configure(variant="flip", options=Options(partners=True, elimination=True))
    assert table.options == Options(partners=True) and table.variant == "classic" and table.version == v
    with pytest.raises(BadOption, match="Partners and elimination"):
        options_from({"partners": True, "elimination": True, "variant": "classic"})
    with pytest.raises(BadOption, match="can't be a single round"):
        table.configure(options=Options(elimination=True, scoring=Scoring.SINGLE_ROUND))
    assert table.options == Options(partners=True) and table.version == v


def test_lobby_changes_bump_the_version() -> None:
    """Every lobby change bumps the version carried by the lobby's buttons."""
    table = _lobby("Ana")
    v = table.version
    table.add_ai()
    assert table.version == v + 1


@pytest.mark.parametrize("variant", ["classic", "flip", "harry-potter"])
def test_snapshot_round_trips_mid_game(variant: str) -> None:
    """A table in the middle of a game restores exactly from its snapshot."""
    table = _lobby("Ana", "Ben")
    table.add_ai()
    table.configure(variant=variant)
    table.start(seed=3)
    game = table.game
    assert game is not None
    rng = random.Random(3)
    for _ in range(15):
        player = game.pending.player
        assert player is not None
        game.apply(player, ai.random_action(game, player, rng))
        if game.round_over:
            break
    table.log.append("a line")
    snap = table.to_snapshot()
    again = Table.from_snapshot(snap)
    assert again.to_snapshot() == snap


def test_bad_snapshot_is_refused() -> None:
    """A snapshot of an unknown version is refused with BadOption, not a crash."""
    with pytest.raises(BadOption):
        Table.from_snapshot({"snapshot": 99})
    with pytest.raises(BadOption):
        Table.from_snapshot({"snapshot": 1, "guild_id": 1})


def test_an_unknown_edition_is_refused_and_changes_nothing() -> None:
    """A lobby asked for an edition that doesn't exist (a forged select value) refuses it."""
    table = Table.new(guild_id=1, channel_id=2, host=Seat("10", "Ana"), variant="flip")
    version = table.version
    with pytest.raises(BadOption):
        table.configure(variant="uno-deluxe")
    assert table.variant == "flip" and table.version == version


def test_a_rematch_lobby_goes_back_to_the_previous_host_when_they_join() -> None:
    """A rematch opened by another player keeps the previous game's host (also through a save),
    who hosts again on joining; anyone else joining changes nothing."""
    table = Table.new(guild_id=1, channel_id=2, host=Seat("11", "Ben"))
    table.rematch_host = "10"
    table = Table.from_snapshot(table.to_snapshot())
    table.join(Seat("12", "Cy"))
    assert table.host.id == "11" and table.rematch_host == "10"
    table.join(Seat("10", "Ana"))
    assert (table.host.id, table.rematch_host) == ("10", "")


def test_a_bot_takes_over_a_seat_with_its_hand() -> None:
    """``hand_to_bot`` puts a bot in the player's seat with their hand, noting who sat there until
    when (kept by the snapshot); a player out of the game can't have theirs given."""
    table = Table.new(guild_id=1, channel_id=2, host=Seat("10", "Ana"))
    table.join(Seat("11", "Ben"))
    table.join(Seat("12", "Cy"))
    table.start(seed=5)
    assert table.game is not None
    hand = list(table.game.hands["11"])
    moves = len(table.game.to_dict()["journal"])
    bot = table.hand_to_bot("11")
    assert (bot.id, bot.name) == ("ai:1", "Bot 1 (for Ben)") and table.seats[1] == bot
    assert table.game.hands["ai:1"] == hand and "11" not in table.game.players
    assert table.handovers == [Handover("ai:1", "11", "Ben", moves)] and table.left == ["11"]
    table.leave_game("12")
    with pytest.raises(NotInGame):
        table.hand_to_bot("12")
    assert table.left == ["12", "11"]  # they left the game: they played it (docs/rules.md §5.1)
    restored = Table.from_snapshot(table.to_snapshot())
    assert restored.handovers == table.handovers and restored.left == ["12", "11"]
