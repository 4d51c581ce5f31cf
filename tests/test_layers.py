"""The engine and the application core never import Qt; the engine is stage packages."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

IMPORT_ALL = """
import importlib, pkgutil, sys
import simdup_gui.cli
import simdup_gui.core as core
import simdup_gui.engine as engine
for package in (engine, core):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)
print(sorted(m for m in sys.modules if m.startswith(("PySide6", "shiboken6"))))
"""


def test_engine_core_and_cli_do_not_import_qt() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


ENGINE = Path(__file__).resolve().parents[1] / "simdup_gui" / "engine"


def _engine_imports() -> dict[str, set[str]]:
    """Each engine module's imports of other engine modules, function-local ones included."""
    graph: dict[str, set[str]] = {}
    modules = {
        ".".join(p.relative_to(ENGINE.parent.parent).with_suffix("").parts)
        for p in ENGINE.rglob("*.py")
    }
    for path in ENGINE.rglob("*.py"):
        name = ".".join(path.relative_to(ENGINE.parent.parent).with_suffix("").parts)
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    found.add(full if full in modules else node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {m for m in found if m in modules and not m.endswith("__init__")} - {name}
    return graph


def test_the_engine_has_no_import_circle() -> None:
    graph = _engine_imports()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, " -> ".join([*path[path.index(module) :], module])
        if module in done:
            return
        for other in sorted(graph.get(module, ())):
            visit(other, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def test_the_engine_is_stage_packages() -> None:
    """One job per module, whatever its length: the engine's stages are its packages."""
    packages = {p.name for p in ENGINE.iterdir() if (p / "__init__.py").is_file()}
    assert {"read", "text", "fingerprint", "match", "methods", "reuse", "output"} <= packages


def test_no_part_of_the_app_imports_the_window_back() -> None:
    """The window builds its helpers and views; none of them reaches back into it (each is
    given the parts it uses, and the window as a ``ResultView``). Only the start-up makes it."""
    ui = ENGINE.parent / "ui"
    importers = set()
    for path in [*ui.glob("*.py"), *ENGINE.parent.glob("*.py"), *ENGINE.parent.glob("core/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "simdup_gui.ui.main_window":
                importers.add(path.relative_to(ENGINE.parent).as_posix())
    assert importers == {"app.py"}
