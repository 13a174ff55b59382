"""Fixtures of the SQLite tests: a directory another user can enter."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A directory under /tmp that another user can enter (pytest's tmp_path is private)."""
    directory = Path(tempfile.mkdtemp(prefix="uno-storage-"))
    directory.chmod(0o755)
    yield directory
    directory.chmod(0o755)
    shutil.rmtree(directory)
