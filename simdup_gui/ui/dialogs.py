"""Every question the app asks a person, in one place.

The window asks through a :class:`Dialogs` object and never opens a dialog box itself, so a test
(or another front end) answers the same questions through the same interface: ``window.dialogs``
is replaced by one that answers from a script (see the UI tests), in the way dupeGuru's core
asks its view.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from contextlib import suppress

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox, QWidget


class NewFolderDialog(QFileDialog):
    """A folder chosen, or a new one named: a name typed that is no folder yet is made empty.

    Qt's own folder dialog answers such a name with "Directory not found".
    """

    def __init__(self, parent: QWidget | None, title: str, start: str) -> None:
        super().__init__(parent, title, start)
        self.setFileMode(QFileDialog.FileMode.Directory)
        self.setOption(QFileDialog.Option.ShowDirsOnly)
        self.setOption(QFileDialog.Option.DontUseNativeDialog)  # accept() is this class's

    def accept(self) -> None:
        """Make the folder named, if it is new and its parent is a folder; then choose it."""
        named = self.selectedFiles()
        if named and not os.path.exists(named[0]) and os.path.isdir(os.path.dirname(named[0])):
            with suppress(OSError):  # not made: Qt's dialog says the folder is not found
                os.mkdir(named[0])
        super().accept()


class Dialogs(QObject):
    """The real questions: dialog boxes on the window."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window

    def folder(self, title: str, start: str) -> str:
        """A folder the person chooses ("" if none)."""
        return QFileDialog.getExistingDirectory(self.window, title, start)

    def new_folder(self, title: str, start: str) -> str:
        """A folder the person chooses, or names anew to have it made ("" if none)."""
        dialog = NewFolderDialog(self.window, title, start)
        return dialog.selectedFiles()[0] if dialog.exec() == QDialog.DialogCode.Accepted else ""

    def open_path(self, title: str, start: str, kinds: str) -> str:
        """A file to open ("" if cancelled)."""
        return QFileDialog.getOpenFileName(self.window, title, start, kinds)[0]

    def save_path(self, title: str, suggested: str, kinds: str) -> str:
        """Where to save a file ("" if cancelled)."""
        return QFileDialog.getSaveFileName(self.window, title, suggested, kinds)[0]

    def text(self, title: str, label: str) -> str:
        """A line of text the person types ("" if cancelled)."""
        value, accepted = QInputDialog.getText(self.window, title, label)
        return value if accepted else ""

    def confirm(self, question: str, details: Sequence[str]) -> bool:
        """Yes or no, with a scrollable list of what it concerns; No is the default."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "simdup",
            question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self.window,
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.setEscapeButton(QMessageBox.StandardButton.No)
        if details:
            box.setDetailedText("\n".join(details))
        return box.exec() == QMessageBox.StandardButton.Yes

    def inform(self, text: str) -> None:
        """A message the person reads and closes."""
        QMessageBox.information(self.window, "simdup", text)

    def warn(self, text: str) -> None:
        """A problem the person must know about."""
        QMessageBox.warning(self.window, "simdup", text)

    def edit(self, dialog: QDialog) -> bool:
        """Show a modal dialog; whether it was accepted."""
        return dialog.exec() == QDialog.DialogCode.Accepted

    def open_url(self, url: QUrl) -> None:
        """Open a file or folder with the system's program for it."""
        QDesktopServices.openUrl(url)
