"""Two documents side by side: text differences highlighted, and their fingerprint bits."""

from __future__ import annotations

import bisect
import re

from PySide6.QtCore import QEvent, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QPainter, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTextEdit,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from simdup_gui.engine.fingerprint.explain import Bit, Explained
from simdup_gui.engine.text.textdiff import Hunk, Span, diff_hunks

LONG_LINE = 2_000  # characters: a longer line is shown broken after its sentences
_SENTENCE_END = re.compile(r"(?<=[。！？；!?;])(?=[^\n])|(?<=[.!?] )(?=[^\n])")
DIFF_COLOR = QColor("#ffd8a8")  # differing text
BIT_DIFF_COLOR = QColor("#e8590c")  # differing fingerprint bit
BIT_ONE, BIT_ZERO = QColor("#495057"), QColor("#e9ecef")


def shown_text(text: str) -> tuple[str, list[int]]:
    """The text as the view shows it, and where it breaks lines the text does not have.

    A very long line (a text with no line breaks) is laid out in one piece, which takes the
    editor a good part of a second; broken after its sentences, only what is on screen is.
    """
    cuts = [
        match.start()
        for line in re.finditer(rf"[^\n]{{{LONG_LINE},}}", text)
        for match in _SENTENCE_END.finditer(text, line.start(), line.end())
        if line.start() < match.start() < line.end()
    ]
    if not cuts:
        return text, cuts
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    return "\n".join(pieces), cuts


def on_screen(span: Span, cuts: list[int]) -> Span:
    """A span of a text in the positions of its :func:`shown_text`."""
    start, end = span
    return start + bisect.bisect_right(cuts, start), end + bisect.bisect_left(cuts, end)


class BitStrip(QWidget):
    """A 64-bit fingerprint as 4 rows of 16 cells; bits that differ from the other are orange."""

    ROWS, COLUMNS, CELL = 4, 16, 12

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.fingerprint: int | None = None
        self.other: int | None = None
        self.words: dict[int, str] = {}  # a differing bit's explanation (the words that pushed)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def set_fingerprints(self, mine: int | None, other: int | None) -> None:
        """Show ``mine``, highlighting where it differs from ``other``."""
        self.fingerprint, self.other = mine, other
        self.words = {}
        self.setToolTip("" if mine is None else f"{mine:016x}")
        self.update()

    def bit_at(self, point: QPoint) -> int | None:
        """The bit drawn at ``point`` (0 = least significant), if any."""
        row, column = point.y() // self.CELL, point.x() // self.CELL
        if not (0 <= row < self.ROWS and 0 <= column < self.COLUMNS):
            return None
        return 63 - (row * self.COLUMNS + column)

    def tooltip_at(self, point: QPoint) -> str:
        """What hovering ``point`` shows: a differing bit's words, else the fingerprint."""
        bit = self.bit_at(point)
        if bit is not None and bit in self.words:
            return self.words[bit]
        return self.toolTip()

    def event(self, event: QEvent) -> bool:
        """Hovering a differing bit shows the words that pushed it."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            QToolTip.showText(event.globalPos(), self.tooltip_at(event.pos()), self)
            return True
        return super().event(event)

    def differing_bits(self) -> list[int]:
        """Bit positions (0 = least significant) drawn as differing."""
        if self.fingerprint is None or self.other is None:
            return []
        diff = self.fingerprint ^ self.other
        return [bit for bit in range(64) if diff >> bit & 1]

    def sizeHint(self) -> QSize:
        """Fixed grid size."""
        return QSize(self.COLUMNS * self.CELL + 1, self.ROWS * self.CELL + 1)

    def paintEvent(self, event: object) -> None:
        """Draw the cells, most significant bit first."""
        painter = QPainter(self)
        differing = set(self.differing_bits())
        for position in range(64):
            bit = 63 - position
            row, column = divmod(position, self.COLUMNS)
            x, y = column * self.CELL, row * self.CELL
            if self.fingerprint is None:
                color = BIT_ZERO
            elif bit in differing:
                color = BIT_DIFF_COLOR
            else:
                color = BIT_ONE if self.fingerprint >> bit & 1 else BIT_ZERO
            painter.fillRect(x + 1, y + 1, self.CELL - 2, self.CELL - 2, color)
        painter.end()


def mark_spans(editor: QPlainTextEdit, spans: list[Span], color: QColor) -> None:
    """Give the spans (positions in the text shown) of ``editor`` a ``color`` background."""
    mark_kinds(editor, [(spans, color)])


def mark_kinds(editor: QPlainTextEdit, kinds: list[tuple[list[Span], QColor]]) -> None:
    """Give each kind's spans its colour (a later kind's over an earlier one's)."""
    selections = []
    for spans, color in kinds:
        fmt = QTextCharFormat()
        fmt.setBackground(color)
        for start, end in spans:
            selection = QTextEdit.ExtraSelection()
            cursor = QTextCursor(editor.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            selection.cursor = cursor  # type: ignore[attr-defined]
            selection.format = fmt  # type: ignore[attr-defined]
            selections.append(selection)
    editor.setExtraSelections(selections)


class CompareView(QWidget):
    """Reference (left) and selected member (right), with synced scrolling."""

    difference_moved = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.left_title, self.right_title = QLabel(), QLabel()
        self.left_bits, self.right_bits = BitStrip(), BitStrip()
        self.left_text, self.right_text = QPlainTextEdit(), QPlainTextEdit()
        self.summary = QLabel()
        self.details = QCheckBox()  # the fingerprints' bits and distance: for the curious
        self._shown: tuple[float, int | None, str] | None = None  # similarity, distance, method
        self.position = QLabel()  # which difference is shown: "3 of 12"
        self.previous_button, self.next_button = QPushButton(), QPushButton()
        self.hunks: list[Hunk] = []
        self.left_spans: list[Span] = []
        self.right_spans: list[Span] = []
        self._texts = ("", "")  # the two texts as they are (the editors may show them broken)
        self._cuts: tuple[list[int], list[int]] = ([], [])
        self._current = -1
        self.summary.setWordWrap(True)  # the pane may be narrow: the summary wraps, never widens it
        for title in (self.left_title, self.right_title):
            title.setTextFormat(Qt.TextFormat.PlainText)
            title.setWordWrap(True)
            # a path with nowhere to break (long_folder_names_like_this) is cut, not given its
            # width: it would squeeze the list of groups beside the compare view
            title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        for editor in (self.left_text, self.right_text):
            editor.setReadOnly(True)
            editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._sync(self.left_text, self.right_text)
        self._sync(self.right_text, self.left_text)
        self.previous_button.clicked.connect(lambda: self.move_difference(-1))
        self.next_button.clicked.connect(lambda: self.move_difference(1))
        self.details.toggled.connect(self._show_details)
        for strip in (self.left_bits, self.right_bits):
            strip.hide()  # behind "Fingerprint details"

        # Each path above its fingerprint, the column's whole width for it (a narrow pane wraps
        # it at its slashes); rows shared by both sides, so the two texts start level.
        columns = QGridLayout()
        for side, widgets in enumerate(
            (
                (self.left_title, self.left_bits, self.left_text),
                (self.right_title, self.right_bits, self.right_text),
            )
        ):
            for row, widget in enumerate(widgets):
                columns.addWidget(widget, row, side)
            columns.setColumnStretch(side, 1)
        columns.setRowStretch(2, 1)
        bar = QHBoxLayout()
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.position)
        bar.addWidget(self.previous_button)
        bar.addWidget(self.next_button)
        bar.addWidget(self.details)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addLayout(columns, 1)
        self.retranslate()

    def retranslate(self) -> None:
        """Set the translatable texts (the summary of the pair shown too)."""
        self.previous_button.setText(self.tr("◀ Previous difference"))
        self.next_button.setText(self.tr("Next difference ▶"))
        self.details.setText(self.tr("Fingerprint details"))
        self.details.setToolTip(
            self.tr(
                "Show each file's 64-bit fingerprint (orange where the two differ: hover a cell"
                " for the words that changed it) and how many bits apart they are."
            )
        )
        self._show_summary()
        self._show_position()

    def _show_details(self) -> None:
        """Show or hide the fingerprints (a method without bits never shows them)."""
        method = self._shown[2] if self._shown is not None else ""
        for strip in (self.left_bits, self.right_bits):
            strip.setVisible(self.details.isChecked() and not method)
        self._show_summary()

    def _show_summary(self) -> None:
        """The pair's similarity and differences, in the language in use (or what to do)."""
        if self._shown is None:
            self.summary.setText(self.tr("Select a file to compare it with its reference."))
            return
        similarity, distance, method = self._shown
        count = self.difference_count()
        if method:
            text = self.tr("Similarity {0:.1f}% by the {1} method · differences: {2}")
            self.summary.setText(text.format(100 * similarity, method, count))
            return
        if count == 1:
            text = self.tr("Text similarity {0:.1f}% · 1 difference")
        else:
            text = self.tr("Text similarity {0:.1f}% · {1} differences")
        said = text.format(100 * similarity, count)
        if distance is not None and self.details.isChecked():
            said += " · " + self.tr("fingerprints {0} of 64 bits apart").format(distance)
        self.summary.setText(said)

    @staticmethod
    def _sync(source: QPlainTextEdit, target: QPlainTextEdit) -> None:
        def follow(value: int) -> None:
            bar, other = source.verticalScrollBar(), target.verticalScrollBar()
            if bar.maximum() and not other.isSliderDown():
                other.blockSignals(True)
                other.setValue(round(value / bar.maximum() * other.maximum()))
                other.blockSignals(False)

        source.verticalScrollBar().valueChanged.connect(follow)

    def _set_titles(self, left: str, right: str) -> None:
        """The two files' paths, wrapped where they can be, and in full when hovered."""
        for label, title in ((self.left_title, left), (self.right_title, right)):
            label.setText(title)
            label.setToolTip(title)

    def show_pending(self, left_title: str, right_title: str) -> None:
        """Say that a pair is being compared (long texts: their differences come shortly)."""
        self.clear()
        self._set_titles(left_title, right_title)
        self.summary.setText(self.tr("Comparing…"))

    def show_pair(
        self,
        left: tuple[str, str, int | None],
        right: tuple[str, str, int | None],
        similarity: float = 1.0,
        hunks: list[Hunk] | None = None,
        explained: Explained | None = None,
        method: str = "",
    ) -> None:
        """Show two documents given as (title, plain text, fingerprint) and their similarity.

        ``hunks``: their differences, if already found (else they are found here);
        ``explained``: why their fingerprints' bits differ (hovering a bit shows it);
        ``method``: the scan's method when its fingerprints have no distance (their bits are
        then not shown, and the similarity is the method's own).
        """
        (left_title, left_text, left_fp), (right_title, right_text, right_fp) = left, right
        self._set_titles(left_title, right_title)
        self._texts = (left_text, right_text)
        (left_shown, left_cuts), (right_shown, right_cuts) = map(shown_text, self._texts)
        self._cuts = (left_cuts, right_cuts)
        self.left_text.setPlainText(left_shown)
        self.right_text.setPlainText(right_shown)
        self.left_bits.set_fingerprints(left_fp, right_fp)
        self.right_bits.set_fingerprints(right_fp, left_fp)
        if explained is not None and (explained.a_fingerprint, explained.b_fingerprint) == (
            left_fp,
            right_fp,
        ):  # the texts shown are the ones fingerprinted: their bits can be explained
            for strip, mine in ((self.left_bits, True), (self.right_bits, False)):
                strip.words = {bit.bit: self._bit_text(bit, mine) for bit in explained.bits}
        self.hunks = diff_hunks(left_text, right_text) if hunks is None else hunks
        self.left_spans = [left for left, _ in self.hunks if left[1] > left[0]]
        self.right_spans = [right for _, right in self.hunks if right[1] > right[0]]
        self._highlight(self.left_text, [on_screen(s, left_cuts) for s in self.left_spans])
        self._highlight(self.right_text, [on_screen(s, right_cuts) for s in self.right_spans])
        self._current = -1
        self._show_position()
        known = left_fp is not None and right_fp is not None
        distance = (left_fp ^ right_fp).bit_count() if known else None  # type: ignore[operator]
        self._shown = (similarity, distance, method)
        self._show_details()

    def _bit_text(self, bit: Bit, left: bool) -> str:
        """A differing bit's explanation, as this side's tooltip shows it."""
        here, there = (bit.a, bit.b) if left else (bit.b, bit.a)
        lines = [
            self.tr(
                "Bit {0}: {1} here, {2} there. The words that pushed it (weight here : there):"
            ).format(bit.bit, here, there)
        ]
        for word in bit.words:
            mine, other = (word.a_weight, word.b_weight) if left else (word.b_weight, word.a_weight)
            lines.append(f"  {word.word}  {mine:g} : {other:g}")
        return "\n".join(lines)

    def difference_count(self) -> int:
        """How many differing passages there are (each one place on both sides)."""
        return len(self.hunks)

    def _show_position(self) -> None:
        count = self.difference_count()
        current = f"{self._current + 1}" if self._current >= 0 else "–"
        self.position.setText(self.tr("{0} of {1}").format(current, count) if count else "")
        self.previous_button.setEnabled(count > 0)
        self.next_button.setEnabled(count > 0)

    def clear(self) -> None:
        """Show nothing."""
        for editor in (self.left_text, self.right_text):
            editor.clear()
        self._set_titles("", "")
        self.left_bits.set_fingerprints(None, None)
        self.right_bits.set_fingerprints(None, None)
        self.hunks, self.left_spans, self.right_spans = [], [], []
        self._texts, self._cuts = ("", ""), ([], [])
        self._current = -1
        self._shown = None  # no stale summary: what to do instead, in the language in use
        self._show_summary()
        self._show_position()

    @staticmethod
    def _highlight(editor: QPlainTextEdit, spans: list[Span]) -> None:
        mark_spans(editor, spans, DIFF_COLOR)

    def highlighted_text(self, side: str) -> list[str]:
        """The highlighted passages of one side ("left" or "right")."""
        text, spans = (
            (self._texts[0], self.left_spans)
            if side == "left"
            else (self._texts[1], self.right_spans)
        )
        return [text[start:end] for start, end in spans]

    def move_difference(self, step: int) -> None:
        """Show the next (step=1) or previous (-1) difference: the same passage on both sides."""
        count = self.difference_count()
        if not count:
            return
        self._current = (self._current + step) % count
        for editor, span, cuts in zip(
            (self.left_text, self.right_text), self.hunks[self._current], self._cuts, strict=True
        ):
            start, end = on_screen(span, cuts)
            cursor = QTextCursor(editor.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            editor.setTextCursor(cursor)  # selects the passage (a caret where it is missing)
            editor.centerCursor()
        self._show_position()
        self.difference_moved.emit(self._current)

    def current_passages(self) -> tuple[str, str]:
        """The passage shown as the current difference, on the left and on the right."""
        if self._current < 0:
            return "", ""
        (l0, l1), (r0, r1) = self.hunks[self._current]
        return self._texts[0][l0:l1], self._texts[1][r0:r1]
