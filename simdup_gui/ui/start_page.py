"""The page shown before the first scan: what simdup does, where to start, recent folders."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget


class StartPage(QWidget):
    """Choose a folder, try the sample, or scan a recent folder again."""

    choose_requested = Signal()
    sample_requested = Signal()
    library_requested = Signal()
    folder_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("<h1>simdup</h1>")
        self.title.setObjectName("start-title")
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.choose = QPushButton()
        self.choose.clicked.connect(self.choose_requested)
        self.sample = QPushButton()
        self.sample.clicked.connect(self.sample_requested)
        self.library = QPushButton()
        self.library.clicked.connect(self.library_requested)
        self.recent_label = QLabel()
        self.recent = QListWidget()
        self.recent.setMaximumHeight(180)
        self.recent.itemActivated.connect(lambda item: self.folder_chosen.emit(item.text()))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(48, 36, 48, 36)
        layout.addWidget(self.title)
        layout.addWidget(self.text)
        buttons = QHBoxLayout()
        buttons.addWidget(self.choose)
        buttons.addWidget(self.library)
        buttons.addWidget(self.sample)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addWidget(self.recent_label)
        layout.addWidget(self.recent)
        layout.addStretch(1)

    def retranslate(self) -> None:
        """Set the page's texts in the current language."""
        self.text.setText(
            self.tr(
                "Find reposted, lightly edited and pirated copies among a folder of articles "
                "(.txt, .html, .md; UTF-8, GBK, Big5 …). Choose a folder or drop one here; "
                "simdup groups the near-duplicates so you can compare them side by side, "
                "mark the copies and export a report."
            )
        )
        self.choose.setText(self.tr("Choose folder…"))
        self.sample.setText(self.tr("Try the sample folder"))
        self.library.setText(self.tr("Check against a library…"))
        self.recent_label.setText(self.tr("Recent folders:"))

    def show_recent(self, folders: list[str]) -> None:
        """List the recent folders (the list and its label are hidden while there are none)."""
        self.recent.clear()
        self.recent.addItems(folders)
        self.recent.setVisible(bool(folders))
        self.recent_label.setVisible(bool(folders))

    def set_busy(self, busy: bool) -> None:
        """Disable the buttons while a scan runs."""
        self.choose.setEnabled(not busy)
        self.sample.setEnabled(not busy)
        self.library.setEnabled(not busy)
