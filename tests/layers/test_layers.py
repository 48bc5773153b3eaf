"""The layers point one way, and no two modules import each other (directly or not).

models ← calc ← (text, files, prices, cli) ← gui;  gui views and charts never call
``core.calc`` (they render what view-models emit). Read from the sources' import
statements, including imports inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute and relative), by full dotted name."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            found.add(stem)
            found |= {f"{stem}.{a.name}" for a in node.names}
    return found


def _sources(*packages: str) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for package in packages:
        for path in (ROOT / package.replace(".", "/")).rglob("*.py"):
            graph[_module_name(path)] = _imports(path)
    return graph


GRAPH = _sources("core", "gui")
MODULES = set(GRAPH)


def _internal(names: set[str]) -> set[str]:
    """The project modules among ``names`` (``a.b.c`` counts when it is a module)."""
    return {n for n in names if n in MODULES}


def _offenders(prefix: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{module} imports {name}"
        for module, names in GRAPH.items()
        if module == prefix or module.startswith(prefix + ".")
        for name in _internal(names)
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    )


def test_models_import_no_other_part_of_core() -> None:
    others = tuple(
        f"core.{p.name}"
        for p in (ROOT / "core").iterdir()
        if p.is_dir() and p.name not in ("models", "__pycache__")
    )
    assert _offenders("core.models", (*others, "core.errors")) == []


def test_calc_imports_neither_text_cli_files_nor_prices() -> None:
    assert _offenders("core.calc", ("core.text", "core.cli", "core.files", "core.prices")) == []


def test_text_does_not_calculate() -> None:
    assert _offenders("core.text", ("core.calc", "core.cli", "core.files")) == []


@pytest.mark.parametrize("layer", ["gui.views", "gui.charts"])
def test_gui_views_and_charts_do_not_call_calc(layer: str) -> None:
    assert _offenders(layer, ("core.calc",)) == []


def test_no_import_cycles() -> None:
    edges = {m: _internal(GRAPH[m]) - {m} for m in MODULES}
    # a package's __init__ re-exporting its own modules is not a cycle between concerns
    edges = {m: {n for n in deps if not m.startswith(n + ".")} for m, deps in edges.items()}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for module in sorted(MODULES):
        if module not in state:
            visit(module, [module])
    assert cycles == []
