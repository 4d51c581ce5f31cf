"""The reuse view (查重): which articles copied passages, from where, and how much, side by side.

A list of the articles that copied at least the chosen share of their text, the most copied
first, each with its sources; choosing one shows the article beside a source, the copied
passages marked on both sides and each paragraph's copied share in the article's margin. The
measuring (``core/reusing.py``) runs as a task the window waits for, the first time the view is
shown after a scan and when a choice changes; a pair is read and aligned off the GUI thread.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable

from PySide6.QtCore import QRect, QSize, Qt, QThreadPool, Signal
from PySide6.QtGui import (
    QColor,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QShowEvent,
    QStandardItem,
    QStandardItemModel,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from simdup_gui.core.reusing import MATCHES, PairShown, ReuseChoices, measure, pair_shown
from simdup_gui.engine.progress import ProgressEvent
from simdup_gui.engine.read.walk import display_path, in_folders
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.reuse.sources import Copied, Reuse, ReuseResult
from simdup_gui.ui.compare import mark_kinds, on_screen, shown_text
from simdup_gui.ui.tasks import CallTask

COPIED_COLOR = QColor("#ffc9c9")  # a passage copied word for word
REWORDED_COLOR = QColor("#fde7b3")  # its parts reworded or retold
SHARE_COLOR = QColor("#c92a2a")  # a paragraph's share, in the margin
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
CHOSEN_ROLE = Qt.ItemDataRole.UserRole + 2  # an item's (Copied, Reuse | None)


RunTask = Callable[[CallTask, str], bool]  # runs a task the window waits for; False: busy
WhenIdle = Callable[[Callable[[], object]], None]  # calls back once no task runs


class PassagesEdit(QPlainTextEdit):
    """A text with its copied passages marked.

    With ``margin``, each paragraph's copied share is beside it (the way Qt's code editor
    example numbers its lines).
    """

    def __init__(self, margin: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.shares: dict[int, float] = {}  # a paragraph's first block → its copied share
        self.passages: list[tuple[int, int]] = []  # marked, in characters of the text given
        self.reworded: list[tuple[int, int]] = []  # of those, the parts reworded or retold
        self._text = ""  # the text given (shown with breaks in very long lines)
        self._margin = _Margin(self) if margin else None
        if self._margin is not None:
            self.setViewportMargins(self._margin.width(), 0, 0, 0)
            self.updateRequest.connect(self._margin.follow)

    def show_text(
        self,
        text: str,
        passages: tuple[tuple[int, int], ...],
        paragraphs: tuple[tuple[int, int, float], ...] = (),
        reworded: tuple[tuple[int, int], ...] = (),
    ) -> None:
        """Show ``text`` with ``passages`` marked and ``paragraphs``' shares in the margin.

        The passages' ``reworded`` parts (not word for word) in a colour of their own.
        """
        shown, cuts = shown_text(text)
        self.setPlainText(shown)
        self._text, self.passages, self.reworded = text, list(passages), list(reworded)
        mark_kinds(
            self,
            [
                ([on_screen(span, cuts) for span in passages], COPIED_COLOR),
                ([on_screen(span, cuts) for span in reworded], REWORDED_COLOR),
            ],
        )
        document = self.document()
        self.shares = {
            document.findBlock(on_screen((start, start), cuts)[0]).blockNumber(): share
            for start, _, share in paragraphs
        }
        if self._margin is not None:
            self._margin.update()
        if passages:  # the first copied passage in sight
            cursor = QTextCursor(document)
            cursor.setPosition(on_screen(passages[0], cuts)[0])
            self.setTextCursor(cursor)
            self.centerCursor()

    def marked_text(self) -> list[str]:
        """The marked passages, as the text given has them."""
        return [self._text[a:b] for a, b in self.passages]

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The margin follows the text's height."""
        super().resizeEvent(event)
        if self._margin is not None:
            area = self.contentsRect()
            self._margin.setGeometry(
                QRect(area.left(), area.top(), self._margin.width(), area.height())
            )

    def paint_margin(self, event: QPaintEvent) -> None:
        """Each paragraph's share beside its first line, red as much as it was copied."""
        assert self._margin is not None
        painter = QPainter(self._margin)
        painter.fillRect(event.rect(), self.palette().window())
        block = self.firstVisibleBlock()
        top = self.blockBoundingGeometry(block).translated(self.contentOffset()).top()
        height = self.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            share = self.shares.get(block.blockNumber())
            if share is not None and block.isVisible():
                color = QColor(SHARE_COLOR) if share >= 0.005 else self.palette().mid().color()
                painter.setPen(color)
                painter.drawText(
                    QRect(0, int(top), self._margin.width() - 4, height),
                    Qt.AlignmentFlag.AlignRight,
                    f"{100 * share:.0f}%",
                )
            top += self.blockBoundingRect(block).height()
            block = block.next()
        painter.end()


class _Margin(QWidget):
    """The margin of a :class:`PassagesEdit`: it paints itself through its editor."""

    def __init__(self, editor: PassagesEdit) -> None:
        super().__init__(editor)
        self.editor = editor

    def width(self) -> int:  # type: ignore[override]
        """Room for "100%"."""
        return self.editor.fontMetrics().horizontalAdvance("100%") + 10

    def sizeHint(self) -> QSize:
        """As wide as :meth:`width`."""
        return QSize(self.width(), 0)

    def follow(self, rect: QRect, dy: int) -> None:
        """Scroll or repaint with the text."""
        if dy:
            self.scroll(0, dy)
        else:
            self.update(0, rect.y(), self.width(), rect.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        """Painted by the editor, which knows where its paragraphs are."""
        self.editor.paint_margin(event)


class ReusePanel(QWidget):
    """The reuse of the result shown: its list, its choices, a pair side by side, exports."""

    pair_shown = Signal()  # a pair is on screen (tests wait for it)
    export_wanted = Signal(str)  # "html" or "csv": the reuse report, written by the window

    def __init__(
        self,
        run_task: RunTask,
        when_idle: WhenIdle,
        show_progress: Callable[[ProgressEvent], None],
        warn: Callable[[str], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._run_task, self._when_idle = run_task, when_idle
        self._show_progress, self._warn = show_progress, warn
        self.result: ScanResult | None = None
        self.reuse: ReuseResult | None = None
        self._stale = False  # the result (or a choice) changed since it was measured
        self._serial = 0  # the latest pair asked for: older answers are dropped
        self._pairs = QThreadPool(self)
        self._pairs.setMaxThreadCount(1)
        self._tasks: set[CallTask] = set()  # held until done
        self.least = QDoubleSpinBox()
        self.least.setRange(1, 100)
        self.least.setDecimals(0)
        self.least.setSuffix(" %")
        self.least.setValue(5)
        self.least.editingFinished.connect(self._choices_changed)
        self.shortest = QSpinBox()  # the shortest passage found (the command's --min-match)
        self.shortest.setRange(*MATCHES)
        self.shortest.setValue(ReuseChoices().min_match)
        self.shortest.editingFinished.connect(self._choices_changed)
        self.shortest_label = QLabel()
        self.no_quotes = QCheckBox()
        self.no_quotes.toggled.connect(self._choices_changed)
        self.export_html_button, self.export_csv_button = QPushButton(), QPushButton()
        self.export_html_button.clicked.connect(lambda: self.export_wanted.emit("html"))
        self.export_csv_button.clicked.connect(lambda: self.export_wanted.emit("csv"))
        self.least_label = QLabel()
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.legend = QLabel()  # what the two colours mean
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.model = QStandardItemModel(self)
        self.model.setSortRole(SORT_ROLE)
        self.tree = QTreeView()
        self.tree.setModel(self.model)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSortingEnabled(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.header().setStretchLastSection(False)
        self.tree.selectionModel().currentChanged.connect(self._chosen)
        self.article_title, self.source_title = QLabel(), QLabel()
        for title in (self.article_title, self.source_title):
            title.setTextFormat(Qt.TextFormat.PlainText)
            title.setWordWrap(True)
        self.article_text, self.source_text = PassagesEdit(margin=True), PassagesEdit()

        choices = QHBoxLayout()
        choices.addWidget(self.least_label)
        choices.addWidget(self.least)
        choices.addWidget(self.shortest_label)
        choices.addWidget(self.shortest)
        choices.addWidget(self.no_quotes)
        choices.addStretch(1)
        choices.addWidget(self.legend)
        choices.addWidget(self.export_html_button)
        choices.addWidget(self.export_csv_button)
        texts = QGridLayout()
        texts.addWidget(self.article_title, 0, 0)
        texts.addWidget(self.source_title, 0, 1)
        texts.addWidget(self.article_text, 1, 0)
        texts.addWidget(self.source_text, 1, 1)
        texts.setRowStretch(1, 1)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.summary)
        right_layout.addLayout(texts, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.tree)
        self.splitter.addWidget(right)
        self.splitter.setSizes([420, 860])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(choices)
        layout.addWidget(self.splitter, 1)
        self.retranslate()

    def retranslate(self) -> None:
        """Set the translatable texts."""
        self.least_label.setText(self.tr("Sources an article copied at least"))
        self.least.setToolTip(self.tr("Of the article's characters, whitespace left out"))
        self.shortest_label.setText(self.tr("in passages of at least"))
        self.shortest.setSuffix(self.tr(" words"))
        self.shortest.setToolTip(
            self.tr(
                "The shortest copied passage counted, in words or Chinese characters; "
                "a source needs twice as many copied"
            )
        )
        self.no_quotes.setText(self.tr("Leave out quotations"))
        self.no_quotes.setToolTip(
            self.tr('Text in quotation marks (「」, “”, "") is not counted as copied')
        )
        swatch = '<span style="background:{0}">&nbsp;{1}&nbsp;</span>'
        self.legend.setText(
            swatch.format(COPIED_COLOR.name(), html.escape(self.tr("copied word for word")))
            + " "
            + swatch.format(REWORDED_COLOR.name(), html.escape(self.tr("reworded or retold")))
        )
        self.export_html_button.setText(self.tr("Export HTML…"))
        self.export_csv_button.setText(self.tr("Export CSV…"))
        self.model.setHorizontalHeaderLabels(
            [
                self.tr("Article"),
                self.tr("Copied"),
                self.tr("Title"),
                self.tr("Most from"),
                self.tr("Sources"),
            ]
        )
        if self.reuse is None and not self.summary.text():
            self.summary.setText(self.tr("Shown after a scan."))

    # --- measuring ---------------------------------------------------------------------
    def set_result(self, result: ScanResult | None) -> None:
        """The result shown changed: measured again when the panel is next in sight."""
        if result is self.result:
            return
        self.result, self.reuse, self._stale = result, None, result is not None
        self.model.removeRows(0, self.model.rowCount())
        self._clear_pair()
        self._update_exports()
        if self.isVisible():
            self.measure()

    def choices(self) -> ReuseChoices:
        """The choices made in the panel."""
        return ReuseChoices(
            self.least.value() / 100,
            quotes=not self.no_quotes.isChecked(),
            min_match=self.shortest.value(),
        )

    def showEvent(self, event: QShowEvent) -> None:
        """Measured when first in sight after a scan."""
        super().showEvent(event)
        if self._stale:
            self.measure()

    def _choices_changed(self) -> None:
        wanted, done = self.choices(), self.reuse
        if done is not None and (done.min_share, done.quotes, done.min_match) == (
            wanted.min_share,
            wanted.quotes,
            wanted.min_match,
        ):
            return
        self._stale = self.result is not None
        if self._stale and self.isVisible():
            self.measure()

    def measure(self) -> None:
        """Measure the result's reuse with the panel's choices, as a task the window waits for."""
        result = self.result
        if result is None:
            return
        choices = self.choices()
        task = CallTask(
            lambda progress, cancel: measure(result, choices, progress, cancel), "reuse"
        )
        task.signals.progress.connect(self._show_progress)
        task.signals.succeeded.connect(lambda reuse: self._measured(result, reuse))
        task.signals.failed.connect(self._warn)
        self.summary.setText(self.tr("Finding copied passages…"))
        if self._run_task(task, self.tr("Finding copied passages…")):
            self._stale = False
        else:  # the task that showed the result is still let go: measured as soon as it is
            self._when_idle(self._measure_if_stale)

    def _measure_if_stale(self) -> None:
        if self._stale and self.isVisible():
            self.measure()

    def _measured(self, result: ScanResult, reuse: ReuseResult) -> None:
        if result is not self.result:
            return  # another result is shown since
        self.reuse = reuse
        self._fill(reuse)
        self._update_exports()
        if reuse.articles:
            self.tree.setCurrentIndex(self.model.index(0, 0))
        else:
            self.summary.setText(
                self.tr("No article copied {0:g} % or more of its text from another.").format(
                    100 * reuse.min_share
                )
            )

    def _fill(self, reuse: ReuseResult) -> None:
        self.model.removeRows(0, self.model.rowCount())
        files, root = reuse.scan.files, reuse.scan.root

        def named(path: str, own: bool = False) -> QStandardItem:
            shown = _within_folder(path, root)
            return _item(
                self.tr("(your own) {0}").format(shown) if own else shown, path, display_path(path)
            )

        def title(reuse: Reuse | None, article: int | None = None) -> QStandardItem:
            """The headline an article gives itself (a library's articles: none kept)."""
            text = ""
            if article is not None:
                text = files[article].title
            elif reuse is not None and not reuse.library:
                text = files[reuse.source].title
            return _item(text, text, text)

        def also_in(source: Reuse) -> QStandardItem:
            """The articles holding what was copied from the source, copied from it too."""
            paths = [reuse.source_path(other) for other in source.also]
            shown = ", ".join(_within_folder(path, root) for path in paths)
            tip = "\n".join(display_path(path) for path in paths)
            return _item(self.tr("also in {0}").format(shown) if paths else "", len(paths), tip)

        for copied in reuse.articles:
            largest = copied.sources[0]
            row = [
                named(files[copied.path].path),
                _item(
                    f"{100 * copied.share:.1f}%",
                    copied.share,
                    self.tr(
                        "Copied in all: {0:.1f}%; without cited text: {1:.1f}%;"
                        " without your own articles: {2:.1f}%"
                    ).format(
                        100 * copied.share, 100 * copied.without_quotes, 100 * copied.without_own
                    ),
                ),
                title(None, copied.path),
                named(reuse.source_path(largest)),
                _item(str(len(copied.sources)), len(copied.sources)),
            ]
            row[0].setData((copied, None), CHOSEN_ROLE)
            for source in copied.sources:
                path = reuse.source_path(source)
                child = [
                    named(path, source.own),
                    _item(f"{100 * source.share:.1f}%", source.share),
                    title(source),
                    _item(
                        self.tr("{0:.1f}% of it here").format(100 * source.source_share),
                        source.source_share,
                    ),
                    also_in(source),
                ]
                child[0].setData((copied, source), CHOSEN_ROLE)
                row[0].appendRow(child)
            self.model.appendRow(row)
        self.tree.sortByColumn(1, Qt.SortOrder.DescendingOrder)
        header = self.tree.header()
        for column in (0, 2):  # the names and titles share what the figures leave
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        for column in (1, 3, 4):
            self.tree.resizeColumnToContents(column)
        room = max(self.tree.viewport().width() - self.tree.columnWidth(1), 240)
        self.tree.setColumnWidth(0, room // 2)
        self.tree.setColumnWidth(2, room // 2)

    # --- a pair --------------------------------------------------------------------------
    def _chosen(self) -> None:
        index = self.tree.currentIndex()
        chosen = index.siblingAtColumn(0).data(CHOSEN_ROLE) if index.isValid() else None
        if chosen is None or self.reuse is None:
            return
        copied, source = chosen
        self.show_pair(copied, source)

    def show_pair(self, copied: Copied, source: Reuse | None) -> None:
        """Show ``copied`` beside ``source`` (None: all it copied, beside its largest source)."""
        reuse = self.reuse
        if reuse is None:
            return
        self._serial += 1
        serial = self._serial
        self.summary.setText(self.tr("Reading the texts…"))

        def work(progress: object, cancel: object) -> object:
            return pair_shown(reuse, copied, source) if serial == self._serial else None

        task = CallTask(work, "a reuse pair")  # type: ignore[arg-type]
        task.signals.succeeded.connect(lambda shown: self._pair_ready(serial, shown, copied))
        task.signals.failed.connect(self._warn)
        self._tasks.add(task)
        task.signals.finished.connect(lambda: self._tasks.discard(task))
        self._pairs.start(task)

    def _pair_ready(self, serial: int, shown: PairShown | None, copied: Copied) -> None:
        if serial != self._serial or shown is None:
            return  # superseded
        for label, side in ((self.article_title, shown.article), (self.source_title, shown.source)):
            label.setText(side.title)
            label.setToolTip(side.title)
        self.article_text.show_text(
            shown.article.text or self._unreadable(shown.article.problem),
            shown.article.passages,
            shown.paragraphs,
            shown.article.reworded,
        )
        self.source_text.show_text(
            shown.source.text or self._unreadable(shown.source.problem),
            shown.source.passages,
            reworded=shown.source.reworded,
        )
        if shown.whole:
            text = self.tr(
                "{0:.1f}% of this article was copied, most from the source on the right"
                " (passages from it: {1}, the longest {2} characters)."
            )
            totals = self.tr("Without cited text: {0:.1f}%; without your own articles: {1:.1f}%.")
            self.summary.setText(
                text.format(100 * shown.share, shown.passages, shown.largest)
                + " "
                + totals.format(100 * copied.without_quotes, 100 * copied.without_own)
            )
        else:
            text = self.tr(
                "{0:.1f}% of this article was copied from the source on the right (passages:"
                " {1}, the longest {2} characters); {3:.1f}% of the source is in it."
            )
            self.summary.setText(
                text.format(
                    100 * shown.share, shown.passages, shown.largest, 100 * shown.source_share
                )
            )
        if shown.also_in:  # what it copied from the source, others copied from it too
            names = ", ".join(_within_folder(path, self.reuse.scan.root) for path in shown.also_in)
            also = self.tr("Also in (copied from it too): {0}.").format(names)
            self.summary.setText(self.summary.text() + " " + also)
        self.pair_shown.emit()

    def _unreadable(self, problem: str) -> str:
        return self.tr("(cannot show this file: {0})").format(problem or self.tr("not at hand"))

    def _clear_pair(self) -> None:
        self._serial += 1
        for label in (self.article_title, self.source_title):
            label.clear()
        self.article_text.show_text("", ())
        self.source_text.show_text("", ())
        self.summary.setText(self.tr("Shown after a scan.") if self.result is None else "")

    # --- exports -------------------------------------------------------------------------
    def _update_exports(self) -> None:
        ready = self.reuse is not None and bool(self.reuse.articles)
        self.export_html_button.setEnabled(ready)
        self.export_csv_button.setEnabled(ready)


def _item(text: str, sort: object, tip: str = "") -> QStandardItem:
    item = QStandardItem(text)
    item.setData(sort, SORT_ROLE)
    item.setToolTip(tip or text)
    return item


def _within_folder(path: str, root: str) -> str:
    """``path`` as shown in the list: within the folder scanned, from it; else whole."""
    inside = root and in_folders(path, [root])
    return display_path(os.path.relpath(path, root) if inside else path)
