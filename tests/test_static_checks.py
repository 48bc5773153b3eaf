"""Lint, format and type checks run as part of the test suite."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint() -> None:
    result = run("ruff", "check", "core", "gui", "tests", "benchmarks", "tools")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = run("ruff", "format", "--check", "core", "gui", "tests", "benchmarks", "tools")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_core_and_gui() -> None:
    result = run("mypy", "core", "gui")
    assert result.returncode == 0, result.stdout + result.stderr
