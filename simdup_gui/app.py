"""``simdup-gui [DIR]``: start the desktop app (and scan DIR at once if given)."""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QSettings, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from simdup_gui.engine.kernels import loading_no_kernels_here
from simdup_gui.engine.resources import resource
from simdup_gui.logs import start_logging
from simdup_gui.ui.dialogs import Dialogs
from simdup_gui.ui.i18n import install_language, system_language
from simdup_gui.ui.main_window import MainWindow

log = logging.getLogger(__name__)


def create_window(
    folder: str | None = None, settings: QSettings | None = None, dialogs: Dialogs | None = None
) -> MainWindow:
    """The main window, in the saved (or the system's) language, scanning ``folder`` if given.

    Its questions are asked through ``dialogs`` (by default, dialog boxes on the window).
    """
    settings = settings or QSettings("simdup", "simdup")
    install_language(str(settings.value("language", system_language())))
    window = MainWindow(settings, dialogs)
    if folder:
        window.scans.start(folder)
    return window


def main(argv: Sequence[str] | None = None) -> int:
    """Open the main window and run the event loop."""
    args = list(sys.argv if argv is None else argv)
    app = QApplication.instance() or QApplication(args)
    app.setApplicationName("simdup")
    app.setWindowIcon(QIcon(str(resource("icon", "simdup.png"))))
    start_logging()
    with loading_no_kernels_here():  # the window never waits for numba: see kernels.py
        window = create_window(args[1] if len(args) > 1 else None)
        window.show()
        QTimer.singleShot(0, lambda: log.info("window shown"))  # once its first events are done
        quit_on_signals(app)
        code = app.exec()
        window.runner.shutdown()  # a quit by signal closes no window: stop the scan and workers
    return code


def quit_on_signals(app: QCoreApplication) -> None:
    """Quit the event loop, as a closed window would, on SIGTERM (``kill``, a logout) or SIGINT.

    Python runs a signal's handler only when it has control: a timer hands it control
    four times a second while Qt waits for events.
    """
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: app.quit())
    wake = QTimer(app)
    wake.timeout.connect(lambda: None)
    wake.start(250)
