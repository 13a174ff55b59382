"""The schema's list of migrations (bot/storage/migrations/): numbered files, one list for every
backend, shipped with the package, and the SQL of version 1 as the code before the files had it."""

from __future__ import annotations

import fnmatch
import json
import sqlite3
import tomllib
from contextlib import closing
from pathlib import Path

import pytest

from bot.storage import migrations
from bot.storage.migrations import Migration, backends, load

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "bot" / "storage" / "migrations"
SCHEMA_V1 = Path(__file__).parent / "sqlite" / "schema-v1.json"


def test_sqlite_list() -> None:
    """SQLite's migrations run from 1 without a gap, each named after its file."""
    found = load("sqlite")
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert found[0] == Migration(1, "initial", (FOLDER / "0001_initial.sqlite.sql").read_text("utf-8"))


def test_one_list_for_every_backend() -> None:
    """Every backend with migrations has the same numbers with the same names."""
    lists = {b: [(m.version, m.name) for m in load(b)] for b in backends()}
    assert {"sqlite", "postgresql"} <= set(lists)
    assert len({tuple(steps) for steps in lists.values()}) == 1, lists


def test_version_1_makes_the_schema_main_made(tmp_path: Path) -> None:
    """The SQL of version 1 makes exactly the ``sqlite_master`` of a database made by the code
    before the migrations were files (schema-v1.json; SQLite keeps each statement's text as
    written, indentation included)."""
    with closing(sqlite3.connect(tmp_path / "uno.db")) as db:
        db.executescript(load("sqlite")[0].sql)
        rows = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
        made = [list(row) for row in rows]
    assert made == json.loads(SCHEMA_V1.read_text("utf-8"))["sqlite_master"]


def test_shipped_as_package_data() -> None:
    """pyproject.toml ships every migration file with the package (a wheel would lack them)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"][migrations.__name__]
    names = [p.name for p in FOLDER.iterdir() if p.suffix == ".sql"]
    assert names and all(any(fnmatch.fnmatch(n, p) for p in patterns) for n in names)


@pytest.mark.parametrize(
    ("names", "error"),
    [
        ([], r"numbered 1, 2, 3, \.\.\. \(found \[\]\)"),
        (["0002_b.sqlite.sql"], r"found \[2\]"),
        (["0001_a.sqlite.sql", "0003_c.sqlite.sql"], r"found \[1, 3\]"),
        (["0001_a.sqlite.sql", "0001_b.sqlite.sql"], r"found \[1, 1\]"),
        (["0001_a.postgres.sql"], r"found \[\]"),
        (["1_initial.sqlite.sql"], "not named NNNN_name.BACKEND.sql"),
        (["0001_initial.sql"], "not named NNNN_name.BACKEND.sql"),
    ],
    ids=["none", "no-first", "gap", "repeat", "other-backend-only", "short-number", "no-backend"],
)
def test_bad_lists_refused(tmp_path: Path, names: list[str], error: str) -> None:
    """A list that would not say which version a database is at is refused."""
    for name in names:
        (tmp_path / name).write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(ValueError, match=error):
        load("sqlite", tmp_path)


def test_other_files_ignored(tmp_path: Path) -> None:
    """Files that are not ``.sql`` (a README, Python) are not migrations."""
    (tmp_path / "0001_a.sqlite.sql").write_text("SELECT 1;", encoding="utf-8")
    (tmp_path / "README.md").write_text("notes", encoding="utf-8")
    assert load("sqlite", tmp_path) == (Migration(1, "a", "SELECT 1;"),)
    assert backends(tmp_path) == {"sqlite"}
