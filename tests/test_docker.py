"""The Docker image's layout (Dockerfile, .dockerignore): what it copies is enough for the bot, every
language's rules page included, without building the image (no Docker here)."""

from __future__ import annotations

import fnmatch
import shlex
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

REPO = Path(__file__).resolve().parents[1]


def ignore_patterns() -> list[tuple[bool, str]]:
    """.dockerignore's patterns in order, each as (excludes, pattern); ``!`` re-includes."""
    patterns = []
    for line in (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            patterns.append((not line.startswith("!"), line.removeprefix("!")))
    return patterns


def _matches(path: PurePosixPath, pattern: str) -> bool:
    """Whether ``pattern`` names ``path`` or a folder above it (``**/`` at any depth), as Docker's
    build context reads it."""
    names = [PurePosixPath(*path.parts[: i + 1]) for i in range(len(path.parts))]
    if pattern.startswith("**/"):
        return any(fnmatch.fnmatchcase(p.name, pattern[3:]) for p in names)
    return any(fnmatch.fnmatchcase(p.as_posix(), pattern) for p in names)


def in_context(path: PurePosixPath, patterns: list[tuple[bool, str]]) -> bool:
    """Whether the build context sends ``path``: the last pattern that matches it decides."""
    sent = True
    for excludes, pattern in patterns:
        if _matches(path, pattern):
            sent = not excludes
    return sent


def copies() -> list[tuple[list[str], str]]:
    """The Dockerfile's ``COPY`` instructions as (sources, destination)."""
    found = []
    text = (REPO / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        if words and words[0].upper() == "COPY" and not any(w.startswith("--") for w in words):
            found.append((words[1:-1], words[-1]))
    return found


def image_layout(app: Path) -> list[str]:
    """Copy what the image's ``/app`` holds into ``app``, through the build context; return the
    files copied (relative paths)."""
    patterns = ignore_patterns()
    copied = []
    for sources, destination in copies():
        for source in sources:
            for top in sorted(REPO.glob(source)):
                files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
                for file in files:
                    relative = PurePosixPath(file.relative_to(REPO).as_posix())
                    if not in_context(relative, patterns):
                        continue
                    target = app / destination.removeprefix("./")
                    if top.is_dir():
                        target /= file.relative_to(top)
                    elif destination.endswith("/"):  # else the destination is the file's own path
                        target /= file.name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(file, target)
                    copied.append(target.relative_to(app).as_posix())
    return copied


# Run in the image's layout: the editable install's finder (which maps ``bot`` to this clone) is
# taken off first, so ``bot`` is imported from the copy, as in the image.
PROBE = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in repr(f)]
import bot
from bot.i18n import LANGUAGES
from bot.rulebook import Rulebook
print(bot.__file__)
english = Rulebook.load("en").edition("classic").text
for lang in LANGUAGES:
    book = Rulebook.load(lang)
    print(lang, book.lang, book.edition("classic").text != english or lang == "en")
"""


def probe(app: Path) -> subprocess.CompletedProcess[str]:
    """Run :data:`PROBE` with ``app`` (an image layout) as the only place ``bot`` comes from."""
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=app.parent,
        env={"PYTHONPATH": str(app), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_image_holds_every_rules_page(tmp_path: Path) -> None:
    """In the image's layout, ``/uno rules`` reads each language's own rules page: none falls
    back to English (the image once copied docs/rules.md alone)."""
    app = tmp_path / "app"
    copied = image_layout(app)
    assert {"bot/rulebook.py", "cogs/uno.py", "LICENSE"} <= set(copied)  # MIT asks for its notice in copies
    assert not any(p.startswith(("tests/", "benchmarks/", ".venv/")) or "__pycache__" in p for p in copied)
    result = probe(app)
    assert result.returncode == 0, result.stderr
    first, *languages = result.stdout.splitlines()
    assert Path(first).is_relative_to(app), first
    assert languages == [f"{lang} {lang} True" for lang in ("en", "fr", "es", "pt_BR")], result.stdout
    assert "No rules page" not in result.stderr, result.stderr


def test_a_missing_rules_page_is_logged(tmp_path: Path) -> None:
    """Without the French page, French readers get English and the log says so once."""
    app = tmp_path / "app"
    image_layout(app)
    (app / "docs" / "rules.fr.md").unlink()
    result = probe(app)
    assert result.returncode == 0, result.stderr
    assert "fr en False" in result.stdout.splitlines()
    assert result.stderr.count("No rules page for fr") == 1, result.stderr
