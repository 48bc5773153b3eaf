"""Test-wide setup: Qt without a screen, and no test near the developer's own files.

Every test runs with HOME and the XDG folders in a fresh temporary directory, so price
overrides, the price-feed cache, preferences, autosaves and recent files of the person
running the tests are never read or written. Qt warnings fail the GUI tests
(``qt_log_level_fail`` in pyproject.toml).
"""

import os
import tempfile
from pathlib import Path

import pytest

# Qt must not look for a display in tests; without this pytest aborts on a headless machine.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

_SESSION_HOME = Path(tempfile.mkdtemp(prefix="rigforge-tests-"))
for _name, _sub in (
    ("HOME", "home"),
    ("XDG_CONFIG_HOME", "config"),
    ("XDG_CACHE_HOME", "cache"),
    ("XDG_DATA_HOME", "data"),
):
    os.environ[_name] = str(_SESSION_HOME / _sub)


@pytest.fixture(autouse=True)
def _isolated_user_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Each test gets its own empty HOME, config, cache and data folders (outside the
    test's own ``tmp_path``)."""
    root = tmp_path_factory.mktemp("user")
    for name, sub in (
        ("HOME", "home"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_DATA_HOME", "data"),
    ):
        folder = root / sub
        folder.mkdir(parents=True)
        monkeypatch.setenv(name, str(folder))
    return root


@pytest.fixture(scope="session")
def httpserver_listen_address() -> tuple[str, int]:
    """pytest-httpserver's local server listens on 127.0.0.1 itself, not on the name
    "localhost" (a bare machine or container may not resolve it)."""
    return ("127.0.0.1", 0)
