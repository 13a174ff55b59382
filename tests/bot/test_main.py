"""Starting the bot from the command line: bad settings and bad databases stop it with one clear
line, before anything is sent anywhere; the token is never printed."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.run import open_storage, run_loop
from bot.settings import load_settings
from bot.storage.sqlite import SqliteStorage

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_missing_token_is_one_clear_line(tmp_path: Path) -> None:
    """No token: exit 2 with one line naming the setting and how to set it."""
    result = run_bot(tmp_path, {})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "discord.token" in lines[0] and "UNO_DISCORD__TOKEN" in lines[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("env", "name"),
    [
        ({"UNO_GAME__TARGET_SCORE": "lots"}, "game.target_score"),
        ({"UNO_GAME__VARIANT": "uno-attack"}, "game.variant"),
        ({"UNO_DISCORD__API_BASE": "discord.com"}, "discord.api_base"),
        ({"UNO_GAME__TURN_SECONDS": "3"}, "game.turn_seconds"),
        ({"UNO_GAME__HOUSE_RULES": "stacking"}, "game.house_rules"),
        ({"UNO_DATABASE__SYNCHRONOUS": "off"}, "database.synchronous"),
        ({"UNO_DATABASE__URL": "mysql://uno@db/uno"}, "database.url"),
        ({"UNO_DISCORD__SHARD_IDS": "[0, 1]"}, "discord.shard_ids"),
        ({"UNO_DISCORD__SHARD_COUNT": "4", "UNO_DISCORD__SHARD_IDS": "[3, 4]"}, "discord.shard_ids"),
    ],
)
def test_invalid_setting_names_it(tmp_path: Path, env: dict[str, str], name: str) -> None:
    """An invalid setting: exit 2, one line naming it; the token is not echoed."""
    result = run_bot(tmp_path, {"UNO_DISCORD__TOKEN": "secret-token-value", **env})
    assert result.returncode == 2
    assert name in result.stderr and "secret-token-value" not in result.stderr + result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_corrupt_database_stops_the_bot_and_changes_nothing(tmp_path: Path) -> None:
    """A corrupt database file: exit 2 with a clear message, the file unchanged, nothing sent."""
    db = tmp_path / "uno.db"
    db.write_bytes(b"this is not a database" * 100)
    before = db.read_bytes()
    result = run_bot(
        tmp_path,
        {
            "UNO_DISCORD__TOKEN": "secret-token-value",
            "UNO_DATABASE__PATH": str(db),
            # Nothing listens here: reaching the network would fail differently.
            "UNO_DISCORD__API_BASE": "http://127.0.0.1:9/api/v10",
        },
    )
    assert result.returncode == 2
    assert "database" in result.stderr and str(db) in result.stderr
    assert "secret-token-value" not in result.stderr + result.stdout
    assert db.read_bytes() == before


@pytest.mark.slow
def test_local_mode_refuses_a_bad_database_before_announcing_itself(tmp_path: Path) -> None:
    """Local mode with a database it cannot use: exit 2 with the reason, the file unchanged, and
    no "UNO is ready" page announced first."""
    db = tmp_path / "uno.db"
    db.write_bytes(b"this is not a database" * 100)
    before = db.read_bytes()
    result = run_bot(tmp_path, {}, "--local", "--port", "0", "--database", str(db))
    assert result.returncode == 2
    output = result.stdout + result.stderr
    assert "not a database" in output and str(db) in output
    assert "UNO is ready" not in output
    assert db.read_bytes() == before


@pytest.mark.slow
def test_sigterm_stops_local_mode_cleanly(tmp_path: Path) -> None:
    """SIGTERM (``kill``, ``docker stop``) closes the bot as Ctrl+C does: exit 0, the throwaway
    local-mode folder removed."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    env = {**clean, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "--local", "--port", "0"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "UNO is ready" in line:
                break
        else:
            pytest.fail("local mode did not start")
        assert list(tmp_path.glob("uno-local-*"))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
    assert not list(tmp_path.glob("uno-local-*"))


@pytest.mark.slow
@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_bad_port_is_one_clear_line(tmp_path: Path, port: str) -> None:
    result = run_bot(tmp_path, {}, "--local", "--port", port)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"argument --port: '{port}' is not a port number (0 to 65535)" in result.stderr


def test_a_second_sigterm_does_not_cut_the_shutdown_short() -> None:
    """Only the first SIGTERM cancels: one arriving while the bot closes (``timeout`` sends two)
    lets the closing finish (else the database connection's thread outlives the loop and the
    process never exits)."""
    from bot.__main__ import _until_stopped

    closed: list[bool] = []

    async def run() -> int:
        try:
            await asyncio.sleep(30)
        finally:
            os.kill(os.getpid(), signal.SIGTERM)  # another SIGTERM while closing
            await asyncio.sleep(0.2)
            closed.append(True)
        return 1

    async def main() -> int:
        asyncio.get_running_loop().call_later(0.1, os.kill, os.getpid(), signal.SIGTERM)
        return await _until_stopped(run())

    assert run_loop(main()) == 0
    assert closed == [True]


def test_tasks_start_eagerly_from_python_3_12() -> None:
    """`run_loop` (``python -m bot``, the e2e tests, the load benchmark) starts a new task at once
    on Python 3.12+ (``asyncio.eager_task_factory``), at the next pass of the loop on 3.11."""
    started: list[str] = []

    async def job() -> None:
        started.append("job")

    async def main() -> list[str]:
        asyncio.get_running_loop().create_task(job())
        seen = list(started)
        await asyncio.sleep(0)
        return seen

    assert run_loop(main()) == (["job"] if sys.version_info >= (3, 12) else [])
    assert started == ["job"]


@pytest.mark.slow
def test_a_second_bot_on_one_database_is_refused(tmp_path: Path) -> None:
    """While one bot holds its database, a second bot on the same file stops at start with exit
    2 and one line naming the holder's pid; the file is left as it was."""

    db = tmp_path / "uno.db"
    # No background checkpoint: it would write the holder's own transactions into the file
    # while the second bot runs, and the file must change only if the second bot writes.
    first = SqliteStorage(db, checkpoint_seconds=None)

    async def hold() -> subprocess.CompletedProcess[str]:
        await first.open()
        try:
            before = db.read_bytes()
            result = await asyncio.to_thread(
                run_bot,
                tmp_path,
                {
                    "UNO_DISCORD__TOKEN": "secret-token-value",
                    "UNO_DATABASE__PATH": str(db),
                    "UNO_DISCORD__API_BASE": "http://127.0.0.1:9/api/v10",
                },
            )
            assert db.read_bytes() == before
            return result
        finally:
            await first.close()

    result = asyncio.run(hold())
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line]
    assert (
        len(errors) == 1
        and "in use by another running bot" in errors[0]
        and f"pid {os.getpid()}" in errors[0]
    )


@pytest.mark.parametrize(("environ", "level"), [({}, 1), ({"UNO_DATABASE__SYNCHRONOUS": "full"}, 2)])
def test_the_synchronous_setting_reaches_the_connection(
    tmp_path: Path, environ: dict[str, str], level: int
) -> None:
    """``database.synchronous`` is the bot's connection's ``PRAGMA synchronous`` (NORMAL 1 by
    default, FULL 2)."""
    storage = open_storage(load_settings(None, environ=environ, require_token=False), tmp_path / "uno.db")

    async def pragma() -> int:
        await storage.open()
        try:
            async with storage._connection.use() as db:
                return int(next(iter(await db.execute_fetchall("PRAGMA synchronous")))[0])
        finally:
            await storage.close()

    assert asyncio.run(pragma()) == level


@pytest.mark.slow
def test_an_unreachable_postgresql_stops_the_bot_in_one_line(tmp_path: Path) -> None:
    """``database.url`` naming a PostgreSQL server that does not answer: exit 2, the reason in
    one line naming the URL without its password, before Discord is contacted."""
    env = {"UNO_DISCORD__TOKEN": "t", "UNO_DATABASE__URL": "postgresql://uno:pw@127.0.0.1:1/uno"}
    result = run_bot(tmp_path, env)
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1 and "postgresql://uno@127.0.0.1:1/uno: cannot connect to PostgreSQL" in errors[0]
    assert "pw" not in result.stderr.replace("pwd", "")
    assert not (tmp_path / "uno.db").exists()


@pytest.mark.slow
def test_a_deleted_database_is_not_silently_made_anew(tmp_path: Path) -> None:
    """The database file gone while the bot was stopped (its lock file says one was made): the
    bot stops at start with exit 2 and one line saying so, and creates nothing; with
    ``--new-database`` it makes a new, empty one and goes on (here to a Discord that is not
    there)."""
    db = tmp_path / "uno.db"
    first = SqliteStorage(db)

    async def make() -> None:
        await first.open()
        await first.close()

    asyncio.run(make())
    db.unlink()
    before = sorted(p.name for p in tmp_path.iterdir())
    env = {
        "UNO_DISCORD__TOKEN": "secret-token-value",
        "UNO_DATABASE__PATH": str(db),
        "UNO_DISCORD__API_BASE": "http://127.0.0.1:9/api/v10",
    }
    result = run_bot(tmp_path, env)
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line]
    assert (
        len(errors) == 1 and f"{db}: the database is missing" in errors[0] and "--new-database" in errors[0]
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == before

    result = run_bot(tmp_path, env, "--new-database")
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line]
    assert len(errors) == 1 and "cannot reach Discord" in errors[0]
    assert db.is_file()
