"""The main window: choose a folder, scan, review groups side by side, act, export."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt, QThreadPool, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QLabel,
    QMainWindow,
    QProgressBar,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QToolBar,
)

from simdup_gui.core import not_duplicates
from simdup_gui.core.acting import Plan
from simdup_gui.core.columns import human_size
from simdup_gui.core.session import Session
from simdup_gui.engine.fingerprint.pipeline import warm_up
from simdup_gui.engine.kernels import groups_at_once, kernels_compiled, reads_plain
from simdup_gui.engine.library.build import Added, add_folders
from simdup_gui.engine.library.check import check_folder
from simdup_gui.engine.library.store import Library, LibraryError, library_stats
from simdup_gui.engine.match.index import MAX_K
from simdup_gui.engine.match.methods import DISTANCES, FLOORS
from simdup_gui.engine.options import Method, ScanOptions
from simdup_gui.engine.output.actions import ActionOutcome, restore
from simdup_gui.engine.output.html_report import write_html_report
from simdup_gui.engine.output.outputs import output_problem
from simdup_gui.engine.output.report import write_report
from simdup_gui.engine.progress import CancelToken, ProgressEvent
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.resources import resource
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.store.saved import SUFFIX, SavedResultError, load_result, save_result
from simdup_gui.logs import log_path
from simdup_gui.ui.commands import Commands
from simdup_gui.ui.compare import CompareView
from simdup_gui.ui.comparing import Compared, CompareLoader, Document
from simdup_gui.ui.dialogs import Dialogs
from simdup_gui.ui.groups_filter import GroupsFilter
from simdup_gui.ui.groups_panel import GroupsPanel
from simdup_gui.ui.i18n import counted, install_language
from simdup_gui.ui.library_dialogs import LibraryStatsDialog
from simdup_gui.ui.list_dialog import ListDialog
from simdup_gui.ui.models import (
    GroupsModel,
    MemberInfo,
    ProblemsModel,
)
from simdup_gui.ui.settings_dialog import (
    SettingsDialog,
    folder_list,
    options_from_settings,
    set_folder_list,
)
from simdup_gui.ui.start_page import StartPage
from simdup_gui.ui.tasks import CallTask, ScanTask, TaskRunner

RECENT_LIMIT = 8
REGROUP_AT_ONCE = 20_000  # results with more files are regrouped off the GUI thread
KERNELS_AFTER_MS = 1000  # the compiled kernels are loaded this long after a large result shows


def threshold_label(k: int) -> str:
    """A word for a Hamming threshold (untranslated key)."""
    return "identical" if k == 0 else "strict" if k <= 3 else "normal" if k <= 6 else "loose"


class MainWindow(QMainWindow):
    """The app's main window."""

    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.settings = settings or QSettings("simdup", "simdup")
        self.dialogs = Dialogs(self)  # every question asked, answered through one interface
        self.runner = TaskRunner(self)
        self.runner.idle.connect(self._update_actions)
        # the app's state and decisions (this window shows them), with the pairs said apart
        self.session = Session(not_duplicates.load())
        self.folders: list[str] = []  # the folders of the scan shown (several: scanned together)
        self.groups = GroupsModel(self.session, self)
        self.groups_view_model = GroupsFilter(self)
        self.groups_view_model.setSourceModel(self.groups)
        self.problems = ProblemsModel(self)
        self._scan_started = 0.0
        self.last_manifest: Path | None = None  # of the last trash/move, for the summary
        self._build()
        self._restore()
        self.retranslate()
        self.setAcceptDrops(True)

    @property
    def root(self) -> str | None:
        """The folder scanned (the session's)."""
        return self.session.root

    @root.setter
    def root(self, folder: str | None) -> None:
        self.session.root = folder

    @property
    def result(self) -> ScanResult | None:
        """The result shown (the session's)."""
        return self.session.result

    # --- building -----------------------------------------------------------------------
    def _build(self) -> None:
        self.toolbar = QToolBar(self)
        self.toolbar.setObjectName("main-toolbar")
        self.addToolBar(self.toolbar)
        c = self.commands = Commands(self)
        c.choose.triggered.connect(self.choose_folder)
        c.sample.triggered.connect(lambda: self.start_scan(str(resource("sample"))))
        c.library_check.triggered.connect(self.check_against_library)
        c.keep_apart.triggered.connect(self.keep_apart)
        for rule, action in c.keep_rules.items():
            action.triggered.connect(lambda checked=False, rule=rule: self.reprioritize(rule))
        c.remove_from_results.triggered.connect(self.remove_from_results)
        c.restore.triggered.connect(self.restore_manifest)
        c.undo_last.triggered.connect(self.undo_last_action)
        c.not_duplicates.triggered.connect(self.edit_not_duplicates)
        c.reference_folders.triggered.connect(self.edit_reference_folders)
        c.excluded_folders.triggered.connect(self.edit_excluded_folders)
        c.invert_marks.triggered.connect(self.groups.invert_marks)
        for rule, action in c.mark_rules.items():
            action.triggered.connect(lambda _=False, rule=rule: self.mark_where(rule))
        c.copy_marked.triggered.connect(self.copy_marked)
        c.library_add.triggered.connect(self.add_to_library)
        c.library_stats.triggered.connect(self.show_library_stats)
        c.rescan.triggered.connect(self.scan_again)
        c.scan_several.triggered.connect(self.scan_several)
        c.cancel.triggered.connect(self.runner.cancel)
        c.export_html.triggered.connect(self.export_html)
        c.export.triggered.connect(self.export_csv)
        c.save_results.triggered.connect(self.save_results)
        c.open_results.triggered.connect(self.open_results)
        c.quit.triggered.connect(self.close)
        c.settings.triggered.connect(self.edit_settings)
        c.mark_copies.triggered.connect(self.groups.mark_all_but_references)
        c.clear_marks.triggered.connect(self.groups.clear_marks)
        c.trash.triggered.connect(self.trash_marked)
        c.move.triggered.connect(self.move_marked)
        c.toggle_mark.triggered.connect(self.toggle_mark)
        c.make_reference.triggered.connect(self.make_reference)
        c.pin.triggered.connect(self.pin_for_compare)
        c.unpin.triggered.connect(self.unpin)
        c.open.triggered.connect(self.open_selected)
        c.reveal.triggered.connect(self.reveal_selected)
        c.english.triggered.connect(lambda: self.set_language("en"))
        c.chinese.triggered.connect(lambda: self.set_language("zh_CN"))
        self.toolbar.addActions([c.choose, c.sample, c.rescan, c.cancel])
        self.toolbar.addSeparator()
        self.toolbar.addActions([c.mark_copies, c.clear_marks, c.trash, c.move, c.export])
        self.addToolBarBreak()  # the knobs on a row of their own: every command fits 1024 px
        self.knobs = QToolBar(self)
        self.knobs.setObjectName("threshold-toolbar")
        self.addToolBar(self.knobs)
        self.k_label = QLabel()
        self.k_box = QSpinBox()
        self.k_box.setRange(0, MAX_K)
        self.k_box.setValue(int(self.settings.value("k", ScanOptions().k)))
        self.k_box.valueChanged.connect(self.regroup)
        self.k_words = QLabel()
        self.floor_label = QLabel()
        self.floor_box = QDoubleSpinBox()
        self.floor_box.setRange(0, 100)
        self.floor_box.setDecimals(1)  # pinyin's floor is 99.5 %
        self.floor_box.setSuffix(" %")
        default_floor = 100 * ScanOptions().min_similarity
        self.floor_box.setValue(float(self.settings.value("min_similarity", default_floor)))
        self.floor_box.valueChanged.connect(self.regroup)
        # each knob says, until it is turned, that its value is the last session's
        self._remembered = {
            box: self.settings.contains(key)
            for box, key in ((self.k_box, "k"), (self.floor_box, "min_similarity"))
        }
        for box in self._remembered:
            box.valueChanged.connect(lambda _, box=box: self._forget_remembered(box))
        for widget in (self.k_label, self.k_box, self.k_words, self.floor_label, self.floor_box):
            self.knobs.addWidget(widget)
        self._fit_knobs(options_from_settings(self.settings, 0, 0.0).text.method.name)
        self.knobs.addAction(c.settings)
        c.fill_menus(self.menuBar())

        self.start_page = StartPage()
        self.start_page.choose_requested.connect(self.choose_folder)
        self.start_page.sample_requested.connect(c.sample.trigger)
        self.start_page.library_requested.connect(c.library_check.trigger)
        self.start_page.folder_chosen.connect(self.start_scan)
        self.groups_panel = GroupsPanel(self.groups_view_model, self.problems)
        self.groups_panel.member_changed.connect(self._current_changed)
        self.groups_panel.member_opened.connect(self.open_selected)
        self.groups_panel.tree.header().sortIndicatorChanged.connect(self.sort_groups)
        self.groups_panel.set_member_actions(c.on_member)
        self.compare = CompareView()
        self.loader = CompareLoader(self)  # texts and differences, off the GUI thread if long
        self.loader.ready.connect(self._show_compared)
        self.regroup_pool = QThreadPool(self)  # regroups of large results, off the GUI thread
        self.regroup_pool.setMaxThreadCount(1)
        self.background_pool = QThreadPool(self)  # reports written, kernels loaded
        self.background_pool.setMaxThreadCount(1)
        self._kernels_loading = False
        self._regroup_serial = 0
        self._background_tasks: set[CallTask] = set()  # held until done (Qt does not hold them)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("main-splitter")
        self.splitter.addWidget(self.groups_panel)
        self.splitter.addWidget(self.compare)
        self.splitter.setSizes([560, 720])

        self.pages = QStackedWidget()
        self.pages.addWidget(self.start_page)
        self.pages.addWidget(self.splitter)
        self.setCentralWidget(self.pages)

        self.progress = QProgressBar()
        self.progress.setMaximumWidth(240)
        self.progress.hide()
        self.status = QLabel()
        self.marked_label = QLabel()  # how many files are marked, at all times
        self.groups.marks_changed.connect(self._show_marked)
        self.statusBar().addWidget(self.status, 1)
        self.statusBar().addPermanentWidget(self.marked_label)
        self.statusBar().addPermanentWidget(self.progress)
        self._update_actions()

    def _restore(self) -> None:
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        splitter = self.settings.value("splitter")
        if isinstance(splitter, QByteArray):
            self.splitter.restoreState(splitter)
        self._fill_recent()

    def closeEvent(self, event: object) -> None:
        """Stop the scan and remember the window."""
        self.runner.shutdown()
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("splitter", self.splitter.saveState())
        self.settings.setValue("k", self.k_box.value())
        self.settings.setValue("min_similarity", self.floor_box.value())
        super().closeEvent(event)  # type: ignore[arg-type]

    # --- language ----------------------------------------------------------------------------
    def set_language(self, language: str) -> None:
        """Switch the UI language now and for next time."""
        install_language(language)
        self.settings.setValue("language", language)
        self.retranslate()

    def _forget_remembered(self, box: QSpinBox | QDoubleSpinBox) -> None:
        """A knob turned in this session no longer says it was remembered."""
        if self._remembered.get(box):
            self._remembered[box] = False
            self.retranslate()

    def retranslate(self) -> None:
        """Set every translatable text (called again after a language switch)."""
        self.setWindowTitle(self.tr("simdup — near-duplicate articles"))
        self.commands.retranslate()
        self.k_label.setText(self.tr("Threshold (differing bits):") + " ")
        self.floor_label.setText(" " + self.tr("Min. text similarity:") + " ")
        tips = {
            self.k_box: self.tr(
                "How many of the 64 fingerprint bits two copies may differ in. From 7 on "
                "(loose), files that share most of their text are grouped even when an added "
                "notice or template moved their fingerprints further apart."
            ),
            self.floor_box: self.tr(
                "How much of their text (runs of 5 characters) two files must share to be "
                "grouped, whatever their fingerprints say. With another fingerprint method "
                "(Settings), the similarity that method measures."
            ),
        }
        remembered = self.tr("Remembered from your last session.")
        for box, tip in tips.items():
            box.setToolTip(tip + ("\n\n" + remembered if self._remembered.get(box) else ""))
            box.setStyleSheet("font-style: italic" if self._remembered.get(box) else "")
        self._update_k_words()
        self.start_page.retranslate()
        self.groups_panel.retranslate()
        self.compare.retranslate()
        self._show_summary()

    def _update_k_words(self) -> None:
        words = {
            "identical": self.tr("identical"),
            "strict": self.tr("strict"),
            "normal": self.tr("normal"),
            "loose": self.tr("loose"),
        }
        self.k_words.setText(f" {words[threshold_label(self.k_box.value())]} ")

    # --- scanning -----------------------------------------------------------------------------
    def choose_folder(self) -> None:
        """Ask for a folder and scan it."""
        start = str(self.settings.value("last_folder", str(Path.home())))
        folder = self.dialogs.folder(self.tr("Choose a folder of articles"), start)
        if folder:
            self.start_scan(folder)

    def scan_options(self) -> ScanOptions:
        """The scan settings chosen in the window and the settings dialog."""
        floor = self.floor_box.value() / 100
        options = options_from_settings(self.settings, self.k_box.value(), floor)
        return replace(options, not_duplicates=frozenset(self.session.not_duplicates))

    def edit_settings(self) -> None:
        """Edit the scan settings; rescan when they change what a fingerprint is."""
        before = self.scan_options()
        if not self.dialogs.edit(SettingsDialog(self.settings, self)):
            return
        method = options_from_settings(self.settings, 0, 0.0).text.method.name
        if method != before.text.method.name:  # another measure: its own floor
            self.floor_box.blockSignals(True)
            self.floor_box.setValue(100 * FLOORS[method])
            self.floor_box.blockSignals(False)
            self._forget_remembered(self.floor_box)
            self._fit_knobs(method)
        self.apply_settings(before)

    def _fit_knobs(self, method: str) -> None:
        """Turn on the knobs ``method`` uses: k for simhash's, the floor for all but sentences."""
        self.k_box.setEnabled(method in DISTANCES)
        self.k_words.setEnabled(method in DISTANCES)
        self.floor_box.setEnabled(method != "sentences")

    def apply_settings(self, before: ScanOptions) -> None:
        """Regroup (length floor) or rescan (anything else) after the settings changed."""
        after = self.scan_options()
        if self.result is None or self.runner.busy or not self.root:
            return
        needed = self.session.after_settings(before, after)
        if needed == "regroup":
            self.show_result(self.result)
        elif needed == "rescan":
            self.scan_again()

    def scan_again(self) -> None:
        """Scan the folder (or folders) of the result shown again."""
        if self.folders:
            self.start_scan(self.folders if len(self.folders) > 1 else self.folders[0])

    def scan_several(self) -> None:
        """Ask for several folders and scan them together: copies across them share groups."""

        def add() -> tuple[str, object] | None:
            folder = self.dialogs.folder(self.tr("Add a folder to the scan"), self.root or "")
            return (display_path(folder), folder) if folder else None

        dialog = ListDialog(
            self.tr("Scan several folders"),
            self.tr("The files of all these folders are compared with one another."),
            [(display_path(f), f) for f in self.folders],
            self,
            add=add,
        )
        if self.dialogs.edit(dialog) and dialog.values():
            folders = [str(folder) for folder in dialog.values()]
            self.start_scan(folders if len(folders) > 1 else folders[0])

    def start_scan(self, folder: str | list[str], library: str | None = None) -> None:
        """Scan ``folder`` (or several, together) in the background.

        One folder may be checked against ``library``; a rescan of a folder checked against a
        library checks it again.
        """
        if self.runner.busy:
            return
        folders = [folder] if isinstance(folder, str) else list(folder)
        for one in folders:
            if not os.path.isdir(one):
                self.dialogs.warn(self.tr("Not a folder: {0}").format(one))
                return
        if isinstance(folder, list):
            library = None
            self.root = os.path.commonpath([os.path.abspath(f) for f in folders])
        else:
            if library is None and self.root == folder and self.result is not None:
                library = self.result.library or None  # "Scan again" keeps the library
            self.root = folder
            self.settings.setValue("last_folder", folder)
            self._remember(folder)
        self.folders = folders
        options = self.scan_options()
        task: CallTask
        if library:
            opened = Library.open(library)  # checked by the caller
            # a library keeps simhash fingerprints: another method's floor is not its measure
            default = options.text.method.name == "default"
            floor = options.min_similarity if default else FLOORS["default"]

            def work(progress: Callable[[ProgressEvent], None], cancel: CancelToken) -> object:
                wanted = replace(options, text=opened.settings, min_similarity=floor)
                return check_folder(opened, folder, wanted, progress=progress, cancel=cancel)

            task = CallTask(work, f"checking {folder} against {library}")
        else:
            task = ScanTask(folder, options, workers=self.runner.workers)
        task.signals.progress.connect(self._progress)
        task.signals.succeeded.connect(self._scan_done)
        task.signals.failed.connect(self._scan_failed)
        self._scan_started = time.monotonic()
        self.progress.setRange(0, 0)
        self.progress.show()
        self.status.setText(self.tr("Scanning {0}…").format(", ".join(map(display_path, folders))))
        self.runner.start(task)
        self._update_actions()

    def _progress(self, event: ProgressEvent) -> None:
        stages = {
            "walking": self.tr("Finding files"),
            "preparing": self.tr("Preparing"),
            "compiling": self.tr("Preparing fast kernels, once on this machine (about 15 s)"),
            "fingerprinting": self.tr("Reading"),
            "indexing": self.tr("Indexing"),
            "grouping": self.tr("Grouping"),
            "done": self.tr("Done"),
        }
        stage = stages.get(event.stage, event.stage)
        if event.stage == "fingerprinting" and event.total:
            self.progress.setRange(0, event.total)
            self.progress.setValue(event.done)
            elapsed = max(time.monotonic() - self._scan_started, 1e-6)
            rate = event.done / elapsed
            eta = (event.total - event.done) / rate if rate else 0
            name = os.path.basename(event.current)
            self.status.setText(
                self.tr(
                    "{0}: {1} of {2} files · {3:.0f} files/s · about {4:.0f} s left · {5}"
                ).format(stage, event.done, event.total, rate, eta, name)
            )
        else:
            self.status.setText(f"{stage}…")

    def _scan_done(self, result: ScanResult) -> None:
        self.progress.hide()
        self.show_result(result)
        QTimer.singleShot(KERNELS_AFTER_MS, self, lambda: self._load_kernels_if_worth_it(result))

    def _load_kernels_if_worth_it(self, result: ScanResult) -> None:
        """After a scan too large for the plain kernels, load the compiled ones elsewhere.

        The GUI thread's comparing and regrouping then run compiled (a knob turned over a
        700-file result: 0.3 s against 0.15 s) and it never waits for numba itself. Only when
        compiled code is on disk: loading it takes half a second, compiling would take seconds.
        Not at once: the result's first showing would share the interpreter with the loading.
        """
        size = sum(record.size for record in result.files)
        if self._kernels_loading or reads_plain(size, compiled=True) or not kernels_compiled():
            return
        self._kernels_loading = True
        settings = result.options.text
        task = CallTask(lambda progress, cancel: warm_up(settings), "loading the kernels")
        self._in_background(self.background_pool, task)

    def _scan_failed(self, message: str) -> None:
        self.progress.hide()
        self.status.setText(self.tr("Scan failed: {0}").format(message))
        self.dialogs.warn(
            self.tr("{0}\n\nThe details are in the log: {1}").format(message, log_path())
        )

    def show_result(self, result: ScanResult) -> None:
        """Show a scan's groups and problems (regrouped first, off the GUI thread if large)."""
        wanted = self.scan_options()
        self._regroup_serial += 1
        at_once = len(result.files) <= REGROUP_AT_ONCE and groups_at_once(len(result.files))
        if not at_once and self.session.needs_regroup(result, wanted):
            serial = self._regroup_serial
            task = CallTask(lambda p, c: self.session.regrouped(result, wanted, c), "regrouping")
            task.signals.succeeded.connect(
                lambda done: self._regrouped(serial, done)  # type: ignore[arg-type]
            )
            task.signals.failed.connect(self._scan_failed)
            self.status.setText(self.tr("Regrouping…"))
            self._in_background(self.regroup_pool, task)
            return
        selected = self.selected_member()
        result = self.session.show(result, self.scan_options())
        self.groups.refresh()
        self.problems.set_result(result)
        self.groups_panel.expand()
        self.pages.setCurrentIndex(1)
        total = sum(self.splitter.sizes())
        if total and self.splitter.sizes()[0] < 0.4 * total:  # room for names and measures
            self.splitter.setSizes([int(0.45 * total), total - int(0.45 * total)])
        self.groups_panel.fit_columns(result.options.text.method.name in DISTANCES)
        self.compare.clear()
        self.retranslate()
        self._update_actions()
        # Selecting maps the rows through the filter: a moment for a large result, so it
        # comes as an event of its own (the window repaints between the two).
        file = selected.member.file if selected is not None else None
        QTimer.singleShot(0, lambda: self._select_after_showing(result, file))
        # A result's records live as long as it is shown: Python's collector would go over
        # them all again and again (tenths of a second each for a large one, the window
        # frozen meanwhile). They hold no reference cycles, so they are set aside from it.
        gc.freeze()

    def _select_after_showing(self, result: ScanResult, file: int | None) -> None:
        """Select the file selected before (else the first copy), if the result is still shown."""
        if self.result is not result:
            return
        if file is None or not self.groups_panel.select_file(file):
            self.groups_panel.select_first_copy()
        self._update_actions()

    def _in_background(self, pool: QThreadPool, task: CallTask) -> None:
        """Run ``task`` on ``pool``, held until it finishes."""
        self._background_tasks.add(task)
        task.signals.finished.connect(lambda: self._background_tasks.discard(task))
        pool.start(task)

    def _regrouped(self, serial: int, result: ScanResult) -> None:
        """A background regroup is done: shown unless a newer one superseded it."""
        if serial == self._regroup_serial:
            self.show_result(result)

    def regroup(self) -> None:
        """Regroup the fingerprints in memory at the new threshold (no rescan)."""
        self._update_k_words()
        self.settings.setValue("k", self.k_box.value())
        self.settings.setValue("min_similarity", self.floor_box.value())
        if self.result is not None and not self.runner.busy:
            self.show_result(self.result)

    def _show_summary(self) -> None:
        result = self.result
        if result is None or self.runner.busy:
            return
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
        self.status.setText(text)

    def _show_marked(self) -> None:
        """The marked files' count and size, beside the status."""
        marked = self.groups.marked_files() if self.result is not None else []
        size = sum(self.result.files[n].size for n in marked) if marked else 0
        self.marked_label.setText(
            self.tr("{0} marked ({1})").format(len(marked), human_size(size)) if marked else ""
        )

    def _update_actions(self) -> None:
        busy = self.runner.busy
        has_result, has_folder = self.result is not None, self.root is not None
        self.commands.set_state(busy=busy, has_result=has_result, has_folder=has_folder)
        self.start_page.set_busy(busy)
        if not busy:
            self.progress.hide()
            self._show_summary()

    def _remember(self, folder: str) -> None:
        recent = [f for f in self._recent() if f != folder]
        self.settings.setValue("recent", [folder, *recent][:RECENT_LIMIT])
        self._fill_recent()

    def _recent(self) -> list[str]:
        value = self.settings.value("recent", [])
        return [value] if isinstance(value, str) else list(value or [])

    def _fill_recent(self) -> None:
        self.start_page.show_recent(self._recent())

    # --- compare -------------------------------------------------------------------------------
    def selected_member(self) -> MemberInfo | None:
        """The member row that is current in the groups view."""
        return self.groups_panel.selected_member()

    def _current_changed(self) -> None:
        info = self.selected_member()
        if info is None or self.result is None:
            return
        left, right = self.session.compare_pair(info.member.file)
        reference, other = self.result.files[left], self.result.files[right]
        likeness = partial(self.result.likeness, left, right)
        if self.loader.request(reference, other, self.result.options, likeness):
            self.compare.show_pending(display_path(reference.path), display_path(other.path))

    def _show_compared(
        self, left: Document, right: Document, problems: tuple[str, str], found: Compared
    ) -> None:
        """Show a pair the loader made (texts a file could not give say why)."""
        shown = []
        for (title, text, fingerprint), problem in zip((left, right), problems, strict=True):
            if problem:
                text = self.tr("(cannot show this file: {0})").format(problem)
            shown.append((title, text, fingerprint))
        clean = not any(problems)
        method = self.result.options.text.method.name if self.result else "default"
        self.compare.show_pair(
            shown[0],
            shown[1],
            found.similarity,
            found.hunks if clean else None,
            found.explained if clean else None,
            method="" if method in DISTANCES else method,
        )

    # --- acting on files -------------------------------------------------------------------------
    def toggle_mark(self) -> None:
        """Mark the current member for trash or move, or unmark it (never a reference)."""
        info = self.selected_member()
        if info is not None and not info.is_reference:
            marked = info.member.file in set(self.groups.marked_files())
            self.groups.set_marked(info.member.file, not marked)

    def trash_marked(self) -> None:
        """Send the marked files to the system trash, after a confirmation."""
        self._act(move=False)

    def move_marked(self) -> None:
        """Move the marked files to a folder, keeping their paths relative to the scan."""
        self._act(move=True)

    def _act(self, *, move: bool) -> None:
        """Ask, then act in the background: each file is re-checked (its text read again)."""
        if self.runner.busy:
            return
        action = self.session.ask_to_act(self, move=move)
        if action is None:
            return
        task = CallTask(lambda progress, cancel: action.run(), "acting on the marked files")
        task.signals.succeeded.connect(
            lambda done: self._report_actions(list(done.outcomes), done.manifest)  # type: ignore[attr-defined]
        )
        task.signals.failed.connect(self._action_failed)
        acting = (self.tr("Acting on {0} file…"), self.tr("Acting on {0} files…"))
        self.status.setText(counted(len(action.seen), *acting))
        self.progress.setRange(0, 0)
        self.progress.show()
        self.runner.start(task)
        self._update_actions()

    def _action_failed(self, message: str) -> None:
        self.progress.hide()
        self.status.setText(message)
        self.dialogs.warn(self.tr("Nothing was done: {0}").format(message))

    def _report_actions(self, outcomes: list[ActionOutcome], manifest: Path) -> None:
        self.progress.hide()
        done = sum(o.action in ("moved", "trashed") for o in outcomes)
        skipped = [o for o in outcomes if o.action == "skipped"]
        failed = [o for o in outcomes if o.action == "failed"]
        text = self.tr("Done with {0} of {1}; {2} skipped, {3} failed. Manifest: {4}").format(
            done, self.files_text(len(outcomes)), len(skipped), len(failed), manifest
        )
        if skipped or failed:
            text += "\n\n" + "\n".join(
                f"{display_path(o.path)}: {o.error}" for o in (skipped + failed)[:20]
            )
        self.last_manifest = manifest
        self.status.setText(text.splitlines()[0])
        self.dialogs.inform(text)
        if self.root:
            self.runner.when_idle(self.scan_again)  # the action's task is still let go

    # --- the library ----------------------------------------------------------------------------
    def _choose_library(self, *, existing: bool, current: bool = False) -> str | None:
        """Ask for a library folder; an existing one must open (or the person is told why).

        A ``current`` one must also hold the fingerprints this simdup makes.
        """
        start = str(self.settings.value("library", str(Path.home())))
        title = (
            self.tr("Choose a library")
            if existing
            else self.tr("Choose a library (an empty folder makes a new one)")
        )
        folder = self.dialogs.folder(title, start)
        if not folder:
            return None
        if existing:
            try:
                opened = Library.open(folder)
                if current:
                    opened.refuse_if_stale()
            except LibraryError as exc:
                self.dialogs.warn(str(exc))
                return None
        self.settings.setValue("library", folder)
        return folder

    def check_against_library(self) -> None:
        """Check a folder of new articles against a library.

        Each group's reference is the library's copy, which is never marked, moved or trashed.
        """
        library = self._choose_library(existing=True, current=True)
        if library is None:
            return
        start = str(self.settings.value("last_folder", str(Path.home())))
        folder = self.dialogs.folder(self.tr("Choose a folder of new articles"), start)
        if folder:
            self.start_scan(folder, library)

    def add_to_library(self) -> None:
        """Add a folder of articles to a library (made if new), in the background."""
        if self.runner.busy:
            return
        library = self._choose_library(existing=False)
        if library is None:
            return
        start = str(self.settings.value("last_folder", str(Path.home())))
        folder = self.dialogs.folder(self.tr("Choose a folder of articles to add"), start)
        if not folder:
            return
        problem = output_problem(library, [folder], folder=True)
        if problem:
            self.dialogs.warn(problem)
            return
        options = self.scan_options()

        def work(progress: Callable[[ProgressEvent], None], cancel: CancelToken) -> object:
            text = (
                Library.open(library).settings
                if os.path.isfile(os.path.join(library, "library.json"))
                else replace(options.text, method=Method())  # a library keeps simhash's
            )
            wanted = replace(options, text=text)
            return add_folders(library, [folder], wanted, progress=progress, cancel=cancel)

        task = CallTask(work, f"adding {folder} to {library}")
        task.signals.progress.connect(self._progress)
        task.signals.succeeded.connect(self._library_added)
        task.signals.failed.connect(self._scan_failed)
        self.progress.setRange(0, 0)
        self.progress.show()
        self._scan_started = time.monotonic()
        self.runner.start(task)
        self._update_actions()

    def _library_added(self, added: Added) -> None:
        self.progress.hide()
        if added.cancelled:
            text = self.tr("Cancelled: the library is as it was.")
        else:
            text = self.tr("{0} new, {1} changed, {2} unchanged, {3} gone, {4} unreadable").format(
                added.new,
                added.changed,
                added.unchanged,
                len(added.vanished),
                len(added.unreadable),
            )
        self.status.setText(text)
        self.dialogs.inform(text)

    def show_library_stats(self) -> None:
        """Show what a library holds, with its pairs by distance."""
        library = self._choose_library(existing=True)
        if library is None:
            return
        stats = library_stats(Library.open(library))
        self.dialogs.edit(LibraryStatsDialog(library, stats, self))

    # --- the session's questions (core.session.Questions) ------------------------------------
    def nothing_marked(self) -> None:
        """Say that no file is marked."""
        self.dialogs.inform(self.tr("No files are marked."))

    def destination(self) -> str | None:
        """Ask where to move the marked files; remember the answer for next time."""
        start = str(self.settings.value("move_folder", str(Path.home())))
        folder = self.dialogs.folder(self.tr("Move marked files to"), start)
        if folder:
            self.settings.setValue("move_folder", folder)
        return folder

    def files_text(self, number: int) -> str:
        """``1 file``, ``2 files``, in the language in use."""
        return counted(number, self.tr("{0} file"), self.tr("{0} files"))

    def groups_text(self, number: int) -> str:
        """``1 group``, ``2 groups``, in the language in use."""
        return counted(number, self.tr("{0} group"), self.tr("{0} groups"))

    def refuse(self, problem: str) -> None:
        """Say why it cannot be done."""
        self.dialogs.warn(self.tr("Nothing was done: {0}").format(problem))

    def confirm(self, plan: Plan) -> bool:
        """Ask before acting, naming the groups, files and bytes, listing the files; No first."""
        counts = self.tr("{0} from {1} ({2})").format(
            self.files_text(plan.files),
            self.groups_text(plan.groups),
            human_size(plan.size),
        )
        if plan.destination is None:
            question = self.tr("Send {0} to the trash?").format(counts)
        else:
            question = self.tr("Move {0} to {1}?").format(counts, plan.destination)
        return self.dialogs.confirm(question, [display_path(p) for p in plan.paths])

    def sort_groups(self, column: int, order: Qt.SortOrder) -> None:
        """Sort groups (and members within them) by a column; references stay first."""
        self.groups.sort(column, order)
        self.groups_panel.expand()

    def make_reference(self) -> None:
        """Make the current member its group's reference (the copy to keep)."""
        info = self.selected_member()
        if info is not None and self.groups.make_reference(info.member.file):
            self.groups_panel.expand()
            self.groups_panel.select_file(info.member.file)
            self._current_changed()

    def keep_apart(self) -> None:
        """The current member is not a duplicate of its reference: it leaves the group for good."""
        info = self.selected_member()
        if info is None or self.result is None or not self.session.keep_apart(info.member.file):
            return
        not_duplicates.save(self.session.not_duplicates)
        self.show_result(self.result)

    def reprioritize(self, rule: str) -> None:
        """Keep the member a rule prefers in every group (see ``Session.reprioritize``)."""
        info = self.selected_member()
        folder = os.path.dirname(info.record.path) if info is not None else ""
        self.groups.beginResetModel()
        changed = self.session.reprioritize(rule, folder)
        self.groups.endResetModel()
        self.groups.marks_changed.emit()
        self.groups_panel.expand()
        if info is not None:
            self.groups_panel.select_file(info.member.file)
        self.status.setText(
            counted(
                changed,
                self.tr("{0} group keeps another file now"),
                self.tr("{0} groups keep another file now"),
            )
        )

    def remove_from_results(self) -> None:
        """Take the current member out of what is shown (the file itself is not touched)."""
        info = self.selected_member()
        if info is None:
            return
        self.groups.beginResetModel()
        changed = self.session.remove_from_results(info.member.file)
        self.groups.endResetModel()
        if changed:
            self.groups.marks_changed.emit()
            self.groups_panel.expand()
            method = self.result.options.text.method.name if self.result else "default"
            self.groups_panel.fit_columns(method in DISTANCES)
            self._show_summary()

    def undo_last_action(self) -> None:
        """Put back what the last move or trash of this session did (its manifest says what)."""
        if self.last_manifest is None:
            self.dialogs.inform(self.tr("Nothing was moved or trashed yet."))
            return
        self._put_back(str(self.last_manifest))

    def restore_manifest(self) -> None:
        """Put back what a manifest records (a move or a trash), after choosing it."""
        start = str(self.last_manifest.parent if self.last_manifest else Path.home())
        path = self.dialogs.open_path(self.tr("Restore from a manifest"), start, "CSV (*.csv)")
        if path:
            self._put_back(path)

    def _put_back(self, path: str) -> None:
        try:
            outcomes = restore(path)
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            self.dialogs.warn(str(exc))
            return
        done = sum(o.action == "restored" for o in outcomes)
        problems = [o for o in outcomes if o.action != "restored"]
        text = self.tr("Restored {0} of {1}.").format(done, self.files_text(len(outcomes)))
        if problems:
            text += "\n\n" + "\n".join(f"{display_path(o.path)}: {o.error}" for o in problems[:20])
        self.dialogs.inform(text)
        if self.root and done:
            self.scan_again()

    def edit_not_duplicates(self) -> None:
        """List the pairs said to be not duplicates; those removed may share a group again."""
        rows = [(" ↔ ".join(map(display_path, p)), p) for p in sorted(self.session.not_duplicates)]
        dialog = ListDialog(
            self.tr("Not duplicates"),
            self.tr(
                "You said these files are not duplicates of each other: they never share a group."
                " Remove a pair to let its files be grouped again."
            ),
            rows,
            self,
        )
        if not self.dialogs.edit(dialog):
            return
        kept = {pair for pair in dialog.values() if isinstance(pair, tuple)}
        if kept == self.session.not_duplicates:
            return
        self.session.not_duplicates.intersection_update(kept)
        not_duplicates.save(self.session.not_duplicates)
        if self.result is not None:
            self.show_result(self.result)

    def edit_reference_folders(self) -> None:
        """Choose the folders whose files are never marked, moved or trashed (a regroup)."""
        text = self.tr(
            "Files in these folders (inside the folder you scan) are never marked, moved or"
            " trashed, and a group's reference comes from them when it has one."
        )
        title, choose = self.tr("Reference folders"), self.tr("Choose a reference folder")
        if self._edit_folders("reference_folders", title, text, choose) and self.result:
            self.show_result(self.result)

    def edit_excluded_folders(self) -> None:
        """Choose the folders a scan leaves out (a rescan)."""
        before = self.scan_options()
        text = self.tr(
            "These folders (inside the folder you scan) and what they hold are not read."
        )
        title, choose = self.tr("Excluded folders"), self.tr("Choose a folder to leave out")
        if self._edit_folders("excluded_folders", title, text, choose):
            self.apply_settings(before)

    def _edit_folders(self, key: str, title: str, text: str, choose: str) -> bool:
        """Edit a list of folders kept in the settings; whether it was changed."""

        def add() -> tuple[str, object] | None:
            folder = self.dialogs.folder(choose, self.root or "")
            return (display_path(folder), folder) if folder else None

        folders = folder_list(self.settings, key)
        rows = [(display_path(folder), folder) for folder in folders]
        dialog = ListDialog(title, text, rows, self, add=add)
        if not self.dialogs.edit(dialog):
            return False
        chosen = [str(folder) for folder in dialog.values()]
        set_folder_list(self.settings, key, chosen)
        return chosen != folders

    def mark_where(self, rule: str) -> None:
        """Mark the copies a rule picks: in the current file's folder, by path, older, smaller."""
        value = ""
        if rule == "folder":
            info = self.selected_member()
            if info is None:
                return
            value = os.path.dirname(info.record.path)
        elif rule == "path":
            value = self.dialogs.text(
                self.tr("Mark copies"), self.tr("Mark the copies whose path contains:")
            )
            if not value:
                return
        count = self.groups.mark_where(rule, value)
        self.status.setText(self.tr("{0} more copies marked").format(count))

    def copy_marked(self) -> None:
        """Copy the marked files to a folder (the originals stay where they are)."""
        if not self.session.marked:
            self.nothing_marked()
            return
        destination = self.dialogs.folder(self.tr("Copy the marked files to"), "")
        if not destination:
            return
        problem = output_problem(destination, [self.root or ""], folder=True)
        if problem:
            self.refuse(problem)
            return
        outcomes = self.session.copy_marked(destination)
        failed = [o for o in outcomes if o.action == "failed"]
        text = self.tr("Copied {0} of {1} to {2}.").format(
            len(outcomes) - len(failed), self.files_text(len(outcomes)), destination
        )
        if failed:
            text += "\n\n" + "\n".join(f"{display_path(o.path)}: {o.error}" for o in failed[:20])
        self.status.setText(text.splitlines()[0])
        self.dialogs.inform(text)

    def pin_for_compare(self) -> None:
        """Compare every selection with the current file instead of with its reference."""
        info = self.selected_member()
        self.session.pinned = info.member.file if info is not None else None

    def unpin(self) -> None:
        """Compare selections with their reference again."""
        self.session.pinned = None
        self._current_changed()

    def open_selected(self) -> None:
        """Open the current member in the system's editor (or its folder, if Qt cannot name it)."""
        info = self.selected_member()
        if info is None:
            return
        if display_path(info.record.path) != info.record.path:  # Qt has no name for such bytes
            self.status.setText(self.tr("The file name is not valid UTF-8: showing its folder."))
            self.reveal_selected()
            return
        self.dialogs.open_url(QUrl.fromLocalFile(info.record.path))

    def reveal_selected(self) -> None:
        """Open the folder holding the current member."""
        info = self.selected_member()
        if info is not None:
            self.dialogs.open_url(QUrl.fromLocalFile(os.path.dirname(info.record.path)))

    def save_results(self) -> None:
        """Ask where, then save the result shown (with its references and removals)."""
        title = self.tr("Save the results")
        self._export(
            title, "results" + SUFFIX, self.tr("simdup results") + f" (*{SUFFIX})", save_result
        )

    def open_results(self) -> None:
        """Open saved results: shown at the thresholds they were saved with, no scan."""
        start = str(self.settings.value("export_folder", str(Path.home())))
        kinds = self.tr("simdup results") + f" (*{SUFFIX})"
        path = self.dialogs.open_path(self.tr("Open saved results"), start, kinds)
        if not path:
            return
        try:
            result = load_result(path)
        except SavedResultError as exc:
            self.dialogs.warn(str(exc))
            return
        for box, value in (
            (self.k_box, result.options.k),
            (self.floor_box, 100 * result.options.min_similarity),
        ):
            box.blockSignals(True)
            box.setValue(value)
            box.blockSignals(False)
            self._remembered[box] = False  # the saved result's, not the last session's
        self._fit_knobs(result.options.text.method.name)
        self.root = result.root
        self.folders = list(result.roots) or [result.root]
        self.show_result(result)
        self.status.setText(self.tr("Opened {0}").format(path))

    def export_csv(self) -> None:
        """Ask where, then write the CSV report through the engine's writer."""
        title = self.tr("Export CSV report")
        self._export(title, "simdup-report.csv", "CSV (*.csv)", write_report)

    def export_html(self) -> None:
        """Ask where, then write the HTML report."""
        title = self.tr("Export HTML report")
        self._export(title, "simdup-report.html", "HTML (*.html)", write_html_report)

    def _export(
        self, title: str, name: str, kinds: str, write: Callable[[ScanResult, str], object]
    ) -> None:
        """Ask where, then write off the GUI thread (the HTML report reads texts again)."""
        if self.result is None:
            return
        start = str(self.settings.value("export_folder", str(Path.home())))
        destination = self.dialogs.save_path(title, os.path.join(start, name), kinds)
        if not destination:
            return
        problem = output_problem(destination, [self.result.root])
        if problem:
            self.dialogs.warn(problem)
            return
        result = self.result

        def work(progress: object, cancel: object) -> str:
            try:
                write(result, destination)
            except OSError as exc:
                raise OSError(f"{destination}: {exc.strerror or exc}") from exc
            return destination

        task = CallTask(work, f"writing {destination}")
        task.signals.succeeded.connect(self._exported)  # type: ignore[arg-type]
        task.signals.failed.connect(self._export_failed)
        self.status.setText(self.tr("Writing {0}…").format(destination))
        self._in_background(self.background_pool, task)

    def _exported(self, destination: str) -> None:
        self.settings.setValue("export_folder", os.path.dirname(os.path.abspath(destination)))
        self.status.setText(self.tr("Report written to {0}").format(destination))

    def _export_failed(self, message: str) -> None:
        self.status.setText(message)
        self.dialogs.warn(message)

    # --- drag and drop ------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept a dragged folder."""
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and os.path.isdir(urls[0].toLocalFile()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """Scan a dropped folder."""
        self.start_scan(event.mimeData().urls()[0].toLocalFile())
