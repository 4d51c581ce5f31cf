"""The window's status bar.

What is going on, or the result's figures; the marked files; a progress bar while a task runs.
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar

from simdup_gui.engine.output.words import human_size
from simdup_gui.engine.progress import ProgressEvent
from simdup_gui.engine.results import ScanResult
from simdup_gui.ui.i18n import counted


class StatusLine(QObject):
    """The texts and the progress bar of a status bar."""

    def __init__(self, bar: QStatusBar) -> None:
        super().__init__(bar)
        self.label = QLabel()
        self.marked = QLabel()  # how many files are marked, at all times
        self.applying = QLabel()  # the lists that change the groups, while they do
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(240)
        self.progress.hide()
        bar.addWidget(self.label, 1)
        bar.addPermanentWidget(self.applying)
        bar.addPermanentWidget(self.marked)
        bar.addPermanentWidget(self.progress)
        self._started = 0.0

    def text(self) -> str:
        """What the status line says now."""
        return self.label.text()

    def say(self, text: str) -> None:
        """Say ``text`` in the status line."""
        self.label.setText(text)

    def busy(self, text: str = "") -> None:
        """A task started: the progress bar runs (and ``text`` is said, if given)."""
        self._started = time.monotonic()
        self.progress.setRange(0, 0)
        self.progress.show()
        if text:
            self.say(text)

    def idle(self, text: str = "") -> None:
        """No task runs: the progress bar goes (and ``text`` is said, if given)."""
        self.progress.hide()
        if text:
            self.say(text)

    def show_progress(self, event: ProgressEvent) -> None:
        """A task's progress: its stage, and while reading the files done and left."""
        stages = {
            "walking": self.tr("Finding files"),
            "preparing": self.tr("Preparing"),
            "compiling": self.tr(
                "Preparing fast kernels, once on this machine (about half a minute)"
            ),
            "fingerprinting": self.tr("Reading"),
            "indexing": self.tr("Indexing"),
            "grouping": self.tr("Grouping"),
            "waiting": self.tr("Waiting for another writer of the library"),
            "done": self.tr("Done"),
        }
        stage = stages.get(event.stage, event.stage)
        if event.stage == "fingerprinting" and event.total:
            self.progress.setRange(0, event.total)
            self.progress.setValue(event.done)
            elapsed = max(time.monotonic() - self._started, 1e-6)
            rate = event.done / elapsed
            eta = (event.total - event.done) / rate if rate else 0
            name = os.path.basename(event.current)
            self.say(
                self.tr(
                    "{0}: {1} of {2} files · {3:.0f} files/s · about {4:.0f} s left · {5}"
                ).format(stage, event.done, event.total, rate, eta, name)
            )
        else:
            self.say(f"{stage}…")

    def show_summary(self, result: ScanResult) -> None:
        """The result's figures: files, groups, duplicates, problems, and how it was made."""
        duplicates = sum(len(g) - 1 for g in result.groups)
        text = " · ".join(
            (
                self.files_text(len(result.files)),
                self.groups_text(len(result.groups)),
                counted(duplicates, self.tr("{0} duplicate"), self.tr("{0} duplicates")),
                counted(len(result.errors), self.tr("{0} problem"), self.tr("{0} problems")),
                self.tr("{0:.1f} s").format(result.seconds),
            )
        )
        others = sum(count for _, count in result.other_types)
        if others:
            text += " · " + counted(
                others,
                self.tr("{0} file of another type not read"),
                self.tr("{0} files of other types not read"),
            )
        if result.library:
            text += " · " + self.tr("checked against the library {0}").format(result.library)
        if result.cancelled:
            text += " · " + self.tr("cancelled: partial results")
        self.say(text)

    def show_marked(self, files: int, size: int, held: int = 0) -> None:
        """How many copies are marked, their size, and the marks held on files no copy now."""
        parts = [self.tr("{0} marked ({1})").format(files, human_size(size))] if files else []
        if held:
            parts.append(self.tr("{0} more marked, no copies at this threshold").format(held))
        self.marked.setText(" · ".join(parts))
        self.marked.setToolTip(
            self.tr(
                "Marks belong to files: a marked file that is no copy at the thresholds shown "
                "keeps its mark, and shows it again when it is one. Only the copies shown are "
                "moved or trashed."
            )
            if held
            else ""
        )

    def show_applying(self, folders: int, pairs: int) -> None:
        """Say that reference folders or pairs kept apart shape the groups (nothing if none)."""
        parts = []
        if folders:
            parts.append(
                counted(folders, self.tr("{0} reference folder"), self.tr("{0} reference folders"))
            )
        if pairs:
            parts.append(
                counted(pairs, self.tr("{0} pair kept apart"), self.tr("{0} pairs kept apart"))
            )
        self.applying.setText(" · ".join(parts))
        self.applying.setToolTip(
            self.tr(
                "Files in reference folders are never marked, moved or trashed; pairs said to"
                " be not duplicates never share a group (Actions menu: the lists)."
            )
            if parts
            else ""
        )

    def files_text(self, number: int) -> str:
        """``1 file``, ``2 files``, in the language in use."""
        return counted(number, self.tr("{0} file"), self.tr("{0} files"))

    def groups_text(self, number: int) -> str:
        """``1 group``, ``2 groups``, in the language in use."""
        return counted(number, self.tr("{0} group"), self.tr("{0} groups"))
