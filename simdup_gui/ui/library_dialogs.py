"""The library's statistics, with a picture of its pairs by distance."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from simdup_gui.engine.library.store import Stats
from simdup_gui.engine.output.words import human_size


class DistanceHistogram(QWidget):
    """Bars of the library's pairs by distance 0..8 (a square-root scale, so few stay visible)."""

    def __init__(self, counts: tuple[int, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.counts = counts

    def sizeHint(self) -> QSize:
        """Room for nine labelled bars."""
        return QSize(360, 160)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the bars with their distance below and their count above."""
        painter = QPainter(self)
        width, height = self.width(), self.height()
        top = max(max(self.counts, default=0), 1) ** 0.5
        slot = width / max(len(self.counts), 1)
        for n, count in enumerate(self.counts):
            bar = (height - 36) * (count**0.5) / top
            rect = QRectF(n * slot + 4, height - 18 - bar, slot - 8, bar)
            painter.fillRect(rect, QColor("#1a5fb4"))
            painter.drawText(
                QRectF(n * slot, height - 16, slot, 16), Qt.AlignmentFlag.AlignCenter, str(n)
            )
            painter.drawText(
                QRectF(n * slot, height - 34 - bar, slot, 16),
                Qt.AlignmentFlag.AlignCenter,
                str(count),
            )
        painter.end()


class LibraryStatsDialog(QDialog):
    """What a library holds, and its pairs by distance."""

    def __init__(self, folder: str, stats: Stats, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Library statistics"))
        lines = [
            self.tr("Library: {0}").format(folder),
            self.tr("{0} articles ({1})").format(stats.articles, human_size(stats.article_bytes)),
            self.tr("{0} imported fingerprints").format(stats.imported),
            self.tr("{0} near-duplicate groups among the articles").format(stats.groups),
            self.tr("Encodings: {0}").format(
                ", ".join(f"{e or '?'} {c}" for e, c in stats.encodings)
            ),
            self.tr("Languages: {0}").format(
                ", ".join(f"{lang or '?'} {c}" for lang, c in stats.languages)
            ),
            self.tr("Last update: {0}").format(stats.updated),
            self.tr("Pairs of fingerprints within 8 bits, by distance:"),
        ]
        self.summary = QLabel("\n".join(lines))
        self.histogram = DistanceHistogram(stats.by_distance)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.histogram)
        layout.addWidget(buttons)
