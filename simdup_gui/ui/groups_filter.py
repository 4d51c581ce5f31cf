"""The groups as the tree view shows them: filtered by path or title, or without the references."""

from __future__ import annotations

from PySide6.QtCore import QObject, QSortFilterProxyModel, Qt

from simdup_gui.engine.read.walk import display_path
from simdup_gui.ui.models import GroupsModel, Index, ItemRole


class GroupsFilter(QSortFilterProxyModel):
    """Text filter over paths and titles, and 'duplicates only' (hides the references).

    Sorting is the source model's own (a Python sort of the rows), not the proxy's, which would
    call back into Python for every comparison.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(True)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._duplicates_only = False
        self._pattern = ""  # the filter text, kept in Python: asked for every row
        self.modelReset.connect(self._kept_whole)

    def _kept_whole(self) -> None:
        """A new result under a filter: the filter looks at all of it."""
        if self._pattern or self._duplicates_only:
            self._load_all()

    def set_filter_text(self, text: str) -> None:
        """Show the members whose path or title holds ``text`` (any case), and their groups."""
        self._load_all()
        self._pattern = text
        self.setFilterFixedString(text)

    def _load_all(self) -> None:
        """A filter looks at every group, not the first ones given."""
        source = self.sourceModel()
        if isinstance(source, GroupsModel):
            source.load()

    def set_duplicates_only(self, on: bool) -> None:
        """Hide or show the reference rows."""
        self._load_all()
        self.beginFilterChange()
        self._duplicates_only = on
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        """Members match the text on their path or title; references hide in 'duplicates only'.

        A story is found by its headline as well as by its file's name.
        """
        pattern = self._pattern
        if not source_parent.isValid():
            return not pattern  # with a filter, a group shows when one of its members does
        if not pattern and not self._duplicates_only:
            return True
        model = self.sourceModel()
        info = model.data(model.index(source_row, 0, source_parent), ItemRole)
        if self._duplicates_only and info.is_reference:
            return False
        if not pattern:
            return True
        found = self.filterRegularExpression()
        named = (display_path(info.record.path), info.record.title)
        return any(found.match(text).hasMatch() for text in named)
