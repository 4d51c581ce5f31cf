"""Texts, differences and similarity for the compare view, off the GUI thread when long.

A selection asks for a pair; a newer selection supersedes it: a request that is no longer the
latest is skipped before its work starts, and its answer, if it was already running, dropped.
Short pairs (the usual article) are made at once, so the view never flickers for them (on the
GUI thread, by the kernels' plain form until another thread has loaded the compiled ones:
``loading_no_kernels_here``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import NamedTuple

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal

from simdup_gui.engine.fingerprint.explain import Explained, explain
from simdup_gui.engine.fingerprint.file_records import read_text
from simdup_gui.engine.options import ReadOptions, TextSettings
from simdup_gui.engine.read.decode import DecodeError
from simdup_gui.engine.read.documents import DOCUMENT_ENDINGS
from simdup_gui.engine.read.reader import ReadError
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.text.textdiff import Hunk, diff_hunks

COMPARE_LIMIT = 400_000  # characters of a document shown in the compare view
AT_ONCE_BYTES = 64 * 1024  # pairs of files this small are compared on the GUI thread

Document = tuple[str, str, int | None]  # title, plain text, fingerprint
DOCUMENT_KINDS = tuple(ending[1:] for ending in DOCUMENT_ENDINGS)  # a record's encoding


def document(record: FileRecord, options: ReadOptions | None) -> tuple[Document, str]:
    """A file as the compare view shows it, and why it cannot be read (empty if it can)."""
    try:
        text = read_text(record.path, options)[:COMPARE_LIMIT]
        problem = ""
    except (ReadError, DecodeError, OSError) as exc:
        text, problem = "", str(exc)
    title = display_path(record.path)
    if record.encoding in DOCUMENT_KINDS:  # what is shown is the text taken out of it
        said = QCoreApplication.translate("Comparing", "text taken from the {0} file")
        title = f"{title} · {said.format(record.encoding.upper())}"
    return (title, text, record.fingerprint), problem


class Compared(NamedTuple):
    """What was found comparing two texts: where they differ, why their fingerprints do.

    And how alike they are: near the floor that reads the files again (``ScanResult.likeness``).
    """

    hunks: list[Hunk]
    explained: Explained | None  # None: not explained (TF-IDF weights depend on the folder)
    similarity: float


def compared(
    a: str, b: str, options: ReadOptions | None, likeness: Callable[[], float]
) -> Compared:
    """The differences of two texts, why their fingerprints' bits differ, their ``likeness``."""
    settings = options.text if options is not None else TextSettings()
    explained = None if settings.whole_folder else explain(a, b, settings)
    return Compared(diff_hunks(a, b), explained, likeness())


class _Signals(QObject):
    done = Signal(int, object, object, object, object)  # serial, left, right, problems, compared


class _Job(QRunnable):
    def __init__(
        self,
        loader: CompareLoader,
        serial: int,
        records: tuple[FileRecord, FileRecord],
        options: ReadOptions | None,
        likeness: Callable[[], float],
    ) -> None:
        super().__init__()
        self.loader, self.serial, self.records, self.options = loader, serial, records, options
        self.likeness = likeness

    def run(self) -> None:
        """Pool thread: read both texts and diff them, unless a newer request came first."""
        if self.serial != self.loader.serial:
            return
        (left, left_problem), (right, right_problem) = (
            document(r, self.options) for r in self.records
        )
        if self.serial != self.loader.serial:
            return
        found = compared(left[1], right[1], self.options, self.likeness)
        self.loader.signals.done.emit(
            self.serial, left, right, (left_problem, right_problem), found
        )


class CompareLoader(QObject):
    """Makes the compare view's pairs; ``ready`` brings the latest one to the GUI thread."""

    ready = Signal(object, object, object, object)  # left, right, problems, Compared

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.signals = _Signals()  # made on the GUI thread: its slot runs there
        self.signals.done.connect(self._done)
        self.serial = 0

    def request(
        self,
        left: FileRecord,
        right: FileRecord,
        options: ReadOptions | None,
        likeness: Callable[[], float],
    ) -> bool:
        """Ask for a pair and its ``likeness``; returns True when made in the background."""
        self.serial += 1
        if max(_size(left), _size(right)) <= AT_ONCE_BYTES:
            (a, a_problem), (b, b_problem) = document(left, options), document(right, options)
            found = compared(a[1], b[1], options, likeness)
            self.ready.emit(a, b, (a_problem, b_problem), found)
            return False
        self.pool.start(_Job(self, self.serial, (left, right), options, likeness))
        return True

    def _done(
        self, serial: int, left: object, right: object, problems: object, found: object
    ) -> None:
        if serial == self.serial:  # not superseded while it was made
            self.ready.emit(left, right, problems, found)


def _size(record: FileRecord) -> int:
    try:
        return os.path.getsize(record.path)
    except OSError:
        return 0


__all__ = ["COMPARE_LIMIT", "CompareLoader", "Compared", "Document", "Hunk"]
