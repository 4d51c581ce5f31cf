"""The window every UI test drives: offscreen, its questions answered by a script."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from driving import ScriptedDialogs
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from simdup_gui.app import create_window
from simdup_gui.engine.kernels import loading_no_kernels_here
from simdup_gui.ui.i18n import install_language
from simdup_gui.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the trash and manifests
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("language", "en")
    with loading_no_kernels_here():  # as the app's main() runs it
        win = create_window(settings=settings, dialogs=ScriptedDialogs())  # type: ignore[arg-type]
        qtbot.addWidget(win)
        win.show()
        yield win
        win.runner.shutdown()
    assert win.runner.pool.activeThreadCount() == 0  # no worker left running
    install_language("en")
