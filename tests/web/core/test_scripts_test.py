"""``scripts/test ARGS`` runs pytest on the parallel workers as ``scripts/test`` alone does,
unless the arguments choose the workers themselves (``-n``, or ``-p no:xdist``).

The script runs for real, in a copy of the project's ``scripts/`` beside a virtualenv of stubs:
its ruff, mypy, lint-imports and pytest write down how they were called, and the engines' build
does nothing.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
STUB = '#!/bin/sh\nprintf "%s\\n" "$@" >> "{log}"\n'


def run_the_script(tmp_path: Path, *args: str, **env: str) -> list[str]:
    """scripts/test ARGS in a copy: pytest's arguments as the script passed them."""
    (tmp_path / "scripts").mkdir()
    for name in ("test", "_lib.sh"):
        shutil.copy2(ROOT / "scripts" / name, tmp_path / "scripts" / name)
    (tmp_path / "scripts" / "build-engines").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "scripts" / "build-engines").chmod(0o755)
    pyproject = (ROOT / "pyproject.toml").read_bytes()
    (tmp_path / "pyproject.toml").write_bytes(pyproject)
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    (venv / ".installed").write_text(hashlib.sha256(pyproject).hexdigest() + "-dev\n")
    for tool in ("ruff", "mypy", "lint-imports", "pytest"):
        (venv / "bin" / tool).write_text(STUB.format(log=tmp_path / f"{tool}.log"))
        (venv / "bin" / tool).chmod(0o755)
    environment = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_WORKERS")}
    done = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "test"), *args],
        env={**environment, "VENV": str(venv), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return (tmp_path / "pytest.log").read_text().splitlines()


@pytest.fixture(autouse=True)
def _chromium() -> None:
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("the script installs Chromium first where it is missing")


def test_alone_it_runs_on_two_workers(tmp_path: Path) -> None:
    assert run_the_script(tmp_path) == ["-n", "2", "--dist", "loadgroup", "-q"]


def test_with_arguments_it_keeps_the_workers(tmp_path: Path) -> None:
    assert run_the_script(tmp_path, "tests/games", "-x") == [
        "-n",
        "2",
        "--dist",
        "loadgroup",
        "tests/games",
        "-x",
    ]


def test_pytest_workers_says_how_many(tmp_path: Path) -> None:
    assert run_the_script(tmp_path, "tests/games", PYTEST_WORKERS="3")[:2] == ["-n", "3"]


@pytest.mark.parametrize(
    "args",
    [
        ("-n", "4", "tests/games"),
        ("-n4", "tests/games"),
        ("--numprocesses=auto", "tests/games"),
        ("-p", "no:xdist", "tests/games"),
        ("-pno:xdist", "tests/games"),
    ],
)
def test_arguments_that_choose_the_workers_are_passed_as_they_are(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    assert run_the_script(tmp_path, *args) == list(args)


QUICK = ["-q", "-m", "not slow and not browser"]


def test_quick_runs_the_engines_and_the_pairing_without_the_long_tests(tmp_path: Path) -> None:
    workers = ["-n", "2", "--dist", "loadgroup"]
    assert run_the_script(tmp_path, "--quick") == [*workers, *QUICK, "tests/games", "tests/pairing"]


def test_quick_with_paths_runs_those(tmp_path: Path) -> None:
    workers = ["-n", "2", "--dist", "loadgroup"]
    assert run_the_script(tmp_path, "--quick", "tests/web/play", "-x") == [
        *workers,
        *QUICK,
        "tests/web/play",
        "-x",
    ]


def test_the_long_tests_are_marked_slow() -> None:
    """The quick loop leaves out what the ``slow`` marker marks: some tests must carry it."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-m",
            "slow",
            "-p",
            "no:xdist",
            "tests/games",
            "tests/pairing",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    marked = [line for line in done.stdout.splitlines() if "::" in line]
    assert len(marked) >= 10, done.stdout[-2000:]


def test_it_checks_the_layers_before_the_tests(tmp_path: Path) -> None:
    """import-linter's contracts (pyproject.toml) run in the full command and in the quick loop."""
    for way, args in (("full", ()), ("quick", ("--quick",))):
        (tmp_path / way).mkdir()
        run_the_script(tmp_path / way, *args)
        assert (tmp_path / way / "lint-imports.log").read_text().split() == ["--no-cache"], way
