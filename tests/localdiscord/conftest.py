"""Fixtures for the stand-in's tests: async tests run on a fresh event loop (no plugin needed),
with `LocalDiscord` arguments started around them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.localdiscord.testing import LocalDiscord, run_coroutine_test

from .demo_bot import DemoBot


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Any:
    """Run ``async def`` tests with `run_coroutine_test`."""
    return run_coroutine_test(pyfuncitem)


@pytest.fixture
def env() -> LocalDiscord:
    """The demo bot logged into a stand-in with users alice and bob and channel #uno."""
    return LocalDiscord(DemoBot)
