"""The engine never imports Qt."""

from __future__ import annotations

import subprocess
import sys

IMPORT_ALL = """
import importlib, pkgutil, sys
import simdup_gui.cli
import simdup_gui.engine as engine
for module in pkgutil.iter_modules(engine.__path__):
    importlib.import_module(f"simdup_gui.engine.{module.name}")
print(sorted(m for m in sys.modules if m.startswith(("PySide6", "shiboken6"))))
"""


def test_engine_and_cli_do_not_import_qt() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
