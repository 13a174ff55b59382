"""The rule-scenario suite and its runner (bot/engine/scenarios.py; the format: docs/scenarios.md)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.engine.scenarios import run_file

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO / "tests" / "scenarios"
EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "scenario-examples"
DOS_EXAMPLES = EXAMPLES.parent / "dos-examples"
CLOSING = re.compile(r"(\d+) passed, (\d+) failed")

OTHER_EDITIONS = ["flip", "flip-marvel", "harry-potter", "cars2", "dc-super-hero-girls"]


def _scenario_params() -> list[object]:
    params: list[object] = [
        pytest.param(path, id=path.relative_to(REPO).as_posix()) for path in sorted(SUITE.rglob("*.toml"))
    ]
    if EXAMPLES.is_dir():
        params += [
            pytest.param(path, id=f"shared/{path.relative_to(EXAMPLES.parent).as_posix()}")
            for folder in (EXAMPLES, DOS_EXAMPLES)
            for path in sorted(folder.rglob("*.toml"))
        ]
    else:
        params.append(
            pytest.param(
                EXAMPLES,
                id="shared/scenario-examples",
                marks=pytest.mark.skip(reason=f"{EXAMPLES} is missing"),
            )
        )
    return params


@pytest.mark.parametrize("path", _scenario_params())
def test_scenario_passes(path: Path) -> None:
    """The scenario file passes through the runner."""
    status, why = run_file(path)
    assert (status, why) == ("PASS", None)


def _variant_of(path: Path) -> str:
    return str(tomllib.loads(path.read_text(encoding="utf-8"))["variant"])


def test_classic_suite_size() -> None:
    """The suite holds at least 70 classic-variant scenarios (classic and house-rules folders)."""
    files = [*(SUITE / "classic").glob("*.toml"), *(SUITE / "house-rules").glob("*.toml")]
    classic = [f for f in files if _variant_of(f) == "classic"]
    assert len(classic) >= 70


@pytest.mark.parametrize("edition", OTHER_EDITIONS)
def test_edition_suite_size(edition: str) -> None:
    """Every other edition's folder holds at least 15 scenarios of that variant."""
    files = sorted((SUITE / edition).glob("*.toml"))
    assert len([f for f in files if _variant_of(f) == edition]) >= 15


def test_dos_suite_size() -> None:
    """The DOS folder holds at least 40 scenarios of variant dos (RULES.md section 12)."""
    files = sorted((SUITE / "dos").glob("*.toml"))
    assert len([f for f in files if _variant_of(f) == "dos"]) >= 40


DOS_GOOD = """\
title = "A single number match"
variant = "dos"
players = ["ana", "ben"]
{top_extra}
[deal]
dealer = "ben"
center = [["red 7"], ["blue 9"]]
draw = ["green 1"]
{deal_extra}
[deal.hands]
ana = ["yellow 7", "green 3"]
ben = ["green 5"]

[[step]]
player = "ana"
action = "{action}"
pile = 1
card = "yellow 7"

[expect]
turn = "ben"
center = [["blue 9"], ["green 1"]]
"""


@pytest.mark.parametrize(
    ("parts", "status"),
    [
        ({}, "PASS"),
        ({"action": "draw"}, "FAIL"),  # the draw is accepted but the row is unchanged
        ({"deal_extra": 'color = "red"'}, "ERROR"),  # no current color in DOS
        ({"deal_extra": 'direction = "right"'}, "ERROR"),
        ({"deal_extra": 'dos_called = ["ben"]'}, "ERROR"),  # one card: no call can stand
        ({"action": "uno"}, "FAIL"),  # refused with not-expected
    ],
)
def test_dos_files_go_to_the_dos_runner(tmp_path: Path, parts: dict[str, str], status: str) -> None:
    """A variant = "dos" file is run by the DOS rules (docs/scenarios.md's DOS section): a correct one
    passes, a wrong expectation fails, fields DOS doesn't use are a bad file."""
    path = tmp_path / "dos.toml"
    fields = {"top_extra": "", "deal_extra": "", "action": "play", **parts}
    path.write_text(DOS_GOOD.format(**fields), encoding="utf-8")
    assert run_file(path)[0] == status


# --------------------------------------------------------------------------- command line

GOOD = """\
title = "A matching number is played"
variant = "classic"
players = ["ana", "ben", "cy"]
{top_extra}
[deal]
dealer = "cy"
discard = ["red 7"]
draw = ["blue 1"]
{deal_extra}
[deal.hands]
ana = ["red 2", "blue 9"]
ben = {ben}
cy = ["green 8"]

[[step]]
player = "ana"
action = "{action}"
card = {card}

[expect]
turn = "ben"
top = "{top}"
"""


def scenario(
    *,
    top_extra: str = "",
    deal_extra: str = "",
    ben: str = '["yellow 5"]',
    action: str = "play",
    card: str = '"red 2"',
    top: str = "red 2",
) -> str:
    """A scenario text, correct unless a part is replaced."""
    return GOOD.format(top_extra=top_extra, deal_extra=deal_extra, ben=ben, action=action, card=card, top=top)


def run_cli(*paths: Path | str) -> subprocess.CompletedProcess[str]:
    """python -m bot.engine.scenarios PATH..., from the repository."""
    return subprocess.run(
        [sys.executable, "-m", "bot.engine.scenarios", *map(str, paths)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def closing_line(result: subprocess.CompletedProcess[str]) -> tuple[int, int]:
    """The (passed, failed) counts of the closing line, checking its format."""
    last = result.stdout.strip().splitlines()[-1]
    match = CLOSING.fullmatch(last)
    assert match, f"bad closing line {last!r}"
    return int(match[1]), int(match[2])


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    """Neither output holds a Python traceback."""
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr


def test_cli_all_pass(tmp_path: Path) -> None:
    """Exit 0 when every scenario passes; one PASS line per file, then the closing line."""
    good = tmp_path / "good.toml"
    good.write_text(scenario(), encoding="utf-8")
    result = run_cli(good, SUITE / "classic")
    no_traceback(result)
    assert result.returncode == 0, result.stdout
    files = 1 + len(list((SUITE / "classic").glob("*.toml")))
    lines = result.stdout.strip().splitlines()
    assert len(lines) == files + 1
    assert lines[0] == f"PASS {good}"
    assert all(line.startswith("PASS ") for line in lines[:-1])
    assert closing_line(result) == (files, 0)


def test_cli_whole_suite() -> None:
    """The whole suite (and the shared examples) pass from the command line."""
    paths = [SUITE, *([EXAMPLES] if EXAMPLES.is_dir() else [])]
    result = run_cli(*paths)
    no_traceback(result)
    assert result.returncode == 0, result.stdout
    passed, failed = closing_line(result)
    assert failed == 0
    assert passed == sum(len(list(p.rglob("*.toml"))) for p in paths)


def test_cli_failing_scenario(tmp_path: Path) -> None:
    """Exit 1 when a scenario fails: a FAIL line names the file and the first difference."""
    good = tmp_path / "good.toml"
    good.write_text(scenario(), encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(scenario(top="red 3"), encoding="utf-8")
    result = run_cli(good, wrong)
    no_traceback(result)
    assert result.returncode == 1, result.stdout
    lines = result.stdout.strip().splitlines()
    assert lines[0] == f"PASS {good}"
    assert lines[1].startswith(f"FAIL {wrong}: ")
    assert "red 3" in lines[1]
    assert closing_line(result) == (1, 1)


def test_cli_refused_step_fails(tmp_path: Path) -> None:
    """A step the engine refuses, without expect_error, fails the scenario with its reason."""
    wrong = tmp_path / "refused.toml"
    wrong.write_text(scenario(card='"blue 9"'), encoding="utf-8")
    result = run_cli(wrong)
    no_traceback(result)
    assert result.returncode == 1
    assert "illegal-play" in result.stdout
    assert closing_line(result) == (0, 1)


MALFORMED = [
    ("not-toml", 'title = "unclosed\n', "TOML"),
    ("unknown-key", scenario(top_extra='colour = "red"'), "colour"),
    ("unknown-deal-key", scenario(deal_extra='hand = ["red 1"]'), "hand"),
    ("unknown-action", scenario(action="dance"), "dance"),
    ("no-such-card", scenario(ben='["blue 10"]'), "blue 10"),
    ("card-not-in-variant", scenario(ben='["pink 9"]'), "pink 9"),
    ("two-sided-in-classic", scenario(ben='["red 1 / pink 1"]'), "red 1 / pink 1"),
    ("too-many-copies", scenario(ben='["red 2", "red 2"]'), "red 2"),
    ("unknown-variant", scenario().replace('"classic"', '"uno-attack"'), "uno-attack"),
    ("missing-players", scenario().replace('players = ["ana", "ben", "cy"]', ""), "players"),
    ("step-card-not-text", scenario(card="5"), "card"),
    ("bad-option", scenario(top_extra="[options]\ntarget_score = -1"), "target_score"),
    ("bad-direction", scenario(deal_extra='direction = "up"'), "up"),
    ("not-utf8", b"\xff\xfe title", "read"),
    ("options-not-a-table", scenario(top_extra="options = 5"), "options"),
    ("scores-not-a-table", scenario(deal_extra="scores = 5"), "scores"),
    ("score-not-a-number", scenario(deal_extra='scores = { ana = "x" }'), "scores"),
]


@pytest.mark.parametrize(
    ("text", "reason"),
    [pytest.param(text, reason, id=name) for name, text, reason in MALFORMED],
)
def test_cli_malformed_file(tmp_path: Path, text: str | bytes, reason: str) -> None:
    """Exit 2 for a file it cannot read or parse, with the path and the reason, no traceback."""
    path = tmp_path / "bad.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    result = run_cli(path)
    no_traceback(result)
    assert result.returncode == 2, result.stdout
    line = next(line for line in result.stdout.splitlines() if str(path) in line)
    assert line.startswith(f"ERROR {path}: ")
    assert reason.lower() in line.lower()
    closing_line(result)
    status, why = run_file(path)
    assert status == "ERROR"
    assert why and reason.lower() in why.lower()


def test_cli_missing_path(tmp_path: Path) -> None:
    """Exit 2 for a path that does not exist, naming it, no traceback."""
    missing = tmp_path / "nowhere.toml"
    result = run_cli(missing)
    no_traceback(result)
    assert result.returncode == 2
    assert str(missing) in result.stdout + result.stderr
    assert "no such file" in (result.stdout + result.stderr).lower()


def test_cli_malformed_beats_failed(tmp_path: Path) -> None:
    """With failing and malformed files together, the exit status is 2 and all are reported."""
    wrong = tmp_path / "a_wrong.toml"
    wrong.write_text(scenario(top="red 3"), encoding="utf-8")
    bad = tmp_path / "b_bad.toml"
    bad.write_text("not toml at all [", encoding="utf-8")
    good = tmp_path / "c_good.toml"
    good.write_text(scenario(), encoding="utf-8")
    result = run_cli(tmp_path)
    no_traceback(result)
    assert result.returncode == 2
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith(f"FAIL {wrong}")
    assert lines[1].startswith(f"ERROR {bad}")
    assert lines[2] == f"PASS {good}"
    assert closing_line(result) == (1, 2)


def test_cli_without_arguments() -> None:
    """Without a path the runner prints its usage and exits 2."""
    result = run_cli()
    no_traceback(result)
    assert result.returncode == 2
    assert "usage" in (result.stdout + result.stderr).lower()
