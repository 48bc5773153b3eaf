"""``core`` must work where Qt is not installed, and must never import gui."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("PySide6", "pyqtgraph", "gui", "shiboken6")

BLOCKER = """
import importlib.abc, sys, pkgutil, importlib
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split('.')[0] in {forbidden!r}:
            raise ImportError('blocked for this test: ' + name)
sys.meta_path.insert(0, Block())
import core
for info in pkgutil.walk_packages(core.__path__, 'core.'):
    importlib.import_module(info.name)
print('imported', len(list(pkgutil.walk_packages(core.__path__, 'core.'))))
"""


def test_every_core_module_imports_with_qt_unavailable() -> None:
    result = subprocess.run(
        [sys.executable, "-c", BLOCKER.format(forbidden=set(FORBIDDEN))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "imported" in result.stdout


def test_no_core_source_mentions_a_forbidden_import() -> None:
    offenders = []
    for path in (ROOT / "core").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert not offenders
