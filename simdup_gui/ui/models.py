"""Qt models over an engine ScanResult: duplicate groups (a tree) and unreadable files."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont

from simdup_gui.engine.match.groups import Group, Member
from simdup_gui.engine.match.matching import similarity
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.scan import ScanResult

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


def human_size(size: int) -> str:
    """A byte count for people: 1.2 KB, 3.4 MB."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


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


class GroupsModel(_TitledColumns, QAbstractItemModel):
    """Groups at the top level, their members as children; members can be marked."""

    COLUMNS = ("File", "Similarity", "Distance", "Size", "Encoding", "Folder")
    marks_changed = Signal()  # which files are marked changed

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._result: ScanResult | None = None
        self._groups: tuple[Group, ...] = ()
        self._marked: set[int] = set()
        self._titles = list(self.COLUMNS)

    # --- engine data in ---------------------------------------------------------------
    def set_result(self, result: ScanResult | None) -> None:
        """Show a (new or regrouped) result; marks on files that are still grouped are kept."""
        self.beginResetModel()
        self._result = result
        self._groups = result.groups if result else ()
        grouped = {m.file for g in self._groups for m in g.members[1:]}
        self._marked &= grouped
        self.endResetModel()
        self.marks_changed.emit()

    @property
    def result(self) -> ScanResult | None:
        """The result shown."""
        return self._result

    @property
    def groups(self) -> tuple[Group, ...]:
        """The groups shown, in their order."""
        return self._groups

    # --- marking ------------------------------------------------------------------------
    def marked_files(self) -> list[int]:
        """File indices of the marked members, in group order."""
        return [m.file for g in self._groups for m in g.members if m.file in self._marked]

    def set_marked(self, file: int, marked: bool) -> bool:
        """Mark or unmark a member; a reference cannot be marked. Returns whether it changed."""
        group_row = self._group_row_of(file)
        if group_row is None or self._groups[group_row].reference == file:
            return False
        if marked == (file in self._marked):
            return False
        (self._marked.add if marked else self._marked.discard)(file)
        group = self._groups[group_row]
        row = next(n for n, m in enumerate(group.members) if m.file == file)
        index = self.index(row, 0, self.index(group_row, 0))
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        self.marks_changed.emit()
        return True

    def mark_all_but_references(self) -> None:
        """Mark every member that is not its group's reference."""
        self._marked = {m.file for g in self._groups for m in g.members[1:]}
        self._refresh_all()

    def make_reference(self, file: int) -> bool:
        """Make a member its group's reference (it is unmarked; the old one becomes markable)."""
        row = self._group_row_of(file)
        if row is None or self._result is None or self._groups[row].reference == file:
            return False
        group = self._groups[row]
        prints = {m.file: self._result.files[m.file].fingerprint or 0 for m in group.members}
        self.beginResetModel()
        groups = list(self._groups)
        files = self._result.files
        groups[row] = group.with_reference(
            file, prints, lambda a, b: similarity(files[a], files[b])
        )
        self._groups = tuple(groups)
        self._result = replace(self._result, groups=self._groups)
        self._marked.discard(file)
        self.endResetModel()
        self.marks_changed.emit()
        return True

    def clear_marks(self) -> None:
        """Unmark everything."""
        self._marked.clear()
        self._refresh_all()

    def _refresh_all(self) -> None:
        """Tell views every check box may have changed (one signal, whatever the row count)."""
        self.layoutAboutToBeChanged.emit()
        self.layoutChanged.emit()
        self.marks_changed.emit()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort groups by the column, and members within each group (references stay first)."""
        if self._result is None:
            return
        files = self._result.files
        descending = order == Qt.SortOrder.DescendingOrder

        def member_key(member: Member) -> object:
            record = files[member.file]
            return (
                os.path.basename(display_path(record.path)).casefold(),
                member.similarity,
                member.distance,
                record.size,
                record.encoding,
                display_path(record.path).casefold(),
            )[column]

        def group_key(group: Group) -> object:
            if column == 0:
                return (len(group), -group.id) if descending else (-len(group), group.id)
            if column == 3:
                return sum(files[m.file].size for m in group.members)
            if column in (1, 2):  # the group's least alike member
                return (
                    min(member_key(m) for m in group.members[1:])
                    if column == 1
                    else max(member_key(m) for m in group.members[1:])
                )
            return member_key(group.members[0])

        self.beginResetModel()
        groups = [
            Group(g.id, (g.members[0], *sorted(g.members[1:], key=member_key, reverse=descending)))
            for g in self._groups
        ]
        self._groups = tuple(sorted(groups, key=group_key, reverse=descending))
        self._result = replace(self._result, groups=self._groups)
        self.endResetModel()

    def _group_row_of(self, file: int) -> int | None:
        for row, group in enumerate(self._groups):
            if any(m.file == file for m in group.members):
                return row
        return None

    # --- Qt model interface -----------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        """Top-level rows are groups (internal id 0), children members (id = group row + 1)."""
        if row < 0 or not 0 <= column < len(self.COLUMNS):
            return QModelIndex()
        if not parent.isValid():
            valid = row < len(self._groups)
            return self.createIndex(row, column, _NO_PARENT) if valid else QModelIndex()
        if parent.internalId() != _NO_PARENT or parent.column() != 0:
            return QModelIndex()
        if row >= len(self._groups[parent.row()].members):
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
            return len(self._groups)
        if parent.internalId() == _NO_PARENT and parent.column() == 0:
            return len(self._groups[parent.row()].members)
        return 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """The fixed columns."""
        return len(self.COLUMNS)

    def flags(self, index: Index) -> Qt.ItemFlag:
        """Members are checkable, except references."""
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        info = self.member_info(index)
        if info is not None and not info.is_reference and index.column() == 0:
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        return flags

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
            if column == 0:
                return f"#{group.id} · {len(group)}"
            if column == 3:
                return human_size(size)
            return None
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def _member_data(self, info: MemberInfo, column: int, role: int) -> object:
        record, member = info.record, info.member
        if role == ItemRole:
            return info
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                os.path.basename(display_path(record.path)),
                f"{100 * member.similarity:.1f}%",
                str(member.distance),
                human_size(record.size),
                record.encoding,
                display_path(self._folder(record.path)),
            )[column]
        if role == Qt.ItemDataRole.CheckStateRole and column == 0 and not info.is_reference:
            marked = member.file in self._marked
            return Qt.CheckState.Checked if marked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole:
            return display_path(record.path)
        if role == Qt.ItemDataRole.ForegroundRole and info.is_reference:
            return QBrush(QColor("#1a5fb4"))
        return None

    def _folder(self, path: str) -> str:
        """The member's folder relative to the scanned folder (``.`` for the top)."""
        assert self._result is not None
        return os.path.relpath(os.path.dirname(path) or ".", self._result.root)

    def setData(self, index: Index, value: object, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """Check boxes mark members."""
        info = self.member_info(index)
        if role != Qt.ItemDataRole.CheckStateRole or info is None or index.column() != 0:
            return False
        checked = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value, 2)
        return self.set_marked(info.member.file, checked)


class GroupsFilter(QSortFilterProxyModel):
    """Text filter over paths, and 'duplicates only' (hides the references).

    Sorting is the source model's own (a Python sort of the rows), not the proxy's, which would
    call back into Python for every comparison.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(True)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._duplicates_only = False

    def set_duplicates_only(self, on: bool) -> None:
        """Hide or show the reference rows."""
        self.beginFilterChange()
        self._duplicates_only = on
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        """Members match the text on their path; references hide in 'duplicates only'."""
        pattern = self.filterRegularExpression().pattern()
        if not source_parent.isValid():
            return not pattern  # with a filter, a group shows when one of its members does
        if not pattern and not self._duplicates_only:
            return True
        model = self.sourceModel()
        info = model.data(model.index(source_row, 0, source_parent), ItemRole)
        if self._duplicates_only and info.is_reference:
            return False
        path = display_path(info.record.path)
        return not pattern or self.filterRegularExpression().match(path).hasMatch()


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
            return display_path(record.path) if index.column() == 0 else record.error
        if role == ItemRole:
            return record
        return None
