"""A list a person edits in a dialog: rows removed, and added when the caller offers a way."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

Row = tuple[str, object]  # what is shown, and the value it stands for


class ListDialog(QDialog):
    """Rows to keep or remove (the not-duplicates list, the reference folders)."""

    def __init__(
        self,
        title: str,
        note: str,
        rows: Sequence[Row],
        parent: QWidget | None = None,
        add: Callable[[], Row | None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(640, 360)
        self._add = add
        self._values: list[object] = []  # a row holds its value's place here (Qt keeps no tuple)
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        for text, value in rows:
            self.add_row(text, value)
        label = QLabel(note)
        label.setWordWrap(True)
        self.add_button = QPushButton(self.tr("Add…"))
        self.add_button.setVisible(add is not None)
        self.add_button.clicked.connect(self.ask_to_add)
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.clicked.connect(self.remove_selected)
        self.clear_button = QPushButton(self.tr("Remove all"))
        self.clear_button.clicked.connect(self.list.clear)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.remove_button, self.clear_button):
            buttons.addWidget(button)
        buttons.addStretch()
        answer = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        answer.accepted.connect(self.accept)
        answer.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for part in (label, self.list):
            layout.addWidget(part)
        layout.addLayout(buttons)
        layout.addWidget(answer)

    def add_row(self, text: str, value: object) -> None:
        """Show a row (once: a value already there is not added again)."""
        if value in self.values():
            return
        item = QListWidgetItem(text)
        item.setData(Qt.ItemDataRole.UserRole, len(self._values))
        self._values.append(value)
        item.setToolTip(text)
        self.list.addItem(item)

    def ask_to_add(self) -> None:
        """Ask the caller for a row to add (it asks the person)."""
        if self._add is not None and (row := self._add()) is not None:
            self.add_row(*row)

    def remove_selected(self) -> None:
        """Take the selected rows out."""
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))

    def values(self) -> list[object]:
        """The values of the rows left, in order."""
        places = [
            self.list.item(n).data(Qt.ItemDataRole.UserRole) for n in range(self.list.count())
        ]
        return [self._values[place] for place in places]
