"""The bot's settings: ``config.toml``, then ``UNO_…`` environment variables (``__`` nests).

Built once in ``main()`` and passed down; nothing reads settings at import time. Every field is
documented in ``config.example.toml``.

>>> s = load_settings(None, environ={"UNO_GAME__TARGET_SCORE": "200"}, require_token=False)
>>> s.game.target_score, s.discord.api_base
(200, 'https://discord.com/api/v10')
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_origin

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)
from pydantic_settings import SettingsError as PydanticSettingsError

from bot.engine.editions import EDITIONS
from bot.engine.options import HouseRule
from bot.storage.choose import parse_url
from bot.storage.sqlite.connection import DEFAULT_SYNCHRONOUS, Synchronous

DEFAULT_CONFIG = Path("config.toml")


class SettingsError(Exception):
    """A missing or invalid setting; the message is one line naming it."""


class Section(BaseModel):
    """A section of the settings (a ``[table]`` of ``config.toml``): a misspelt key in it is an
    error, not ignored."""

    model_config = ConfigDict(extra="forbid")


class DiscordSettings(Section):
    """How to reach Discord (or a Discord-compatible server), and which shards this process runs
    (``shard_count`` None: as many as Discord recommends; ``shard_ids`` None: all of them)."""

    token: SecretStr | None = None
    api_base: str = "https://discord.com/api/v10"
    gateway_url: str = "wss://gateway.discord.gg"
    cdn_base: str = "https://cdn.discordapp.com"
    dev_guild_id: int | None = None
    sync_commands: bool = True
    card_emojis: bool = True
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    global_requests_per_second: Annotated[float, Field(ge=0)] = 50
    """Discord's global rate limit for the bot token (`bot.client.pacing` stays below it), this process's
    share of it when shards run in several processes; 0: no pacing."""
    internals: bool = True
    """Use discord.py's internals where they save work on every click and message (`bot.client.internals`,
    checked against discord.py 2.7.1); False: its public API only, the same messages at more CPU a call,
    for a discord.py release that moved them (tests/bot/client/test_internals.py says which)."""

    @field_validator("shard_count")
    @classmethod
    def _shard_count(cls, value: int | None) -> int | None:
        if value is not None and value < 1:
            raise ValueError("must be 1 or more")
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shards(cls, value: list[int] | None, info: ValidationInfo) -> list[int] | None:
        count = info.data.get("shard_count")
        if value is None:
            return value
        if count is None:
            raise ValueError("needs discord.shard_count (the shards of all processes together)")
        if not value or len(set(value)) != len(value) or not all(0 <= i < count for i in value):
            raise ValueError(f"must be distinct shard numbers from 0 to {count - 1} (shard_count {count})")
        return value

    @field_validator("api_base", "gateway_url", "cdn_base")
    @classmethod
    def _url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://", "ws://", "wss://")):
            raise ValueError("must be an http(s):// or ws(s):// URL")
        return value.rstrip("/")


class DatabaseSettings(Section):
    """Where games, scores and channel settings are kept, and how surely each commit is on disk
    (``synchronous``: "normal", the default, survives a crash of the bot and loses at most about the
    last second of moves to a power cut; "full" survives a power cut too, at a sync per move).

    ``url`` chooses the database (:mod:`bot.storage.choose`): ``sqlite:///PATH`` or
    ``postgresql://user:password@host:port/database``; unset, the SQLite file at ``path``."""

    url: str | None = None
    path: Path = Path("uno.db")
    synchronous: Synchronous = DEFAULT_SYNCHRONOUS

    @field_validator("url")
    @classmethod
    def _database_url(cls, value: str | None) -> str | None:
        if value is not None:
            parse_url(value)
        return value

    @property
    def location(self) -> Path | str:
        """``url`` if set, else ``path``."""
        return self.url if self.url is not None else self.path


MIN_TURN_SECONDS = 10
"""A shorter turn timer leaves no time to play (0 switches the timer off)."""


def check_turn_seconds(value: int) -> int:
    """``value`` if it is a usable turn timer (0: off).

    Raises:
        ValueError: 1 to `MIN_TURN_SECONDS` - 1 seconds.
    """
    if 0 < value < MIN_TURN_SECONDS:
        raise ValueError(f"a turn timer needs at least {MIN_TURN_SECONDS} seconds (0 switches it off)")
    return value


class GameDefaults(Section):
    """Defaults for new tables; each channel's ``/uno settings`` override them."""

    variant: str = "classic"
    target_score: int = Field(500, ge=1, le=100_000)
    scoring: Literal["standard", "running-tally", "single-round"] = "standard"
    house_rules: list[str] = Field(default_factory=list)
    customizable_rule: str = Field("", max_length=300)
    turn_seconds: int = Field(90, ge=0, le=3600, description="0 switches the turn timer off")
    threads: bool = Field(False, description="each game in its own public thread of the channel")
    max_timeouts: int = Field(3, ge=1, le=20)
    ai_delay_seconds: float = Field(1.2, ge=0, le=30)
    ai_budget_ms: int = Field(200, ge=10, le=10_000, description="a hard bot's search time per decision")
    ai_workers: int = Field(1, ge=0, le=64, description="processes for hard bots' searches; 0: a thread")
    ping_after_seconds: float = Field(
        10, ge=0, le=600, description="a human to act is pinged once the table has waited this long"
    )
    lobby_idle_seconds: int = Field(600, ge=30, le=86_400)
    game_idle_hours: float = Field(24, gt=0, le=24 * 30, description="a game with no move for this long ends")
    seed: int | None = None

    @field_validator("turn_seconds")
    @classmethod
    def _usable_timer(cls, value: int) -> int:
        return check_turn_seconds(value)

    @field_validator("variant")
    @classmethod
    def _variant(cls, value: str) -> str:
        if value not in EDITIONS:
            raise ValueError(f"must be one of {', '.join(EDITIONS)}")
        return value

    @field_validator("house_rules")
    @classmethod
    def _rules(cls, value: list[str]) -> list[str]:
        known = {r.value for r in HouseRule}
        bad = [r for r in value if r not in known]
        if bad:
            raise ValueError(f"unknown house rule(s) {bad}; known: {', '.join(sorted(known))}")
        return value


class LocalSettings(Section):
    """Local mode (``--local``): the Discord stand-in and its browser page."""

    host: str = "127.0.0.1"
    port: int = Field(8765, ge=1, le=65535)


class MetricsSettings(Section):
    """The operators' HTTP endpoint: ``/metrics`` (Prometheus) and ``/health`` (`bot.ops.metrics`);
    ``port`` None (the default) serves neither."""

    host: str = "127.0.0.1"
    port: int | None = None

    @field_validator("port")
    @classmethod
    def _port(cls, value: int | None) -> int | None:
        if value is not None and not 0 <= value <= 65535:
            raise ValueError("must be a port number (0 to 65535; 0: any free port)")
        return value


class Settings(BaseSettings):
    """All settings. See ``config.example.toml`` for every field."""

    model_config = SettingsConfigDict(
        env_prefix="UNO_", env_nested_delimiter="__", extra="forbid", case_sensitive=False
    )

    discord: DiscordSettings = Field(default_factory=DiscordSettings)
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    game: GameDefaults = Field(default_factory=GameDefaults)
    local: LocalSettings = Field(default_factory=LocalSettings)
    metrics: MetricsSettings = MetricsSettings()
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Precedence: explicit arguments, then the environment, then the TOML file.
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))


def load_settings(
    config_path: Path | None = DEFAULT_CONFIG,
    *,
    environ: Mapping[str, str] | None = None,
    require_token: bool = True,
    **overrides: Any,
) -> Settings:
    """Read the settings.

    Args:
        config_path: a TOML file (missing is fine for the default ``config.toml``; None: no file).
        environ: the environment to read ``UNO_…`` variables from (default ``os.environ``).
        require_token: fail when ``discord.token`` is not set (not needed in local mode).
        overrides: values that win over file and environment (nested dicts).

    Raises:
        SettingsError: a missing or invalid setting, or an unreadable config file; one line.
    """
    if config_path is not None and config_path != DEFAULT_CONFIG and not config_path.is_file():
        raise SettingsError(f"config file {config_path} not found")
    toml = config_path if config_path is not None and config_path.is_file() else Path("/nonexistent")

    class _Settings(Settings):
        model_config = SettingsConfigDict(toml_file=toml)

    env = dict(os.environ if environ is None else environ)
    saved = dict(os.environ)
    try:
        os.environ.clear()
        os.environ.update(env)
        settings = _Settings(**overrides)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise SettingsError(
            f"setting {where}: {err['msg']} (in {toml if toml.is_file() else 'the environment'};"
            f" environment name UNO_{where.upper().replace('.', '__')})"
        ) from None
    except PydanticSettingsError:  # an environment value that is not JSON where a list is due
        raise SettingsError(
            f"setting {_unparsed_list(env)}: not a JSON list in the environment; write it as"
            ' UNO_GAME__HOUSE_RULES=\'["stacking", "jump-in"]\''
        ) from None
    except (OSError, ValueError) as exc:
        raise SettingsError(f"cannot read {toml}: {exc}") from None
    finally:
        os.environ.clear()
        os.environ.update(saved)
    if require_token and (settings.discord.token is None or not settings.discord.token.get_secret_value()):
        raise SettingsError(
            "setting discord.token is missing: set UNO_DISCORD__TOKEN or [discord] token in"
            " config.toml (or run with --local to play without Discord)"
        )
    return Settings.model_validate(settings.model_dump())


def _unparsed_list(env: Mapping[str, str]) -> str:
    """The dotted name of the list setting whose ``UNO_…`` value is not JSON ("a list setting"
    if none is found)."""
    for section, field in Settings.model_fields.items():
        model = field.annotation
        for name, inner in getattr(model, "model_fields", {}).items():
            value = env.get(f"UNO_{section}__{name}".upper())
            if value is not None and get_origin(inner.annotation) in (list, set, tuple):
                try:
                    json.loads(value)
                except ValueError:
                    return f"{section}.{name}"
    return "a list setting"
