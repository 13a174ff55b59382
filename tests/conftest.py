"""The test lanes (tests/README.md): markers given by where a test lives, so no test file repeats them.

* ``e2e`` and ``slow``: every test under ``tests/e2e/`` (the bot end to end against the stand-in);
* ``property``: every hypothesis test (``@given``); ``slow`` too in the whole-game property files
  (`PROPERTY_FILES`), which play hundreds of games;
* ``slow`` by hand (``@pytest.mark.slow``) on the few other tests that take seconds each.

``pytest -m "not slow"`` is the developers' loop; ``scripts/test`` runs every lane.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import is_hypothesis_test

TESTS = Path(__file__).resolve().parent
E2E = TESTS / "e2e"
PROPERTY_FILES = frozenset(
    {TESTS / "engine" / "test_properties.py", TESTS / "engine" / "test_dos_properties.py"}
)


def lane_markers(path: Path, *, hypothesis: bool) -> list[str]:
    """The markers a test at ``path`` (absolute) gets by where it lives and what it is (``hypothesis``:
    a ``@given`` test), in the order ``e2e``, ``property``, ``slow``.

    >>> lane_markers(E2E / "test_games.py", hypothesis=False)
    ['e2e', 'slow']
    >>> lane_markers(TESTS / "engine" / "test_properties.py", hypothesis=True)
    ['property', 'slow']
    >>> lane_markers(TESTS / "engine" / "test_actions.py", hypothesis=True)
    ['property']
    >>> lane_markers(TESTS / "engine" / "test_cards.py", hypothesis=False)
    []
    """
    e2e = path.is_relative_to(E2E)
    names = ["e2e"] if e2e else []
    names += ["property"] if hypothesis else []
    return names + (["slow"] if e2e or path in PROPERTY_FILES else [])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every collected test with its lanes (`lane_markers`)."""
    for item in items:
        hypothesis = isinstance(item, pytest.Function) and is_hypothesis_test(item.obj)
        for name in lane_markers(item.path, hypothesis=hypothesis):
            item.add_marker(name)
