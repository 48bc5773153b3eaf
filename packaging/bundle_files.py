"""What the PyInstaller bundle must carry besides the imported code.

Kept out of ``rigforge.spec`` so that tests can check it without PyInstaller.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP_ID = "io.github.rigforge.RigForge"

# Loaded by name (importlib / importlib.resources), so PyInstaller's import scan misses them.
HIDDEN_PACKAGES = ("core", "gui", "resources")

_NOT_DATA = {".py", ".pyc"}


def resource_datas(root: Path = ROOT) -> list[tuple[str, str]]:
    """``(source file, destination folder)`` for every data file under ``resources/``.

    The destination mirrors the source tree, so ``importlib.resources.files(
    "resources.catalog")`` finds the same files in the bundle as in a checkout.
    """
    base = root / "resources"
    return [
        (str(path), str(path.parent.relative_to(root)))
        for path in sorted(base.rglob("*"))
        if path.is_file() and path.suffix not in _NOT_DATA and "__pycache__" not in path.parts
    ]


def icon_datas(root: Path = ROOT) -> list[tuple[str, str]]:
    """The application icons, for a future window icon and for the Linux install script."""
    icons = root / "packaging" / "icons"
    return [
        (str(path), str(Path("share") / path.parent.relative_to(root / "packaging")))
        for path in sorted(icons.rglob("*"))
        if path.suffix in {".svg", ".png"}
    ]
