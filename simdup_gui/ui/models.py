"""Qt models over an engine ScanResult: duplicate groups (a tree) and unreadable files."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont

from simdup_gui.core.columns import COLUMN_NAMES, COLUMNS, column_named
from simdup_gui.core.session import Session
from simdup_gui.engine.match.groups import Group, Member, reference_extra
from simdup_gui.engine.output.words import human_size
from simdup_gui.engine.read.walk import display_path, not_read_for_type
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.results import ScanResult
from simdup_gui.ui.i18n import report_words

ItemRole = Qt.ItemDataRole.UserRole + 1  # the MemberInfo (or Group) behind a row
Index = QModelIndex | QPersistentModelIndex
_NO_PARENT = 0


@dataclass(frozen=True)
class MemberInfo:
    """Everything a view needs about one member row."""

    group: Group
    member: Member
    record: FileRecord

    @property
    def is_reference(self) -> bool:
        """Whether this member is its group's reference (the copy to keep)."""
        return self.member.file == self.group.reference


class _TitledColumns:
    """Column titles that the window sets (translated) for a model."""

    _titles: list[str]

    def set_titles(self, titles: list[str]) -> None:
        """Translated column titles."""
        self._titles = titles
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(titles) - 1)  # type: ignore[attr-defined]

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        """Column titles."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._titles[section]
        return None


LOADED_AT_ONCE = 250  # groups a view gets at first; more as it scrolls (Qt's fetchMore)


class GroupsModel(_TitledColumns, QAbstractItemModel):
    """The session's groups at the top level, their members as children, marks as check boxes.

    The model holds no state of its own beyond how many groups views have been given: marks,
    references and the order are the session's; it forwards changes to the session and tells
    the views. A large result is handed out LOADED_AT_ONCE groups at a time, so that showing
    it costs the same whatever its size (a filter takes them all).
    """

    COLUMNS = COLUMN_NAMES
    marks_changed = Signal()  # which files are marked changed

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._titles = list(self.COLUMNS)
        self._loaded = 0  # groups given to views so far

    # --- the session's data in ----------------------------------------------------------
    def refresh(self) -> None:
        """Show the session's result as it is now (new, regrouped, resorted)."""
        self.beginResetModel()
        self._loaded = 0
        self.endResetModel()
        self.marks_changed.emit()

    def endResetModel(self) -> None:
        """Finish a reset: the first groups (as many as before, if more) are given again."""
        self._loaded = min(len(self.session.groups), max(self._loaded, LOADED_AT_ONCE))
        super().endResetModel()

    def canFetchMore(self, parent: Index) -> bool:
        """Whether groups are left to give (members always come with their group)."""
        return not parent.isValid() and self._loaded < len(self.session.groups)

    def fetchMore(self, parent: Index) -> None:
        """Give the views the next LOADED_AT_ONCE groups."""
        if self.canFetchMore(parent):
            self.load(self._loaded + LOADED_AT_ONCE)

    def load(self, count: int | None = None) -> None:
        """Give the views at least ``count`` groups (all of them when None)."""
        total = len(self.session.groups)
        count = total if count is None else min(count, total)
        if count > self._loaded:
            self.beginInsertRows(QModelIndex(), self._loaded, count - 1)
            self._loaded = count
            self.endInsertRows()

    @property
    def result(self) -> ScanResult | None:
        """The result shown."""
        return self.session.result

    @property
    def groups(self) -> tuple[Group, ...]:
        """The groups shown, in their order."""
        return self.session.groups

    @property
    def _groups(self) -> tuple[Group, ...]:
        return self.session.groups

    @property
    def _result(self) -> ScanResult | None:
        return self.session.result

    # --- marking ------------------------------------------------------------------------
    def marked_files(self) -> list[int]:
        """File indices of the marked members, in group order."""
        return self.session.marked_files()

    def set_marked(self, file: int, marked: bool) -> bool:
        """Mark or unmark a member; a reference cannot be marked. Returns whether it changed."""
        if not self.session.set_marked(file, marked):
            return False
        group_row = self.session.group_of(file)
        assert group_row is not None
        group = self._groups[group_row]
        row = next(n for n, m in enumerate(group.members) if m.file == file)
        index = self.index(row, 0, self.index(group_row, 0))
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        self.marks_changed.emit()
        return True

    def mark_all_but_references(self) -> None:
        """Mark every member that is not its group's reference."""
        self.session.mark_all_but_references()
        self._refresh_all()

    def make_reference(self, file: int) -> bool:
        """Make a member its group's reference (it is unmarked; the old one becomes markable)."""
        self.beginResetModel()
        changed = self.session.make_reference(file)
        self.endResetModel()
        self.marks_changed.emit()
        return changed

    def clear_marks(self) -> None:
        """Unmark everything."""
        self.session.clear_marks()
        self._refresh_all()

    def invert_marks(self) -> None:
        """Mark the unmarked members and unmark the marked."""
        self.session.invert_marks()
        self._refresh_all()

    def mark_where(self, rule: str, value: str = "") -> int:
        """Mark the copies a rule picks (see ``Session.mark_where``); how many were marked."""
        count = self.session.mark_where(rule, value)
        self._refresh_all()
        return count

    def _refresh_all(self) -> None:
        """Tell views every check box may have changed (one signal, whatever the row count)."""
        self.layoutAboutToBeChanged.emit()
        self.layoutChanged.emit()
        self.marks_changed.emit()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort groups by the column, and members within each group (references stay first)."""
        self.beginResetModel()
        self.session.sort(column, order == Qt.SortOrder.DescendingOrder)
        self.endResetModel()

    # --- Qt model interface -----------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        """Top-level rows are groups (internal id 0), children members (id = group row + 1)."""
        if row < 0 or not 0 <= column < len(self.COLUMNS):
            return QModelIndex()
        groups = self.session.groups  # asked for every row laid out: one look-up
        if not parent.isValid():
            valid = row < self._loaded
            return self.createIndex(row, column, _NO_PARENT) if valid else QModelIndex()
        if parent.internalId() != _NO_PARENT or parent.column() != 0:
            return QModelIndex()
        if row >= len(groups[parent.row()].members):
            return QModelIndex()
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        """The group row of a member; nothing for a group."""
        if not index.isValid() or index.internalId() == _NO_PARENT:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, _NO_PARENT)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Groups, or the members of one group."""
        if not parent.isValid():
            return self._loaded
        if parent.internalId() == _NO_PARENT and parent.column() == 0:
            return len(self.session.groups[parent.row()].members)
        return 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """The fixed columns."""
        return len(self.COLUMNS)

    _SHOWN = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
    _CHECKABLE = _SHOWN | Qt.ItemFlag.ItemIsUserCheckable

    def flags(self, index: Index) -> Qt.ItemFlag:
        """Members are checkable, except references (each group's first member).

        Asked for every row a view lays out: kept to a few comparisons.
        """
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if index.internalId() != _NO_PARENT and index.row() > 0 and index.column() == 0:
            return self._CHECKABLE
        return self._SHOWN

    def index_of_file(self, file: int) -> QModelIndex:
        """The row of file index ``file`` (invalid when it is in no group)."""
        row = self.session.group_of(file)
        if row is None:
            return QModelIndex()
        self.load(row + 1)
        members = self.session.groups[row].members
        place = next(n for n, m in enumerate(members) if m.file == file)
        return self.index(place, 0, self.index(row, 0))

    def member_info(self, index: Index) -> MemberInfo | None:
        """The member behind a child row (None for group rows)."""
        if not index.isValid() or index.internalId() == _NO_PARENT or self._result is None:
            return None
        group = self._groups[index.internalId() - 1]
        member = group.members[index.row()]
        return MemberInfo(group, member, self._result.files[member.file])

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        """Cell contents by role."""
        if not index.isValid() or self._result is None:
            return None
        info = self.member_info(index)
        if info is None:
            return self._group_data(self._groups[index.row()], index.column(), role)
        return self._member_data(info, index.column(), role)

    def _group_data(self, group: Group, column: int, role: int) -> object:
        assert self._result is not None
        size = sum(self._result.files[m.file].size for m in group.members)
        if role == ItemRole:
            return group
        if role == Qt.ItemDataRole.DisplayRole:
            if column == column_named("File"):
                flag = " ⚑" if reference_extra(group, self._result.files).lines else ""
                return f"#{group.id} · {len(group)}{flag}"
            if column == column_named("Title"):  # the story the group is: its reference's
                return self._result.files[group.reference].title
            if column == column_named("Size"):
                return human_size(size)
            return None
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and column == column_named("File"):
            extra = reference_extra(group, self._result.files)
            if extra.lines:
                return self.tr(
                    "The copy kept has short lines a copy lacks ({0} lines, {1} characters): a"
                    " header, a notice or an ad may still be in it. Compare them, or keep another."
                ).format(extra.lines, extra.chars)
        return None

    def _member_data(self, info: MemberInfo, column: int, role: int) -> object:
        record, member = info.record, info.member
        if role == ItemRole:
            return info
        held = member.contained and column == column_named("Similarity")
        if role == Qt.ItemDataRole.DisplayRole:
            assert self._result is not None
            text = COLUMNS[column].text(record, member, self._result.root)
            return text + " · " + self.tr("contained") if held else text
        kept = self._result is not None and member.file in self._result.kept
        if role == Qt.ItemDataRole.CheckStateRole and column == 0 and not info.is_reference:
            if kept:
                return None  # in a reference folder (or a library's): never marked
            marked = member.file in self.session.marked
            return Qt.CheckState.Checked if marked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole:
            if kept and column == 0 and not info.is_reference:
                return self.tr("In a reference folder: never marked, moved or trashed")
            if held:
                return self.tr(
                    "Most of one text lies inside the other: a cut copy, or one wrapped in more"
                    " text. Similar as a whole only {0}."
                ).format(COLUMNS[column].text(record, member, ""))
            return display_path(record.path)
        if role == Qt.ItemDataRole.ForegroundRole and info.is_reference:
            return QBrush(QColor("#1a5fb4"))
        return None

    def setData(self, index: Index, value: object, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """Check boxes mark members."""
        info = self.member_info(index)
        if role != Qt.ItemDataRole.CheckStateRole or info is None or index.column() != 0:
            return False
        checked = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value, 2)
        return self.set_marked(info.member.file, checked)


class ProblemsModel(_TitledColumns, QAbstractTableModel):
    """Files that could not be read, and why; then the links, each naming its target."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: tuple[FileRecord, ...] = ()
        self._titles = ["File", "Problem"]

    def set_result(self, result: ScanResult | None) -> None:
        """Show the unreadable files and the links of a result."""
        self.beginResetModel()
        self._rows = result.errors + result.links if result else ()
        if result is not None:  # named one by one, not a count alone: what was left, and why
            said = (FileRecord(path, error=not_read_for_type(path)) for path in result.other_files)
            self._rows += tuple(said)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """One row per unreadable file."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Path and reason."""
        return 0 if parent.isValid() else 2

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        """Path and error text."""
        if not index.isValid():
            return None
        record = self._rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if index.column() == 0:
                return display_path(record.path)
            return report_words().reason(record.error)  # in the app's language
        if role == ItemRole:
            return record
        return None
