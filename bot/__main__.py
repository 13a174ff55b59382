"""``python -m bot`` / ``uno-bot``: run the bot on Discord, or ``--local`` with no Discord at all."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any

from bot.settings import DEFAULT_CONFIG, SettingsError, load_settings


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(prog="uno-bot", description="An UNO table for Discord text channels.")
    parser.add_argument(
        "--config", type=Path, default=DEFAULT_CONFIG, help="TOML settings file (default: config.toml)"
    )
    parser.add_argument(
        "--local", action="store_true", help="play in the browser with a local Discord stand-in"
    )
    parser.add_argument("--port", type=_port, help="local mode: the page's port (default 8765)")
    parser.add_argument(
        "--database",
        type=_database,
        help="the SQLite file, or a database URL (postgresql://...) (default: settings; local mode: a throwaway file)",
    )
    parser.add_argument(
        "--new-database",
        action="store_true",
        help="make a new, empty database where the old one is missing (else the bot refuses to start)",
    )
    parser.add_argument(
        "--sync-global", action="store_true", help="sync slash commands to every server (deliberate)"
    )
    return parser.parse_args(argv)


def _database(text: str) -> Path | str:
    """``--database``: a database URL as it is (a path would fold its ``//``), else a path.

    >>> _database("postgresql://uno@db/uno"), _database("games/uno.db")
    ('postgresql://uno@db/uno', PosixPath('games/uno.db'))
    """
    from bot.storage.choose import is_url

    return text if is_url(text) else Path(text)


def _port(text: str) -> int:
    """A TCP port for ``--port`` (0: any free port).

    Raises:
        argparse.ArgumentTypeError: not a whole number from 0 to 65535 (argparse prints one line).
    """
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)")
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    args = parse_args(argv)
    try:
        settings = load_settings(args.config, require_token=not args.local)
        if args.port is not None:
            settings.local.port = args.port
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.run import run_bot, run_loop

    try:
        if args.local:
            from bot.local import run_local

            return run_loop(
                _until_stopped(run_local(settings, database=args.database, new_database=args.new_database))
            )
        return run_loop(
            _until_stopped(
                run_bot(
                    settings,
                    database=args.database,
                    new_database=args.new_database,
                    sync_global=args.sync_global,
                )
            )
        )
    except KeyboardInterrupt:
        return 0


async def _until_stopped(run: Coroutine[Any, Any, int]) -> int:
    """Await ``run``; SIGTERM (``kill``, ``docker stop``) stops it as Ctrl+C does: the bot closes
    cleanly (moves in progress finish, the connection closes, local mode cleans up)."""
    task = asyncio.current_task()
    assert task is not None
    stopping: list[bool] = []

    def stop() -> None:
        # Only the first SIGTERM cancels: another one (``timeout`` sends two, an impatient
        # ``kill`` more) would cut the shutdown short, and a database connection left open keeps
        # its thread, and so the process, alive for ever.
        if not stopping:
            stopping.append(True)
            task.cancel()

    with contextlib.suppress(NotImplementedError):  # no signal handlers on this platform's loop
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop)
    try:
        return await run
    except asyncio.CancelledError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
