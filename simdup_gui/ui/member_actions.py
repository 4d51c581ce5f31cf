"""The commands on the result shown, and on its current member.

Marks, the copy to keep, pairs kept apart, rows taken out of the view, the file compared with,
the file opened. None of them changes a file; the session (``core/session.py``) keeps what they
decide.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QObject, QUrl

from simdup_gui.core.session import Session
from simdup_gui.engine.read.walk import display_path
from simdup_gui.ui.dialogs import Dialogs
from simdup_gui.ui.groups_panel import GroupsPanel
from simdup_gui.ui.i18n import counted
from simdup_gui.ui.models import GroupsModel, MemberInfo
from simdup_gui.ui.result_view import ResultView
from simdup_gui.ui.status_line import StatusLine


class MemberActions(QObject):
    """The window's commands on the current member, and on every group by a rule."""

    def __init__(
        self,
        session: Session,
        groups: GroupsModel,
        panel: GroupsPanel,
        dialogs: Dialogs,
        status: StatusLine,
        view: ResultView,
    ) -> None:
        super().__init__(groups)
        self.session, self.groups, self.panel = session, groups, panel
        self.dialogs, self.status, self.view = dialogs, status, view

    def _current(self) -> MemberInfo | None:
        return self.panel.selected_member()

    def toggle_mark(self) -> None:
        """Mark the current member for trash or move, or unmark it (never a reference)."""
        info = self._current()
        if info is not None and not info.is_reference:
            marked = info.member.file in set(self.groups.marked_files())
            self.groups.set_marked(info.member.file, not marked)

    def make_reference(self) -> None:
        """Make the current member its group's reference (the copy to keep)."""
        info = self._current()
        if info is not None and self.groups.make_reference(info.member.file):
            self.panel.expand()
            self.panel.select_file(info.member.file)
            self.view.compare_current()

    def keep_apart(self) -> None:
        """The current member is not a duplicate of its reference: it leaves the group for good."""
        info, session = self._current(), self.session
        if info is None or session.result is None:
            return
        pair = session.keep_apart(info.member.file)
        if pair is not None:
            problem = session.write_not_duplicates(add=[pair])
            if problem:
                self.dialogs.warn(
                    self.tr("The pair is kept apart until the app closes: {0}").format(problem)
                )
            self.view.show_result(session.result)

    def reprioritize(self, rule: str) -> None:
        """Keep the member a rule prefers in every group (see ``Session.reprioritize``)."""
        info = self._current()
        folder = os.path.dirname(info.record.path) if info is not None else ""
        changed = self._regrouping(lambda: self.session.reprioritize(rule, folder))
        if info is not None:
            self.panel.select_file(info.member.file)
        self.status.say(
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
            if self._regrouping(lambda: self.session.remove_from_results(file)):
                self.view.fit_columns()
                self.view.show_summary()

    def _regrouping(self, change: Callable[[], int]) -> int:
        """Make a change to the session's groups, shown afresh; what it says it changed."""
        groups, panel = self.groups, self.panel
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
            value = self.dialogs.text(
                self.tr("Mark copies"), self.tr("Mark the copies whose path contains:")
            )
            if not value:
                return
        count = self.groups.mark_where(rule, value)
        self.status.say(self.tr("{0} more copies marked").format(count))

    def pin_for_compare(self) -> None:
        """Compare every selection with the current file instead of with its reference."""
        info = self._current()
        self.session.pinned = info.member.file if info is not None else None

    def unpin(self) -> None:
        """Compare selections with their reference again."""
        self.session.pinned = None
        self.view.compare_current()

    def open_selected(self) -> None:
        """Open the current member in the system's editor (or its folder, if Qt cannot name it)."""
        info = self._current()
        if info is None:
            return
        if display_path(info.record.path) != info.record.path:  # Qt has no name for such bytes
            text = self.tr("The file name is not valid UTF-8: showing its folder.")
            self.status.say(text)
            self.reveal_selected()
            return
        self.dialogs.open_url(QUrl.fromLocalFile(info.record.path))

    def reveal_selected(self) -> None:
        """Open the folder holding the current member."""
        info = self._current()
        if info is not None:
            self.dialogs.open_url(QUrl.fromLocalFile(os.path.dirname(info.record.path)))
