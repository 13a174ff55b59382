"""Structure of the slash commands: every cog loads, names are unique, everything is described."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from discord import app_commands

from bot.client.bot import EXTENSIONS, UnoBot
from bot.engine.editions import EDITIONS
from bot.engine.options import Scoring
from bot.settings import load_settings
from bot.storage.sqlite import SqliteStorage


def _loaded_tree(tmp_path: Path) -> tuple[list[Any], dict[str, Any]]:
    async def main() -> tuple[list[Any], dict[str, Any]]:
        bot = UnoBot(load_settings(None, environ={}, require_token=False), SqliteStorage(tmp_path / "x.db"))
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        assert set(bot.extensions) == set(EXTENSIONS)
        commands = list(bot.tree.get_commands())
        return commands, commands[0].to_dict(bot.tree)

    return asyncio.run(main())


def test_every_cog_loads_and_commands_are_described(tmp_path: Path) -> None:
    """One /uno group, guild only and guild-installed only; every command and option has a description; no name repeats."""
    commands, payload = _loaded_tree(tmp_path)
    assert [c.name for c in commands] == ["uno"]
    group = commands[0]
    assert isinstance(group, app_commands.Group) and group.guild_only
    names = [c.name for c in group.walk_commands()]
    assert len(names) == len(set(names))
    assert {"new", "join", "leave", "start", "hand", "table", "kick", "end", "settings", "rules",
            "leaderboard", "stats", "forget-me"} <= set(names)  # fmt: skip
    for command in group.walk_commands():
        assert command.description and command.description != "…", command.name
        for parameter in getattr(command, "parameters", []):
            assert parameter.description and parameter.description != "…", (command.name, parameter.name)
    assert len(payload["options"]) <= 25 and len(payload["description"]) <= 100
    # Installed in guilds only, used in guilds only: never left to the application's defaults.
    assert payload["integration_types"] == [0] and payload["contexts"] == [0]


def test_every_edition_and_scoring_mode_is_offered(tmp_path: Path) -> None:
    """Every edition of the engine's EDITIONS (VARIANTS and DOS) is a choice of /uno new, /uno settings, /uno rules and
    /uno leaderboard (by its name, for its id), and every scoring mode of /uno new and /uno settings."""
    _, payload = _loaded_tree(tmp_path)
    options = {c["name"]: {o["name"]: o for o in c.get("options", [])} for c in payload["options"]}
    editions = [{"name": name, "value": id_} for id_, name in EDITIONS.items()]
    for command in ("new", "settings", "rules", "leaderboard"):
        assert options[command]["variant"]["choices"] == editions, command
    for command in ("new", "settings"):
        assert [c["value"] for c in options[command]["scoring"]["choices"]] == [s.value for s in Scoring]
