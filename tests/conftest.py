from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses a QApplication as ``gui`` (run the engine alone: -m "not gui")."""
    for item in items:
        if "qtbot" in getattr(item, "fixturenames", ()) or "qapp" in getattr(
            item, "fixturenames", ()
        ):
            item.add_marker(pytest.mark.gui)
