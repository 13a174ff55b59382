"""Code quality gates: the engine's import purity and enum docstrings, and the code's citations of the
rules page. (ruff and mypy --strict run before the tests, in scripts/check.)"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ENGINE = REPO / "bot" / "engine"

# Never allowed in the engine, standard library or not: it stays pure and synchronous, so every game
# replays from its seed and is tested without Discord.
FORBIDDEN = frozenset(
    {
        "discord",
        "aiosqlite",
        "asyncio",
        "pydantic",
        "pydantic_settings",
        "sqlite3",
        "aiohttp",
        "requests",
        "httpx",
        "socket",
        "threading",
        "multiprocessing",
        "concurrent",
        "cogs",
    }
)


def imported_modules(source: str) -> list[tuple[int, str]]:
    """Every module a source imports: (line, absolute dotted name; "." prefix for relative).

    Includes ``importlib.import_module("...")`` and ``__import__("...")`` calls with a literal.
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__"))
            )
        ):
            found.append((node.lineno, "dynamic:" + node.args[0].value))
    return found


def impurities(source: str) -> list[str]:
    """The imports that break the engine's purity: only the standard library and bot.engine.

    Dynamic imports (``importlib``) count as any other: the one optional library the engine
    loaded that way, rlcard for the benchmark, is now loaded by ``benchmarks/``.
    """
    bad = []
    for line, name in imported_modules(source):
        name = name.removeprefix("dynamic:")
        if name.startswith("."):
            continue  # relative: inside bot.engine
        top = name.split(".")[0]
        if top in FORBIDDEN:
            bad.append(f"line {line}: {name} is forbidden in the engine")
        elif top == "bot":
            if name != "bot.engine" and not name.startswith("bot.engine."):
                bad.append(f"line {line}: {name} is outside bot.engine")
        elif top not in sys.stdlib_module_names and top != "__future__":
            bad.append(f"line {line}: {name} is not in the standard library")
    return bad


ENGINE_MODULES = sorted(ENGINE.rglob("*.py"))


@pytest.mark.parametrize("path", ENGINE_MODULES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_engine_import_purity(path: Path) -> None:
    """The engine module imports only the standard library and bot.engine."""
    assert impurities(path.read_text(encoding="utf-8")) == []


def test_engine_modules_found() -> None:
    """The purity check sees the engine's modules."""
    names = {p.name for p in ENGINE_MODULES}
    assert {"cards.py", "game.py", "variants.py", "scenarios.py"} <= names


@pytest.mark.parametrize(
    "source",
    [
        "import discord",
        "from discord import ui",
        "import discord.ext.commands",
        "import aiosqlite",
        "import asyncio",
        "from asyncio import Lock",
        "import pydantic",
        "from pydantic_settings import BaseSettings",
        "import sqlite3",
        "from sqlite3 import connect",
        "import numpy",
        "import bot.settings",
        "from bot import tables",
        "from bot.storage import repo",
        "from cogs import uno",
        "def f():\n    import asyncio",
        "import importlib\nimportlib.import_module('discord')",
        "__import__('sqlite3')",
        "if True:\n    from aiosqlite import connect",
        "import importlib\nimportlib.import_module('rlcard')",
    ],
)
def test_purity_check_catches(source: str) -> None:
    """The purity check flags Discord, database, async and non-engine imports."""
    assert impurities(source)


@pytest.mark.parametrize(
    "source",
    [
        "from __future__ import annotations",
        "import random\nimport tomllib\nfrom collections import Counter",
        "from bot.engine.cards import Card",
        "import bot.engine.game",
        "from bot.engine import effects",
        "from bot import engine",
        "from . import cards",
        "from .cards import Card",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.engine.game import Game",
        "import importlib\nimportlib.import_module('json')",
    ],
)
def test_purity_check_allows(source: str) -> None:
    """The purity check allows the standard library and the engine's own modules."""
    assert impurities(source) == []


def undocumented_members(source: str) -> list[str]:
    """Enum members (``NAME = value`` in a class deriving from an ``enum`` base) without a
    one-line docstring right after them, as ``Class.NAME``."""
    missing = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef) or not any("Enum" in ast.unparse(b) for b in node.bases):
            continue
        body = node.body
        for i, stmt in enumerate(body):
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                continue
            target = stmt.targets[0]
            if not isinstance(target, ast.Name) or not target.id.isupper():
                continue
            doc = body[i + 1] if i + 1 < len(body) else None
            ok = (
                isinstance(doc, ast.Expr)
                and isinstance(doc.value, ast.Constant)
                and isinstance(doc.value.value, str)
                and doc.value.value.strip()
                and "\n" not in doc.value.value.strip()
            )
            if not ok:
                missing.append(f"{node.name}.{target.id}")
    return missing


@pytest.mark.parametrize("path", ENGINE_MODULES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_engine_enum_members_have_docstrings(path: Path) -> None:
    """Every enum member in the engine has a one-line docstring (its meaning, next to its value)."""
    assert undocumented_members(path.read_text(encoding="utf-8")) == []


def test_member_docstring_check_catches() -> None:
    """The docstring check flags a member without one, or with several lines."""
    source = 'import enum\nclass K(enum.StrEnum):\n    A = "a"\n    B = "b"\n    """Two\n    lines."""\n'
    assert undocumented_members(source) == ["K.A", "K.B"]


# The code cites the repository's rule page, docs/rules.md: "docs/rules.md §1.9", "§6-§11", "ruling 27".
RULES_PAGE = REPO / "docs" / "rules.md"
CITING_FILES = sorted(p for folder in ("bot", "cogs", "benchmarks") for p in (REPO / folder).rglob("*.py"))
SECTION_CITATION = re.compile(r"§(\d+(?:\.\d+)?)")
RULING_CITATION = re.compile(r"\brulings?\s+(\d+(?:\s*(?:-|,|and)\s*\d+)*)")


def rules_page_numbers(text: str) -> tuple[set[str], set[int]]:
    """The numbers of a rules page's headings (``"1"``, ``"1.9"``) and of the rulings in its list."""
    sections = set(re.findall(r"(?m)^#{2,3} (\d+(?:\.\d+)?)\.? ", text))
    listing = re.split(r"(?m)^## \d+\. Rulings$", text, maxsplit=1)[1].split("\n## ", 1)[0]
    return sections, {int(n) for n in re.findall(r"(?m)^(\d+)\. ", listing)}


def bad_citations(source: str, sections: set[str], rulings: set[int]) -> list[str]:
    """The section (``§X.Y``, ranges by their ends) and ruling (``ruling N``, ``rulings 3-5, 9``)
    citations in ``source`` that the rules page does not have."""
    bad = [f"§{n}" for n in SECTION_CITATION.findall(source) if n not in sections]
    for match in RULING_CITATION.finditer(source):
        for part in re.split(r"\s*(?:,|and)\s*", match.group(1)):
            low, _, high = part.partition("-")
            bad += [f"ruling {n}" for n in range(int(low), int(high or low) + 1) if n not in rulings]
    return bad


def test_rules_page_numbers() -> None:
    """The rules page parses into its numbered sections and rulings 1 to 48 at least."""
    sections, rulings = rules_page_numbers(RULES_PAGE.read_text(encoding="utf-8"))
    assert {"1", "1.9", "6", "8.10", "11.7", "12", "13"} <= sections
    assert set(range(1, 49)) <= rulings


def test_code_does_not_cite_rules_md() -> None:
    """No Python file in bot/, cogs/ or benchmarks/ mentions RULES.md (they cite docs/rules.md)."""
    citing = [
        p.relative_to(REPO).as_posix() for p in CITING_FILES if "RULES.md" in p.read_text(encoding="utf-8")
    ]
    assert citing == []


def test_code_citations_exist() -> None:
    """Every docs/rules.md section and ruling cited in bot/, cogs/ or benchmarks/ is on the page."""
    sections, rulings = rules_page_numbers(RULES_PAGE.read_text(encoding="utf-8"))
    bad = {
        p.relative_to(REPO).as_posix(): found
        for p in CITING_FILES
        if (found := bad_citations(p.read_text(encoding="utf-8"), sections, rulings))
    }
    assert bad == {}
    assert sum(len(SECTION_CITATION.findall(p.read_text(encoding="utf-8"))) for p in CITING_FILES) > 50


@pytest.mark.parametrize(
    ("source", "bad"),
    [
        ("(docs/rules.md §1.9)", []),
        ("(docs/rules.md §1.2-§1.4; rulings 3-5, 46 and 47)", []),
        ("(docs/rules.md §6-§11, §8.10)", []),
        ("(docs/rules.md §1.10)", ["§1.10"]),
        ("(docs/rules.md §16)", ["§16"]),
        ("(docs/rules.md §6-§15)", ["§15"]),
        ("(docs/rules.md ruling 99)", ["ruling 99"]),
        ("(docs/rules.md §2; rulings 47-49, 98-100)", ["ruling 98", "ruling 99", "ruling 100"]),
    ],
)
def test_citation_check_catches(source: str, bad: list[str]) -> None:
    """The citation check flags a section or ruling the rules page lacks, and only those."""
    sections, rulings = rules_page_numbers(RULES_PAGE.read_text(encoding="utf-8"))
    assert bad_citations(source, sections, rulings) == bad
