"""Which storage the settings choose (bot/storage/choose.py): SQLite by ``database.path`` as
before, or by a ``sqlite:///`` URL; PostgreSQL by a ``postgresql://`` URL; ``--database`` taking
either."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import parse_args
from bot.run import open_storage
from bot.settings import SettingsError, load_settings
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage


def chosen(environ: dict[str, str], database: Path | str | None = None) -> object:
    settings = load_settings(None, environ=environ, require_token=False)
    return open_storage(settings, database or settings.database.location)


def test_sqlite_by_default_and_by_path() -> None:
    """No URL: the SQLite file of ``database.path`` (uno.db unless set), with ``synchronous``."""
    default = chosen({})
    assert isinstance(default, SqliteStorage) and default.path == Path("uno.db")
    assert default._connection.synchronous == "normal"
    custom = chosen({"UNO_DATABASE__PATH": "data/games.db", "UNO_DATABASE__SYNCHRONOUS": "full"})
    assert isinstance(custom, SqliteStorage) and custom.path == Path("data/games.db")
    assert custom._connection.synchronous == "full"


@pytest.mark.parametrize(
    ("url", "path"),
    [("sqlite:///games.db", Path("games.db")), ("sqlite:////srv/uno/uno.db", Path("/srv/uno/uno.db"))],
)
def test_sqlite_url(url: str, path: Path) -> None:
    """``sqlite:///relative`` and ``sqlite:////absolute`` name the file (over ``database.path``)."""
    storage = chosen({"UNO_DATABASE__URL": url, "UNO_DATABASE__PATH": "ignored.db"})
    assert isinstance(storage, SqliteStorage) and storage.path == path


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_postgresql_url(scheme: str) -> None:
    """A ``postgresql://`` URL is PostgreSQL's storage; its password is kept out of its name."""
    storage = chosen({"UNO_DATABASE__URL": f"{scheme}://uno:pw@db:5432/uno"})
    assert isinstance(storage, PostgresStorage)
    assert (
        storage.url == f"{scheme}://uno:pw@db:5432/uno"
        and repr(storage) == f"PostgresStorage('{scheme}://uno@db:5432/uno')"
    )


@pytest.mark.parametrize("url", ["mysql://db/uno", "sqlite://uno.db", "sqlite:///", "uno.db"])
def test_other_urls_refused(url: str) -> None:
    """A URL of no backend (or a path where a URL is due) is a setting error naming it."""
    with pytest.raises(SettingsError, match=r"database\.url"):
        load_settings(None, environ={"UNO_DATABASE__URL": url}, require_token=False)


def test_database_option_takes_a_path_or_a_url() -> None:
    """``--database`` overrides the settings with a file or a URL (kept whole, not a path)."""
    url = "postgresql://uno@127.0.0.1:5432/uno"
    assert parse_args(["--database", url]).database == url
    assert isinstance(
        chosen({"UNO_DATABASE__PATH": "x.db"}, parse_args(["--database", url]).database), PostgresStorage
    )
    option = parse_args(["--database", "here/uno.db"]).database
    assert option == Path("here/uno.db")
    from_option = chosen({"UNO_DATABASE__URL": url}, option)
    assert isinstance(from_option, SqliteStorage) and from_option.path == Path("here/uno.db")
