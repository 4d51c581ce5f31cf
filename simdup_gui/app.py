"""``simdup-gui``: start the desktop app.

The full review window (groups, side-by-side compare, actions) is the next milestone; until it
lands this window says so and points to the ``simdup`` command, which runs the same engine.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow


class MainWindow(QMainWindow):
    """The app's main window (placeholder until the review UI lands)."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("simdup")
        label = QLabel(
            "<h2>simdup</h2><p>The review window is on its way.</p>"
            "<p>Meanwhile run <code>simdup scan FOLDER --csv report.csv</code>.</p>"
        )
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(label)
        self.resize(640, 400)


def main(argv: Sequence[str] | None = None) -> int:
    """Open the main window and run the event loop."""
    app = QApplication.instance() or QApplication(list(argv or sys.argv))
    window = MainWindow()
    window.show()
    return app.exec()
