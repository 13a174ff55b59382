"""Message updates of a key 10 ms apart in these tests, not `UPDATE_SPACING`'s 200."""

from __future__ import annotations

import pytest

from bot.service import updates


@pytest.fixture(autouse=True)
def quick_updates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Updates of one message follow each other after 10 ms."""
    monkeypatch.setattr(updates, "UPDATE_SPACING", 0.01)
