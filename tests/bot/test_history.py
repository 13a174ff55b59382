"""Past games from their replays: the text file of a long game, and the replay check with its
command line (``python -m bot.replay``) catching a record its replay doesn't reach."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

from bot.engine import ai
from bot.i18n import translator
from bot.localdiscord.limits import walk_components
from bot.render.history import FILE_LIMIT, history_list, history_options, replayed, summary
from bot.render.names import named, scores_text
from bot.replay import check, main
from bot.service.acting import _game_result
from bot.service.leaving import Leaving
from bot.storage import GameRecord, GameResult
from bot.storage.sqlite import SqliteStorage
from bot.tables import Seat, Table

EN = translator("en")
FR = translator("fr")
MARKDOWN = "**Bold** _it_ @everyone"


def played(seed: int, bots: int = 9, *, variant: str = "classic", target: int = 500) -> GameResult:
    """A game of ``bots`` computer players and one human named with Markdown, played by the AI
    to its end and recorded as the bot records it."""
    table = Table.new(guild_id=1, channel_id=2, host=Seat("10", "*Ana*"), variant=variant)
    for _ in range(bots):
        table.add_ai()
    table.options = dataclasses.replace(table.options, target_score=target)
    table.start(seed=seed)
    game, rng = table.game, random.Random(seed)
    assert game is not None
    while not game.game_over:
        if game.round_over:
            table.recorded_rounds = game.round_no
            game.start_round()
            continue
        game.apply(game.pending.player, ai.choose(game, game.pending.player, rng))
    table.recorded_rounds = game.round_no
    return _game_result(table)


def test_long_game_file_fits_discord() -> None:
    """A ten-player game to 2,000 points writes every round, every hand dealt and the standings,
    names as typed, well under Discord's upload limit; its summary has a line per round."""
    result = played(7, target=2000)
    record = GameRecord(result, time.time())
    started = time.perf_counter()
    game = replayed(record, EN)
    seconds = time.perf_counter() - started
    size = len(game.text.encode())
    assert result.rounds >= 2 and len(game.rounds) == result.rounds
    assert game.text.count("Start card:") == result.rounds and "*Ana* holds " in game.text
    assert game.text.rstrip().splitlines()[-11].startswith("🏆")
    assert size < FILE_LIMIT, size
    assert _text(summary(record, game, EN)).count("Round ") >= result.rounds
    print(
        f"{result.rounds} rounds, {len(result.replay['journal'])} journal entries: {size} bytes in {seconds:.2f} s"
    )


def test_a_dos_game_file_and_its_check(tmp_path: Path) -> None:
    """A DOS game (docs/rules.md §14) as a file, like UNO's: each deal with the Center Row and
    every hand, each move's log line, the Center Row after each turn, and the standings; its
    summary has a line per round; the replay check and ``python -m bot.replay`` pass on it."""
    result = played(4, bots=2, variant="dos", target=200)
    record = GameRecord(result, time.time())
    game = replayed(record, EN)
    text = game.text
    assert text.startswith(f"Game {result.game_id}: DOS, ended ")
    assert result.rounds >= 2 and len(game.rounds) == result.rounds
    deals = text.split("\n\nRound ")[1:]
    assert len(deals) == result.rounds
    for deal in deals:  # "1: Bot 2 deals", the row, each hand
        lines = deal.splitlines()
        assert lines[0].endswith(" deals") and lines[1].startswith("  Center Row: 1. ")
        assert [line.split(" holds ")[0] for line in lines[2:5]] == ["  *Ana*", "  Bot 1", "  Bot 2"]
    turns = text.count("  Center Row: ") - result.rounds
    assert turns > 10 and "matched pile" in text and ": DOS!" in text
    assert text.rstrip().splitlines()[-4].startswith("🏆") and "wins the game" in text
    assert _text(summary(record, game, EN)).count("Round ") >= result.rounds
    assert check(result) is None
    db = tmp_path / "uno.db"

    async def record_it() -> None:
        storage = SqliteStorage(db, checkpoint_seconds=None)
        await storage.open()
        await storage.delete_table(2, [result])
        await storage.close()

    asyncio.run(record_it())
    assert main(["--db", str(db), "--game", result.game_id]) == 0


def test_a_forgotten_dos_player_s_game_still_replays(tmp_path: Path) -> None:
    """``/uno forget-me`` renames the player in a DOS game's replay too (its journal names each
    entry's player, not a seat number): the game still replays, to its file and its check."""
    result = played(6, bots=1, variant="dos", target=100)
    assert any(player == "10" for player, _ in result.replay["journal"])

    async def forget() -> GameRecord | None:
        storage = SqliteStorage(tmp_path / "uno.db", checkpoint_seconds=None)
        await storage.open()
        await storage.delete_table(2, [result])
        await storage.forget_user("10")
        record = await storage.game(result.game_id)
        await storage.close()
        return record

    record = asyncio.run(forget())
    assert record is not None and record.result.replay is not None and "10" not in record.result.players
    assert "'10'" not in str(record.result.replay) and check(record.result) is None
    assert "a former player holds " in replayed(record, EN).text


def test_check_finds_a_record_its_replay_does_not_reach() -> None:
    """The check passes on a recorded game and names what differs on a tampered record."""
    result = played(3, bots=2, target=200)
    assert check(result) is None
    assert "rounds != stored 99" in str(check(dataclasses.replace(result, rounds=99)))
    assert "winners" in str(check(dataclasses.replace(result, winners=["nobody"])))
    broken = {**result.replay, "journal": [*result.replay["journal"], [0, "draw"]]}
    assert "refused" in str(check(dataclasses.replace(result, replay=broken)))
    with pytest.raises(ValueError, match="no replay"):
        check(dataclasses.replace(result, replay=None))


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot.replay`` checks every stored game (0), reports a mismatch (1), one game
    by id, and refuses a missing file or game (2) without making a database."""
    good, bad = played(1, bots=2, target=200), played(2, bots=2, target=200)
    bad = dataclasses.replace(bad, game_id="tampered", rounds=bad.rounds + 1)
    old = dataclasses.replace(played(4, bots=1, target=100), game_id="old", replay=None)
    db = tmp_path / "uno.db"

    async def record(*results: GameResult) -> None:
        storage = SqliteStorage(db, checkpoint_seconds=None)
        await storage.open()
        await storage.delete_table(2, results)
        await storage.close()

    asyncio.run(record(good, old))
    assert main(["--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"ok        {good.game_id}" in out and "no replay old" in out
    assert "1 game(s) replayed, 0 mismatch(es), 1 without a replay" in out
    asyncio.run(record(bad))
    assert main(["--db", str(db)]) == 1
    assert "MISMATCH  tampered: " in capsys.readouterr().out
    assert main(["--db", str(db), "--game", good.game_id]) == 0
    assert main(["--db", str(db), "--game", "nope"]) == 2
    assert main(["--db", str(tmp_path / "missing.db")]) == 2
    assert not (tmp_path / "missing.db").exists()


def test_command_line_on_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot.replay --db postgresql://...`` checks the games of a PostgreSQL database
    (skipped without PostgreSQL)."""
    from bot.storage.postgres import PostgresStorage
    from tests.storage.helpers import fresh_schema

    url = fresh_schema()
    good = played(1, bots=2, target=200)
    bad = dataclasses.replace(played(2, bots=2, target=200), game_id="tampered")
    bad = dataclasses.replace(bad, rounds=bad.rounds + 1)

    async def record() -> None:
        storage = PostgresStorage(url)
        await storage.open()
        await storage.delete_table(2, [good, bad])
        await storage.close()

    asyncio.run(record())
    assert main(["--db", url, "--game", good.game_id]) == 0
    assert main(["--db", url]) == 1
    assert "MISMATCH  tampered: " in capsys.readouterr().out


def test_file_cut_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game longer than a file may hold is cut at a line's end, saying so, within the limit."""
    record = GameRecord(played(5, bots=3, target=300), time.time())
    whole = replayed(record, EN).text
    monkeypatch.setattr("bot.render.history.FILE_LIMIT", 2000)
    cut = replayed(record, EN).text
    assert len(cut.encode()) <= 2000 < len(whole.encode())
    assert cut.endswith("… the rest of this game is too long for one file.\n")
    assert whole.startswith(cut.rsplit("\n…", 1)[0] + "\n")


def test_list_names_as_each_place_shows_them() -> None:
    """The list's message escapes a name's Markdown; the select's options (no Markdown there)
    show it as typed; a game recorded without names shows bots by label, members by mention."""
    named = GameRecord(played(3, bots=2, target=200), time.time())
    legacy = GameRecord(dataclasses.replace(named.result, game_id="old", replay=None), time.time() - 60)
    listing = _text(history_list([named, legacy], EN))
    assert "\\*Ana\\*, Bot 1, Bot 2" in listing and "<@10>, Bot 1, Bot 2" in listing
    first, second = history_options([named, legacy], EN)
    assert "*Ana*, Bot 1, Bot 2" in str(first.description) and "\\" not in str(first.description)
    assert "a player, Bot 1, Bot 2" in str(second.description) and second.value == "old"
    assert "recorded before replays" in _text(summary(legacy, None, EN))


def test_a_game_played_in_a_thread_is_marked_in_the_select_too() -> None:
    """The list names the thread a game was played in; its select option says so too (an option
    can't show a channel mention)."""
    record = GameRecord(played(2, bots=1, target=200), time.time())
    here = record.result.channel_id
    (same,) = history_options([record], EN, here=here)
    (elsewhere,) = history_options([record], EN, here=here + 1)
    assert "thread" not in same.label and elsewhere.label.endswith("· 🧵 in a thread")
    assert f"<#{here}>" in _text(history_list([record], EN, here=here + 1))


def handed_over(name: str, *, variant: str = "classic") -> tuple[GameResult, Table]:
    """A partners game of two people (the host named with Markdown, and ``name``) and an easy
    and a hard bot, played by the AI to its end; ``name`` hands their seat to a bot (Bot 3) in
    the first round, after 20 moves (docs/rules.md §5.3). The result as the bot records it,
    and the table at the end."""
    table = Table.new(guild_id=1, channel_id=2, host=Seat("10", MARKDOWN), variant=variant)
    table.join(Seat("11", name))
    table.add_ai("easy")
    table.add_ai("hard")
    table.options = dataclasses.replace(table.options, partners=True, target_score=200)
    table.start(seed=3)
    rng = random.Random(3)
    while (game := table.game) is not None and not game.game_over:
        if game.round_over:
            table.recorded_rounds = game.round_no
            game.start_round()
            continue
        if game.version == 20 and not table.handovers:
            assert game.round_no == 1 and table.in_game("11")
            table.hand_to_bot("11")
            continue
        game.apply(game.pending.player, ai.choose(game, game.pending.player, rng))
    assert game is not None
    table.recorded_rounds = game.round_no
    return _game_result(table), table


@pytest.mark.parametrize("variant", ["classic", "dos"])
def test_the_file_names_who_made_each_move(variant: str) -> None:
    """A seat a bot took over is named by who sat there at each move: Zoë for the deal and her
    own moves until she left, the bot after, with a line where it took over (docs/rules.md
    §5.3); the result counts her among those who left."""
    result, _ = handed_over("Zoë", variant=variant)
    assert result.left == ["11"] and "11" not in result.players and check(result) is None
    lines = replayed(GameRecord(result, time.time()), EN).text.splitlines()
    taken = lines.index("🤖 Bot 3 (for Zoë) takes over Zoë's seat.")
    before, after = lines[:taken], lines[taken + 1 :]
    assert lines[2] == f"Seats: 1. {MARKDOWN}, 2. Zoë, 3. Bot 1 (easy), 4. Bot 2 (hard)"
    assert any(line.startswith("Zoë ") for line in before) and "  Zoë holds" in "\n".join(before)
    assert not any("Bot 3" in line for line in before)
    assert any(line.startswith("Bot 3 (for Zoë) ") for line in after)
    assert not any(line.startswith(("Zoë ", "  Zoë ")) for line in after)


def test_the_file_shows_names_as_typed_and_messages_escape_them() -> None:
    """A text file is not Markdown: names go in as typed, no backslash, no zero-width space in
    a mention, and the standings have no bold or inline code; the summary (a Discord message)
    still escapes names and marks teams and winners as the table does."""
    result, _ = handed_over("Zoë")
    record = GameRecord(result, time.time())
    game = replayed(record, EN)
    assert MARKDOWN in game.text and "\\" not in game.text and "\u200b" not in game.text
    rest = game.text.replace(MARKDOWN, "")  # nor any Markdown of its own: bold, team marks
    assert "**" not in rest and "`" not in rest and "🥇 [B] Bot 3 (for Zoë) & Bot 2 (hard) — " in rest
    shown = _text(summary(record, game, EN))
    assert "🥇 `B` **Bot 3 (for Zoë) & Bot 2 (hard)** — " in shown
    assert "\\*\\*Bold\\*\\* \\_it\\_ @\u200beveryone" in shown and MARKDOWN not in shown


def test_bots_are_named_in_the_reader_s_language() -> None:
    """``/uno history`` in French names every bot in French, its level or whose seat it took,
    in the list, its select, the summary and the file."""
    result, _ = handed_over("Zoë")
    record = GameRecord(result, time.time())
    listing = _text(history_list([record], FR))
    assert "Bot 3 (pour Zoë), Bot 1 (facile), Bot 2 (difficile)" in listing
    (option,) = history_options([record], FR)  # whole names only, in 100 characters
    description = str(option.description)
    assert description == f"gagnée par Bot 3 (pour Zoë) & Bot 2 (difficile), 5 manches · {MARKDOWN}, …"
    game = replayed(record, FR)
    everything = "\n".join([listing, str(option.description), _text(summary(record, game, FR)), game.text])
    assert "(for " not in everything and "(easy)" not in everything and "(hard)" not in everything
    assert "Bot 3 (pour Zoë)" in game.text and "Bot 1 (facile)" in game.text


def test_a_long_name_is_cut_inside_a_bot_s_name() -> None:
    """A bot that took over a long-named player's seat says the name cut, its parenthesis
    closed, everywhere its name is shown: the table's players and scores, the file, the list;
    no sentence ends in an ellipsis and a period."""
    long = "Maximilian-Alexander-Wolfgang-Amadeus"
    result, table = handed_over(long)
    game = table.game
    assert game is not None
    for tr, label in ((EN, "Bot 3 (for Maximilian-Alex…)"), (FR, "Bot 3 (pour Maximilian-Alex…)")):
        assert named(table, "ai:3", tr) == label and label in scores_text(table, game, tr)
        record = GameRecord(result, time.time())
        text = replayed(record, tr).text
        assert label in text and "…." not in text
        (option,) = history_options([record], tr)
        assert label in str(option.description) and label in _text(history_list([record], tr))
    # The table's log line when the seat goes to the bot (bot/service/leaving.py), in French.
    table = Table.new(guild_id=1, channel_id=2, host=Seat("10", "Ana"))
    table.join(Seat("11", long))
    table.start(seed=1)
    said: list[str] = []
    change = SimpleNamespace(table=table, tr=FR, log=lambda _, note: said.append(note), played=lambda _: None)
    Leaving._hand_to_bot(change, "11", "{name} handed their seat to {bot}.")  # type: ignore[arg-type]
    assert said == [f"🤖 {long} a laissé sa place à Bot 1 (pour Maximilian-Alex…)."]


def _text(view: discord.ui.LayoutView) -> str:
    """A Components V2 message's text displays, one a line."""
    return "\n".join(c["content"] for c in walk_components(view.to_components()) if c["type"] == 10)
