"""What the SQLite modules share: JSON text for the database, one-value queries, one-line errors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import aiosqlite
import orjson

__all__ = ["dumps", "one_line", "scalar"]


def dumps(value: Any) -> str:
    """Compact JSON through orjson: a table is saved after every move, and the standard
    library's encoder took a thirteenth of the bot's event-loop time under load
    (docs/performance-load.md). Stricter than the standard library's about keys (no int key
    turns silently into a string); a float that is not finite would be written as null (no
    table or result holds floats but times).

    >>> dumps({"seats": ["101", "ai:1"], "score": 50})
    '{"seats":["101","ai:1"],"score":50}'

    Raises:
        TypeError: a value JSON cannot hold, a key that is not a string, or a string that is
            not valid Unicode (a lone surrogate); nothing is written.
    """
    return orjson.dumps(value).decode()


def one_line(what: BaseException | str, limit: int = 200) -> str:
    """An error message (or SQLite's report) on one line, cut at ``limit`` characters
    (``PRAGMA quick_check`` can report thousands of characters of damaged cells).

    >>> one_line("row 3 missing\\n  from index  x")
    'row 3 missing from index x'
    >>> len(one_line("x" * 500))
    200
    """
    text = " ".join(str(what).split()) or type(what).__name__
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


async def scalar(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> int:
    """The first column of the query's first row as an int; 0 when there is no row or it is NULL.

    Raises:
        sqlite3.Error: the query failed.
    """
    rows = list(await db.execute_fetchall(sql, params))
    return int(rows[0][0]) if rows and rows[0][0] is not None else 0
