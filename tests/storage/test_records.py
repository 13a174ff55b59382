"""The results of every backend (conftest.py's ``storage``): rounds and games recorded once and
exactly, with their table or not at all; the leaderboard, stats and forgetting a user."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from bot.storage import Storage, StorageError

from .helpers import ANA, BEN, CY, DEE, GUILD, OTHER_GUILD, game, league, play, rnd, snapshot

if TYPE_CHECKING:
    from .conftest import Backend


def test_results_round_trip(storage: Backend) -> None:
    """Rounds and games saved with the table are recorded exactly, with team keys, no-winner
    rounds and AI seats."""
    seats = [ANA, BEN, CY, "ai:1"]
    us, them = f"{ANA}+{CY}", f"{BEN}+ai:1"
    rounds = [
        rnd("p1", 1, us, 80, seats, variant="flip", scores={us: 80, them: 0}),
        rnd("p1", 2, None, 0, seats, variant="flip", scores={us: 80, them: 0}),
        rnd("p1", 3, them, 520, seats, variant="flip", scores={us: 80, them: 520}),
    ]
    final = game("p1", [them], seats, variant="flip", rounds=3, scores={us: 80, them: 520})

    async def main(s: Storage) -> None:
        await s.save_table(GUILD, 10, {"round": 2}, rounds[:1])
        await s.save_table(GUILD, 10, {"round": 3}, rounds[1:2])
        assert storage.results.rounds("p1") == rounds[:2]
        assert storage.results.game("p1") is None  # rounds recorded, game not finished yet
        await s.delete_table(10, [rounds[2], final])

    storage.run(main)
    assert storage.results.rounds("p1") == rounds
    assert storage.results.game("p1") == final
    assert storage.results.rounds("nope") == [] and storage.results.game("nope") is None


def test_results_commit_with_the_table_or_not_at_all(storage: Backend) -> None:
    """A table saved or deleted with its finished round and game records them in the same
    transaction: when the write fails, neither the table nor the results change."""
    bad = rnd("t1", 2, ANA, "lots", [ANA, BEN])  # type: ignore[arg-type]  # fails mid-transaction

    async def main(s: Storage) -> None:
        first = snapshot(1)
        await s.save_table(GUILD, 1001, first, [rnd("t1", 1, ANA, 40, [ANA, BEN])])
        assert [r.round_no for r in storage.results.rounds("t1")] == [1]
        with pytest.raises(StorageError):
            await s.save_table(GUILD, 1001, snapshot(1, note="moved"), [bad])
        assert await s.load_tables() == [first] and len(storage.results.rounds("t1")) == 1
        with pytest.raises((StorageError, ValueError)):
            await s.delete_table(1001, [game("t1", [ANA], [ANA, BEN], rounds=2), bad])
        assert await s.load_tables() == [first] and storage.results.game("t1") is None
        await s.delete_table(
            1001, [rnd("t1", 2, ANA, 500, [ANA, BEN]), game("t1", [ANA], [ANA, BEN], rounds=2)]
        )
        assert await s.load_tables() == [] and storage.results.game("t1") is not None
        assert (await s.stats(GUILD, ANA)).points == 540

    storage.run(main)


def test_recording_is_idempotent(storage: Backend) -> None:
    """A round or a game saved again with its table (a retry after a crash) is recorded once."""
    first, second = rnd("g1", 1, ANA, 40, [ANA, BEN]), rnd("g1", 2, ANA, 500, [ANA, BEN])
    final = game("g1", [ANA], [ANA, BEN], rounds=2)

    async def main(s: Storage) -> None:
        for _ in range(2):
            await s.save_table(GUILD, 10, {"round": 2}, [first])
            await s.delete_table(10, [second, final])
        await s.save_table(GUILD, 10, {"round": 3}, [first, second])  # both again, together
        # A different retry: the first record stays.
        await s.delete_table(10, [rnd("g1", 2, BEN, 7, [ANA, BEN]), game("g1", [BEN], [ANA, BEN])])
        assert storage.results.rounds("g1") == [first, second]
        assert storage.results.game("g1") == final
        stats = await s.stats(GUILD, ANA)
        counts = (stats.games_played, stats.games_won, stats.rounds_won, stats.points)
        assert counts == (1, 1, 2, 540)
        assert (await s.stats(GUILD, BEN)).games_played == 1

    storage.run(main)


def test_leaderboard_order_ai_excluded_by_variant(storage: Backend) -> None:
    """Games won then points rank the guild's humans; AI seats and other guilds are left out."""
    storage.run(league)
    board = storage.run(lambda s: s.leaderboard(GUILD))
    assert [(p.user_id, p.games_won, p.points) for p in board] == [
        (DEE, 2, 15),
        (CY, 1, 600),
        (ANA, 1, 530),
        (BEN, 1, 130),
    ]
    ben = board[3]
    assert (ben.games_played, ben.rounds_won, ben.win_rate) == (4, 2, 0.25)
    flip = storage.run(lambda s: s.leaderboard(GUILD, variant="flip"))
    assert [(p.user_id, p.games_played, p.games_won, p.points) for p in flip] == [
        (CY, 1, 1, 600),
        (ANA, 1, 0, 0),
        (BEN, 1, 0, 0),
    ]
    assert [p.user_id for p in storage.run(lambda s: s.leaderboard(GUILD, limit=2))] == [DEE, CY]
    assert storage.run(lambda s: s.leaderboard(GUILD, variant="cars2")) == []
    other = storage.run(lambda s: s.leaderboard(OTHER_GUILD))
    assert [(p.user_id, p.games_won, p.points) for p in other] == [(ANA, 3, 2997), (BEN, 0, 0)]


def test_partners_credit_both_members(storage: Backend) -> None:
    """A team's round and game win count for both partners."""

    async def main(s: Storage) -> list[tuple[str, int, int, int]]:
        seats = [ANA, BEN, CY, DEE]
        team, other = f"{ANA}+{CY}", f"{BEN}+{DEE}"
        scores = {team: 510, other: 0}
        await s.delete_table(
            10, [rnd("t1", 1, team, 510, seats, scores=scores), game("t1", [team], seats, scores=scores)]
        )
        board = await s.leaderboard(GUILD)
        return [(p.user_id, p.games_won, p.rounds_won, p.points) for p in board]

    assert storage.run(main) == [(ANA, 1, 1, 510), (CY, 1, 1, 510), (BEN, 0, 0, 0), (DEE, 0, 0, 0)]


def test_stats_per_variant(storage: Backend) -> None:
    """A player's stats add up their variants, in this guild only; a stranger has zeros."""
    storage.run(league)
    ana = storage.run(lambda s: s.stats(GUILD, ANA))
    counts = (ana.user_id, ana.games_played, ana.games_won, ana.rounds_won, ana.points)
    assert counts == (ANA, 2, 1, 2, 530)
    assert ana.win_rate == 0.5
    assert ana.by_variant == {
        "classic": {"games_played": 1, "games_won": 1, "rounds_won": 2, "points": 530},
        "flip": {"games_played": 1, "games_won": 0, "rounds_won": 0, "points": 0},
    }
    stranger = storage.run(lambda s: s.stats(GUILD, "999"))
    assert (stranger.games_played, stranger.win_rate, stranger.by_variant) == (0, 0.0, {})
    assert storage.run(lambda s: s.stats(OTHER_GUILD, ANA)).games_won == 3


def test_forget_user(storage: Backend) -> None:
    """A forgotten player's results stay counted, under an anonymous id; nothing names them."""
    storage.run(league)
    before = {p.user_id: p for p in storage.run(lambda s: s.leaderboard(GUILD))}
    # ana: games g1, g2 and three in the other guild; rounds 3 + 1 + 3.
    assert storage.run(lambda s: s.forget_user(ANA)) == 5 + 7
    after = {p.user_id: p for p in storage.run(lambda s: s.leaderboard(GUILD))}
    assert ANA not in after
    (anon,) = [u for u in after if u.startswith("forgotten:")]
    assert (after[anon].games_won, after[anon].points, after[anon].rounds_won) == (1, 530, 2)
    assert {u: p for u, p in after.items() if u != anon} == {u: p for u, p in before.items() if u != ANA}
    assert storage.run(lambda s: s.stats(GUILD, ANA)).games_played == 0
    g1 = storage.results.game("g1")
    assert g1 is not None and g1.winners == [anon] and g1.players == [anon, BEN, "ai:1"]
    assert [r.winner for r in storage.results.rounds("g1")] == [anon, BEN, anon]
    assert storage.run(lambda s: s.forget_user(ANA)) == 0  # nothing names them any more
    assert storage.run(lambda s: s.forget_user("555")) == 0  # never played
    assert storage.run(lambda s: s.forget_user(anon)) == 0

    async def again(s: Storage) -> tuple[int, int]:
        await play(s, "g7", [(ANA, 20)], [ANA], [ANA, BEN])
        fresh = await s.stats(GUILD, ANA)
        return fresh.games_played, fresh.points

    assert storage.run(again) == (1, 20)  # playing again starts a new record


def test_recent_games_of_a_player(storage: Backend) -> None:
    """A player's last games in the guild, oldest first, each with whether they won and the
    points of the rounds they won in it (other guilds' games and other players' rounds left out);
    at most ``limit``, the newest kept."""

    async def main(s: Storage) -> None:
        await s.delete_table(1, [rnd("g1", 1, ANA, 30, [ANA, BEN]), rnd("g1", 2, BEN, 90, [ANA, BEN])])
        await s.delete_table(1, [game("g1", [BEN], [ANA, BEN], rounds=2)])
        await s.delete_table(2, [rnd("g2", 1, ANA, 200, [ANA, CY], variant="flip")])
        await s.delete_table(2, [game("g2", [ANA], [ANA, CY], variant="flip")])
        await s.delete_table(3, [rnd("g3", 1, ANA, 999, [ANA], guild=OTHER_GUILD)])
        await s.delete_table(3, [game("g3", [ANA], [ANA], guild=OTHER_GUILD)])
        recent = await s.recent_games(GUILD, ANA)
        assert [(g.variant, g.won, g.points) for g in recent] == [("classic", False, 30), ("flip", True, 200)]
        assert recent[0].finished_at <= recent[1].finished_at
        assert [g.points for g in await s.recent_games(GUILD, BEN)] == [90]
        assert [g.variant for g in await s.recent_games(GUILD, ANA, limit=1)] == ["flip"]
        assert await s.recent_games(GUILD, DEE) == []

    storage.run(main)


def test_a_game_ended_with_no_winner_is_neither_won_nor_lost(storage: Backend) -> None:
    """A game recorded with no winner (``/uno end``, an idle game) counts in no one's games
    played: the leaderboard ranks a player with only such games by the rounds and points they
    won in them (0 games played, a win rate of 0; one who won nothing is left out), stats count
    its finished rounds' wins and points, and the recent games mark it undecided."""

    async def main(s: Storage) -> None:
        await s.delete_table(1, [rnd("g1", 1, ANA, 40, [ANA, BEN]), game("g1", [], [ANA, BEN], rounds=1)])
        # cy won a round worth no points in another game ended with no winner: ranked all the same.
        await s.delete_table(3, [rnd("g0", 1, CY, 0, [CY, DEE]), game("g0", [], [CY, DEE], channel=3)])
        board = await s.leaderboard(GUILD)
        assert [
            (p.user_id, p.games_played, p.games_won, p.rounds_won, p.points, p.win_rate) for p in board
        ] == [
            (ANA, 0, 0, 1, 40, 0.0),
            (CY, 0, 0, 1, 0, 0.0),
        ]
        assert await s.leaderboard(GUILD, variant="flip") == []
        ana = await s.stats(GUILD, ANA)
        assert (ana.games_played, ana.games_won, ana.rounds_won, ana.points) == (0, 0, 1, 40)
        (ended,) = await s.recent_games(GUILD, ANA)
        assert (ended.won, ended.decided, ended.points) == (False, False, 40)
        await s.delete_table(2, [game("g2", [BEN], [ANA, BEN])])
        board = await s.leaderboard(GUILD)
        assert [(p.user_id, p.games_played, p.games_won, p.points) for p in board] == [
            (BEN, 1, 1, 0),
            (ANA, 1, 0, 40),
            (CY, 0, 0, 0),
        ]
        assert [g.decided for g in await s.recent_games(GUILD, ANA)] == [False, True]

    storage.run(main)


def test_a_player_who_left_played_the_game_and_did_not_win_it(storage: Backend) -> None:
    """docs/rules.md §5.1, §5.3: a player who left a partners game, with a bot in their seat or
    not, played it and won none of it from then on, though their team won: the round won before
    they left stays theirs, the later round and the game are their partner's (and the bot's)
    alone; the leaderboard and stats count the game for them (played, not won), and the result
    reads back with who left."""
    seats, handed = [ANA, BEN, CY, DEE], ["ai:1", BEN, CY, DEE]  # ana's seat went to a bot
    team, bot_team, other = f"{ANA}+{CY}", f"ai:1+{CY}", f"{BEN}+{DEE}"

    async def main(s: Storage) -> None:
        # g1: ana's team wins round 1 with her; she hands her seat over; her team wins round 2.
        await s.save_table(GUILD, 10, {"round": 2}, [rnd("g1", 1, team, 40, seats)])
        await s.delete_table(
            10,
            [
                rnd("g1", 2, bot_team, 500, handed, left=[ANA]),
                game("g1", [bot_team], handed, rounds=2, left=[ANA]),
            ],
        )
        # g2: ben leaves (no bot in his seat) and dee wins for their team.
        await s.delete_table(11, [game("g2", [other], seats, channel=11, left=[BEN])])
        ana, ben = await s.stats(GUILD, ANA), await s.stats(GUILD, BEN)
        assert (ana.games_played, ana.games_won, ana.rounds_won, ana.points) == (2, 0, 1, 40)
        assert (ben.games_played, ben.games_won) == (2, 0)
        assert [(g.won, g.decided, g.points) for g in await s.recent_games(GUILD, ANA)] == [
            (False, True, 40),
            (False, True, 0),
        ]
        board = {p.user_id: (p.games_played, p.games_won) for p in await s.leaderboard(GUILD)}
        assert board == {ANA: (2, 0), BEN: (2, 0), CY: (2, 1), DEE: (2, 1)}

    storage.run(main)
    recorded = storage.results.game("g1")
    assert recorded is not None and recorded.left == [ANA] and recorded.players == handed
    assert [r.left for r in storage.results.rounds("g1")] == [[], [ANA]]
