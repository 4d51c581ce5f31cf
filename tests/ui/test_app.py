from __future__ import annotations

from pytestqt.qtbot import QtBot

from simdup_gui.app import MainWindow


def test_main_window_opens(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.windowTitle() == "simdup"
