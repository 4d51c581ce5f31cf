"""The commands on the result shown, and on its current member.

Marks, the copy to keep, pairs kept apart, rows taken out of the view, the file compared with,
the file opened. None of them changes a file; the session (``core/session.py``) keeps what they
decide.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QUrl

from simdup_gui.core import not_duplicates
from simdup_gui.engine.read.walk import display_path
from simdup_gui.ui.i18n import counted

if TYPE_CHECKING:
    from simdup_gui.ui.main_window import MainWindow
    from simdup_gui.ui.models import MemberInfo


class MemberActions(QObject):
    """The window's commands on the current member, and on every group by a rule."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window

    def _current(self) -> MemberInfo | None:
        return self.window.selected_member()

    def toggle_mark(self) -> None:
        """Mark the current member for trash or move, or unmark it (never a reference)."""
        info, groups = self._current(), self.window.groups
        if info is not None and not info.is_reference:
            marked = info.member.file in set(groups.marked_files())
            groups.set_marked(info.member.file, not marked)

    def make_reference(self) -> None:
        """Make the current member its group's reference (the copy to keep)."""
        info, window = self._current(), self.window
        if info is not None and window.groups.make_reference(info.member.file):
            window.groups_panel.expand()
            window.groups_panel.select_file(info.member.file)
            window.compare_current()

    def keep_apart(self) -> None:
        """The current member is not a duplicate of its reference: it leaves the group for good."""
        info, window = self._current(), self.window
        if info is None or window.result is None:
            return
        pair = window.session.keep_apart(info.member.file)
        if pair is not None:
            try:  # merged with the list on disk: pairs the command line added meanwhile stay
                window.session.not_duplicates = not_duplicates.change(add=[pair])
            except (not_duplicates.NotDuplicatesError, OSError) as exc:
                window.dialogs.warn(
                    self.tr("The pair is kept apart until the app closes: {0}").format(exc)
                )
            window.show_result(window.result)

    def reprioritize(self, rule: str) -> None:
        """Keep the member a rule prefers in every group (see ``Session.reprioritize``)."""
        info = self._current()
        folder = os.path.dirname(info.record.path) if info is not None else ""
        changed = self._regrouping(lambda: self.window.session.reprioritize(rule, folder))
        if info is not None:
            self.window.groups_panel.select_file(info.member.file)
        self.window.status.say(
            counted(
                changed,
                self.tr("{0} group keeps another file now"),
                self.tr("{0} groups keep another file now"),
            )
        )

    def remove_from_results(self) -> None:
        """Take the current member out of what is shown (the file itself is not touched)."""
        info = self._current()
        if info is not None:
            file = info.member.file
            if self._regrouping(lambda: self.window.session.remove_from_results(file)):
                self.window.fit_columns()
                self.window.show_summary()

    def _regrouping(self, change: Callable[[], int]) -> int:
        """Make a change to the session's groups, shown afresh; what it says it changed."""
        groups, panel = self.window.groups, self.window.groups_panel
        place = panel.current_place()  # the list keeps its place
        groups.beginResetModel()
        changed = change()
        groups.endResetModel()
        groups.marks_changed.emit()
        panel.expand()
        if place[0] >= 0:
            panel.select_near(*place)
        return changed

    def mark_where(self, rule: str) -> None:
        """Mark the copies a rule picks: in the current file's folder, by path, older, smaller."""
        value = ""
        if rule == "folder":
            info = self._current()
            if info is None:
                return
            value = os.path.dirname(info.record.path)
        elif rule == "path":
            value = self.window.dialogs.text(
                self.tr("Mark copies"), self.tr("Mark the copies whose path contains:")
            )
            if not value:
                return
        count = self.window.groups.mark_where(rule, value)
        self.window.status.say(self.tr("{0} more copies marked").format(count))

    def pin_for_compare(self) -> None:
        """Compare every selection with the current file instead of with its reference."""
        info = self._current()
        self.window.session.pinned = info.member.file if info is not None else None

    def unpin(self) -> None:
        """Compare selections with their reference again."""
        self.window.session.pinned = None
        self.window.compare_current()

    def open_selected(self) -> None:
        """Open the current member in the system's editor (or its folder, if Qt cannot name it)."""
        info = self._current()
        if info is None:
            return
        if display_path(info.record.path) != info.record.path:  # Qt has no name for such bytes
            text = self.tr("The file name is not valid UTF-8: showing its folder.")
            self.window.status.say(text)
            self.reveal_selected()
            return
        self.window.dialogs.open_url(QUrl.fromLocalFile(info.record.path))

    def reveal_selected(self) -> None:
        """Open the folder holding the current member."""
        info = self._current()
        if info is not None:
            self.window.dialogs.open_url(QUrl.fromLocalFile(os.path.dirname(info.record.path)))
