"""The results' left side: the groups as a tree (filtered, sortable) and the problem files."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from simdup_gui.core.columns import COLUMN_NAMES, column_named
from simdup_gui.ui.groups_filter import GroupsFilter
from simdup_gui.ui.models import GroupsModel, ItemRole, MemberInfo, ProblemsModel

EXPAND_LIMIT = 200  # groups opened at once; the rest open on a click


class GroupsPanel(QWidget):
    """The groups of a result, member by member, and the files that could not be read.

    Views of the window's models: selecting a member and opening it are passed on as signals;
    the window's member commands (Space marks) are offered on a right click.
    """

    member_changed = Signal()
    member_opened = Signal()  # a double click

    def __init__(
        self, groups: GroupsFilter, problems: ProblemsModel, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.groups = groups
        self.problems = problems
        self.filter_box = QLineEdit()
        self.filter_box.setClearButtonEnabled(True)
        self.filter_box.textChanged.connect(groups.set_filter_text)
        self.duplicates_only = QCheckBox()
        self.duplicates_only.toggled.connect(groups.set_duplicates_only)
        self.tree = self._groups_tree(groups)
        # the groups a filter hid come back open, as they were shown
        self.filter_box.textChanged.connect(self.expand)
        self.duplicates_only.toggled.connect(self.expand)
        self.problems_view = QTableView()
        self.problems_view.setModel(problems)
        self.problems_view.horizontalHeader().setStretchLastSection(True)
        self.problems_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # the name stays
        self.problems_view.verticalHeader().hide()
        self.empty = QLabel()  # "no duplicates", instead of an empty tree
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.results = QStackedWidget()
        self.results.addWidget(self.tree)
        self.results.addWidget(self.empty)
        for signal in (
            groups.modelReset,
            groups.rowsRemoved,
            groups.rowsInserted,
            groups.layoutChanged,
        ):
            signal.connect(self._show_tree_or_empty)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.results, "")
        self.tabs.addTab(self.problems_view, "")
        filters = QHBoxLayout()
        filters.addWidget(self.filter_box, 1)
        filters.addWidget(self.duplicates_only)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(filters)
        layout.addWidget(self.tabs, 1)

    def _groups_tree(self, groups: GroupsFilter) -> QTreeView:
        tree = QTreeView()
        tree.setModel(groups)
        header = tree.header()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(0, Qt.SortOrder.AscendingOrder)
        header.setResizeContentsPrecision(100)  # size columns from the first rows, not 50k
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        tree.setUniformRowHeights(True)
        tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a long name keeps both its ends
        tree.setAlternatingRowColors(True)
        tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        tree.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        tree.selectionModel().currentChanged.connect(self.member_changed)
        tree.doubleClicked.connect(self.member_opened)
        return tree

    def _show_tree_or_empty(self) -> None:
        filtered = bool(self.filter_box.text()) or self.duplicates_only.isChecked()
        self.results.setCurrentWidget(
            self.tree if self.groups.rowCount() or filtered else self.empty
        )

    def retranslate(self) -> None:
        """Set the panel's texts, the models' column titles among them."""
        self.empty.setText(
            self.tr("No duplicates left.\n\nEvery file of this folder is unique at this threshold.")
        )
        self.filter_box.setPlaceholderText(self.tr("Filter by path or title…"))
        self.duplicates_only.setText(self.tr("Duplicates only"))
        self.tabs.setTabText(0, self.tr("Groups"))
        self.tabs.setTabText(1, self.tr("Problems ({0})").format(self.problems.rowCount()))
        source = self.groups.sourceModel()
        assert isinstance(source, GroupsModel)
        titles = {  # by column name (core/columns.py declares the columns)
            "File": self.tr("File"),
            "Title": self.tr("Title"),
            "Similarity": self.tr("Similarity"),
            "Distance": self.tr("Distance"),
            "Size": self.tr("Size"),
            "Modified": self.tr("Modified"),
            "Encoding": self.tr("Encoding"),
            "Folder": self.tr("Folder"),
        }
        source.set_titles([titles[name] for name in COLUMN_NAMES])
        self.problems.set_titles([self.tr("File"), self.tr("Problem")])

    def set_member_actions(self, actions: list[QAction]) -> None:
        """The actions a right click on a member offers."""
        self.tree.addActions(actions)

    def selected_member(self) -> MemberInfo | None:
        """The member row that is current, if a member's is."""
        info = self.tree.currentIndex().data(ItemRole)
        return info if isinstance(info, MemberInfo) else None

    def select_first_copy(self) -> None:
        """Make the first group's second member current, so that a pair is compared at once."""
        self.select_near(0, 1)

    def current_place(self) -> tuple[int, int]:
        """Where the current row is: its group's row and its row in the group (-1: none)."""
        index = self.tree.currentIndex()
        if not index.isValid():
            return -1, -1
        parent = index.parent()
        return (parent.row(), index.row()) if parent.isValid() else (index.row(), 0)

    def select_near(self, group: int, member: int) -> None:
        """Make the row at (or the last before) this place current: the list keeps its place."""
        groups = self.groups.rowCount()
        if not groups:
            return
        parent = self.groups.index(min(max(group, 0), groups - 1), 0)
        members = self.groups.rowCount(parent)
        if members:
            self.tree.setCurrentIndex(
                self.groups.index(min(max(member, 0), members - 1), 0, parent)
            )

    def select_file(self, file: int) -> bool:
        """Make the row of file index ``file`` current, if it is shown; whether it is."""
        source = self.groups.sourceModel()
        assert isinstance(source, GroupsModel)
        index = self.groups.mapFromSource(source.index_of_file(file))
        if index.isValid():
            self.tree.setCurrentIndex(index)
        return index.isValid()

    def expand(self) -> None:
        """Open the groups: all of them, or the first EXPAND_LIMIT of a very large result."""
        if self.groups.rowCount() <= EXPAND_LIMIT:
            self.tree.expandAll()
            return
        for row in range(EXPAND_LIMIT):
            self.tree.expand(self.groups.index(row, 0))

    def fit_columns(self, distances: bool = True) -> None:
        """Size the columns to their contents; names only as wide as leaves the measures in view.

        ``distances``: whether the result's method measures distances (else no such column).
        """
        self.tree.setColumnHidden(column_named("Distance"), not distances)
        self._show_tree_or_empty()
        if self.problems.rowCount():  # each path as wide as it is, up to 3/5 of the view
            view = self.problems_view
            view.resizeColumnToContents(0)
            widest = max(view.viewport().width() * 3 // 5, 160)
            view.setColumnWidth(0, min(view.columnWidth(0), widest))
        if 0 < self.groups.rowCount() <= EXPAND_LIMIT:  # no rows: the widths stay as they were
            for column in range(self.groups.columnCount()):
                self.tree.resizeColumnToContents(column)
            # names and titles elide: Similarity and Distance stay in view beside them
            shown = ("Similarity", "Distance") if distances else ("Similarity",)
            beside = sum(self.tree.columnWidth(column_named(c)) for c in shown)
            room = max(self.tree.viewport().width() - beside, 240)
            name, title = column_named("File"), column_named("Title")
            name_width = min(self.tree.columnWidth(name), max(room // 2, 120))
            self.tree.setColumnWidth(name, name_width)
            self.tree.setColumnWidth(title, min(self.tree.columnWidth(title), room - name_width))
