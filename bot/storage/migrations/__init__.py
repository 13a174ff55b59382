"""The schema's one list of migrations: numbered SQL files shipped inside this package.

``NNNN_name.BACKEND.sql`` takes a database of that backend (``sqlite``, ``postgresql``) from
schema version ``NNNN - 1`` to ``NNNN``. Every backend has a file for every number, with the same
name, written in its own dialect: one list of versions, whichever database a bot runs on. Each
backend's runner (:mod:`bot.storage.sqlite.migrate`, :mod:`bot.storage.postgres.migrate`)
records the version it reached and applies the missing files in order.

Append only: never edit a file that has shipped, since databases have already run it; a change is
a new number. The files are package data (``pyproject.toml``), so an installed bot has them.

>>> [(m.version, m.name) for m in load("sqlite")][:1]
[(1, 'initial')]
"""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable
from typing import NamedTuple

__all__ = ["Migration", "backends", "load"]

_FILE = re.compile(r"(?P<version>[0-9]{4})_(?P<name>[a-z0-9_]+)\.(?P<backend>[a-z0-9]+)\.sql")


class Migration(NamedTuple):
    """One step of the schema.

    Attributes:
        version: the schema version a database has once this step is applied (1, 2, ...).
        name: what the step is, from its file name (``"initial"``).
        sql: the statements, for the backend's own runner to execute as one script.
    """

    version: int
    name: str
    sql: str


def _files(folder: Traversable | None) -> list[tuple[re.Match[str], Traversable]]:
    """Every ``.sql`` file in ``folder`` (None: this package) with its name's parts.

    Raises:
        ValueError: a file name not of the ``NNNN_name.BACKEND.sql`` form.
    """
    found = []
    for entry in (folder or resources.files(__name__)).iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE.fullmatch(entry.name)
        if match is None:
            raise ValueError(f"migration file {entry.name!r} is not named NNNN_name.BACKEND.sql")
        found.append((match, entry))
    return found


def backends(folder: Traversable | None = None) -> set[str]:
    """The backends that have migration files (``{"sqlite", "postgresql"}``).

    Raises:
        ValueError: a file name not of the ``NNNN_name.BACKEND.sql`` form.
    """
    return {match["backend"] for match, _ in _files(folder)}


def load(backend: str, folder: Traversable | None = None) -> tuple[Migration, ...]:
    """The backend's migrations in order: ``result[n]`` takes version ``n`` to ``n + 1``.

    Args:
        backend: the suffix before ``.sql`` in the file names (``"sqlite"``).
        folder: where the files are; None: this package (the tests pass others).

    Raises:
        ValueError: no file for ``backend``, a file name not of the ``NNNN_name.BACKEND.sql``
            form, or numbers that do not run 1, 2, 3, ... without a gap or a repeat (the list
            would not say which version a database is at).
    """
    found = sorted(
        Migration(int(match["version"]), match["name"], entry.read_text("utf-8"))
        for match, entry in _files(folder)
        if match["backend"] == backend
    )
    numbers = [m.version for m in found]
    if not found or numbers != list(range(1, len(found) + 1)):
        raise ValueError(f"{backend} migrations must be numbered 1, 2, 3, ... (found {numbers})")
    return tuple(found)
