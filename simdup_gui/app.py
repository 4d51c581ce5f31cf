"""``simdup-gui [DIR]``: start the desktop app (and scan DIR at once if given)."""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Sequence

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QCoreApplication, QObject, QSettings, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

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


PROBE_CALLS = 8


def binding_fault() -> str:
    """Why this Qt binding cannot run the app for long ("" if it can).

    PySide6 6.12.0 drops a reference to ``None`` on every call that returns nothing
    (``setText``, ``setObjectName``…). Where ``None`` is mortal (Python 3.11) its count falls by
    some hundreds a regroup until Python aborts ("none_dealloc"), losing the session's choices.
    Measured, not looked up by version: a few calls on a plain QObject.
    """
    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(PROBE_CALLS):
        probe.setObjectName("probe")
    if before - sys.getrefcount(None) < PROBE_CALLS:
        return ""
    python = ".".join(map(str, sys.version_info[:3]))
    return (
        f"PySide6 {pyside_version} on Python {python} loses a reference to None on every call "
        'and would crash: python -m pip install "PySide6-Essentials<6.12", or use Python 3.12+'
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Open the main window and run the event loop (exit 2 on a Qt binding that would crash)."""
    args = list(sys.argv if argv is None else argv)
    app = QApplication.instance() or QApplication(args)
    app.setApplicationName("simdup")
    app.setWindowIcon(QIcon(str(resource("icon", "simdup.png"))))
    start_logging()
    fault = binding_fault()
    if fault:  # said before any work is done, rather than lost with it later
        log.error(fault)
        print(f"simdup-gui: {fault}", file=sys.stderr)
        QMessageBox.critical(None, "simdup", fault)
        return 2
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
