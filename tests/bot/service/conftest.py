"""Message updates of a key 10 ms apart in these tests, not `UPDATE_SPACING`'s 200, and table
messages edited up to every 10 ms, not every `TABLE_SPACING` (a second): the spacing itself is
tested end to end (tests/e2e/test_calls.py)."""

from __future__ import annotations

import pytest

from bot.service import publishing, updates


@pytest.fixture(autouse=True)
def quick_updates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Updates of one message follow each other after 10 ms, table messages' too."""
    monkeypatch.setattr(updates, "UPDATE_SPACING", 0.01)
    monkeypatch.setattr(publishing, "TABLE_SPACING", 0.01)
