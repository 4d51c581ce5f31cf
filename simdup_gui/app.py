"""``simdup-gui [DIR]``: start the desktop app (and scan DIR at once if given)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from simdup_gui.logs import start_logging
from simdup_gui.ui.i18n import install_language, system_language
from simdup_gui.ui.main_window import MainWindow


def create_window(folder: str | None = None, settings: QSettings | None = None) -> MainWindow:
    """The main window, in the saved (or the system's) language, scanning ``folder`` if given."""
    settings = settings or QSettings("simdup", "simdup")
    install_language(str(settings.value("language", system_language())))
    window = MainWindow(settings)
    if folder:
        window.start_scan(folder)
    return window


def main(argv: Sequence[str] | None = None) -> int:
    """Open the main window and run the event loop."""
    args = list(sys.argv if argv is None else argv)
    app = QApplication.instance() or QApplication(args)
    app.setApplicationName("simdup")
    start_logging()
    window = create_window(args[1] if len(args) > 1 else None)
    window.show()
    QTimer.singleShot(0, window.note_first_run)
    return app.exec()
