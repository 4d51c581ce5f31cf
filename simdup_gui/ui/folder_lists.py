"""The lists a person keeps from the window, each edited in a :class:`ListDialog`.

The folders scanned together, the reference and excluded folders, and the pairs said to be not
duplicates.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QSettings

from simdup_gui.core.session import Session
from simdup_gui.engine.read.walk import display_path
from simdup_gui.ui.dialogs import Dialogs
from simdup_gui.ui.list_dialog import ListDialog, Row
from simdup_gui.ui.result_view import ResultView
from simdup_gui.ui.scans import Scans
from simdup_gui.ui.settings_dialog import folder_list, set_folder_list


class FolderLists(QObject):
    """The window's list commands; a change regroups or rescans what it concerns."""

    def __init__(
        self,
        session: Session,
        settings: QSettings,
        dialogs: Dialogs,
        scans: Scans,
        view: ResultView,
    ) -> None:
        super().__init__(scans)
        self.session, self.settings, self.dialogs = session, settings, dialogs
        self.scans, self.view = scans, view

    def _asking_for(self, title: str) -> Callable[[], Row | None]:
        """An "Add" for a list of folders: the person chooses one."""

        def add() -> Row | None:
            folder = self.dialogs.folder(title, self.session.root or "")
            return (display_path(folder), folder) if folder else None

        return add

    def scan_several(self) -> None:
        """Ask for several folders and scan them together: copies across them share groups."""
        dialog = ListDialog(
            self.tr("Scan several folders"),
            self.tr("The files of all these folders are compared with one another."),
            [(display_path(f), f) for f in self.scans.folders],
            self.dialogs.window,
            add=self._asking_for(self.tr("Add a folder to the scan")),
        )
        if self.dialogs.edit(dialog) and dialog.values():
            folders = [str(folder) for folder in dialog.values()]
            self.scans.start(folders if len(folders) > 1 else folders[0])

    def edit_not_duplicates(self) -> None:
        """List the pairs said to be not duplicates; those removed may share a group again."""
        session = self.session
        rows = [(" ↔ ".join(map(display_path, p)), p) for p in sorted(session.not_duplicates)]
        dialog = ListDialog(
            self.tr("Not duplicates"),
            self.tr(
                "You said these files are not duplicates of each other: they never share a group."
                " Remove a pair to let its files be grouped again."
            ),
            rows,
            self.dialogs.window,
        )
        if not self.dialogs.edit(dialog):
            return
        kept = {pair for pair in dialog.values() if isinstance(pair, tuple)}
        if kept == session.not_duplicates:
            return
        problem = session.write_not_duplicates(remove=session.not_duplicates - kept)
        if problem:
            self.dialogs.warn(self.tr("The list on disk is unchanged: {0}").format(problem))
        if session.result is not None:
            self.view.show_result(session.result)

    def edit_reference_folders(self) -> None:
        """Choose the folders whose files are never marked, moved or trashed (a regroup)."""
        text = self.tr(
            "Files in these folders (inside the folder you scan) are never marked, moved or"
            " trashed, and a group's reference comes from them when it has one."
        )
        title, choose = self.tr("Reference folders"), self.tr("Choose a reference folder")
        if self._edit("reference_folders", title, text, choose) and self.session.result:
            self.view.show_result(self.session.result)

    def edit_excluded_folders(self) -> None:
        """Choose the folders a scan leaves out (a rescan)."""
        before = self.scans.options()
        text = self.tr(
            "These folders (inside the folder you scan) and what they hold are not read."
        )
        title, choose = self.tr("Excluded folders"), self.tr("Choose a folder to leave out")
        if self._edit("excluded_folders", title, text, choose):
            self.scans.apply_settings(before)

    def _edit(self, key: str, title: str, text: str, choose: str) -> bool:
        """Edit a list of folders kept in the settings; whether it was changed."""
        folders = folder_list(self.settings, key)
        rows = [(display_path(folder), folder) for folder in folders]
        dialog = ListDialog(title, text, rows, self.dialogs.window, add=self._asking_for(choose))
        if not self.dialogs.edit(dialog):
            return False
        chosen = [str(folder) for folder in dialog.values()]
        set_folder_list(self.settings, key, chosen)
        return chosen != folders
