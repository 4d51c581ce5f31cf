"""The lists a person keeps from the window, each edited in a :class:`ListDialog`.

The folders scanned together, the reference and excluded folders, and the pairs said to be not
duplicates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from simdup_gui.core import not_duplicates
from simdup_gui.engine.read.walk import display_path
from simdup_gui.ui.list_dialog import ListDialog, Row
from simdup_gui.ui.settings_dialog import folder_list, set_folder_list

if TYPE_CHECKING:
    from simdup_gui.ui.main_window import MainWindow


class FolderLists(QObject):
    """The window's list commands; a change regroups or rescans what it concerns."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window

    def _asking_for(self, title: str) -> Callable[[], Row | None]:
        """An "Add" for a list of folders: the person chooses one."""

        def add() -> Row | None:
            folder = self.window.dialogs.folder(title, self.window.root or "")
            return (display_path(folder), folder) if folder else None

        return add

    def scan_several(self) -> None:
        """Ask for several folders and scan them together: copies across them share groups."""
        window = self.window
        dialog = ListDialog(
            self.tr("Scan several folders"),
            self.tr("The files of all these folders are compared with one another."),
            [(display_path(f), f) for f in window.scans.folders],
            window,
            add=self._asking_for(self.tr("Add a folder to the scan")),
        )
        if window.dialogs.edit(dialog) and dialog.values():
            folders = [str(folder) for folder in dialog.values()]
            window.scans.start(folders if len(folders) > 1 else folders[0])

    def edit_not_duplicates(self) -> None:
        """List the pairs said to be not duplicates; those removed may share a group again."""
        window, session = self.window, self.window.session
        rows = [(" ↔ ".join(map(display_path, p)), p) for p in sorted(session.not_duplicates)]
        dialog = ListDialog(
            self.tr("Not duplicates"),
            self.tr(
                "You said these files are not duplicates of each other: they never share a group."
                " Remove a pair to let its files be grouped again."
            ),
            rows,
            window,
        )
        if not window.dialogs.edit(dialog):
            return
        kept = {pair for pair in dialog.values() if isinstance(pair, tuple)}
        if kept == session.not_duplicates:
            return
        removed = session.not_duplicates - kept
        try:  # merged with the list on disk: pairs the command line added meanwhile stay
            session.not_duplicates = not_duplicates.change(remove=removed)
        except (not_duplicates.NotDuplicatesError, OSError) as exc:
            session.not_duplicates -= removed
            window.dialogs.warn(self.tr("The list on disk is unchanged: {0}").format(exc))
        if window.result is not None:
            window.show_result(window.result)

    def edit_reference_folders(self) -> None:
        """Choose the folders whose files are never marked, moved or trashed (a regroup)."""
        text = self.tr(
            "Files in these folders (inside the folder you scan) are never marked, moved or"
            " trashed, and a group's reference comes from them when it has one."
        )
        title, choose = self.tr("Reference folders"), self.tr("Choose a reference folder")
        if self._edit("reference_folders", title, text, choose) and self.window.result:
            self.window.show_result(self.window.result)

    def edit_excluded_folders(self) -> None:
        """Choose the folders a scan leaves out (a rescan)."""
        before = self.window.scans.options()
        text = self.tr(
            "These folders (inside the folder you scan) and what they hold are not read."
        )
        title, choose = self.tr("Excluded folders"), self.tr("Choose a folder to leave out")
        if self._edit("excluded_folders", title, text, choose):
            self.window.scans.apply_settings(before)

    def _edit(self, key: str, title: str, text: str, choose: str) -> bool:
        """Edit a list of folders kept in the settings; whether it was changed."""
        settings = self.window.settings
        folders = folder_list(settings, key)
        rows = [(display_path(folder), folder) for folder in folders]
        dialog = ListDialog(title, text, rows, self.window, add=self._asking_for(choose))
        if not self.window.dialogs.edit(dialog):
            return False
        chosen = [str(folder) for folder in dialog.values()]
        set_folder_list(settings, key, chosen)
        return chosen != folders
