"""The main window: choose a folder, scan, review groups side by side, act, export.

The window shows the session (``core/session.py``: the result, marks, references) and builds
the views; each family of commands has a helper of its own, which the window's commands call:
``scans`` (scans, settings, rescans), ``member_actions`` (the result shown), ``file_actions``
(trash, move, copy, undo, restore), ``result_files`` (reports, saved results),
``library_actions`` and ``folder_lists``; the reuse view (查重) is ``reuse_panel``. The
status bar is ``status`` (:class:`StatusLine`), the thresholds ``knobs`` (:class:`ThresholdBar`).
Each helper is given the parts it uses and the window as a :class:`ResultView`; what a scan is
and what a choice decides are the core's (``core/scanning.py``, ``core/session.py``).
"""

from __future__ import annotations

import gc
import os
from functools import partial

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QMainWindow, QSplitter, QStackedWidget, QTabWidget, QToolBar

from simdup_gui.core.session import Session
from simdup_gui.engine.kernels import groups_at_once
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.resources import resource
from simdup_gui.engine.results import ScanResult
from simdup_gui.ui.commands import Commands
from simdup_gui.ui.compare import CompareView
from simdup_gui.ui.comparing import Compared, CompareLoader, Document
from simdup_gui.ui.dialogs import Dialogs
from simdup_gui.ui.file_actions import FileActions
from simdup_gui.ui.folder_lists import FolderLists
from simdup_gui.ui.groups_filter import GroupsFilter
from simdup_gui.ui.groups_panel import GroupsPanel
from simdup_gui.ui.i18n import counted, install_language
from simdup_gui.ui.library_actions import LibraryActions
from simdup_gui.ui.member_actions import MemberActions
from simdup_gui.ui.models import GroupsModel, MemberInfo, ProblemsModel
from simdup_gui.ui.result_files import ResultFiles
from simdup_gui.ui.reuse_panel import ReusePanel
from simdup_gui.ui.scans import Scans
from simdup_gui.ui.settings_dialog import options_from_settings
from simdup_gui.ui.start_page import StartPage
from simdup_gui.ui.status_line import StatusLine
from simdup_gui.ui.tasks import Background, CallTask, TaskRunner
from simdup_gui.ui.threshold_bar import ThresholdBar

REGROUP_AT_ONCE = 20_000  # results with more files are regrouped off the GUI thread
BACKGROUND_WAIT_MS = 30_000  # a report written in the background may take this long to finish


class MainWindow(QMainWindow):
    """The app's main window."""

    def __init__(self, settings: QSettings | None = None, dialogs: Dialogs | None = None) -> None:
        """The window on ``settings``; its questions asked through ``dialogs`` (boxes on it)."""
        super().__init__()
        self.settings = settings or QSettings("simdup", "simdup")
        self.dialogs = dialogs or Dialogs(self)  # every question asked through one interface
        self.runner = TaskRunner(self)
        self.runner.started.connect(self._started)
        self.runner.idle.connect(self._update_actions)
        self.background = Background(self)  # reports written, kernels loaded
        self.regrouping = Background(self)  # regroups of large results, off the GUI thread
        self._regroup_serial = 0
        # the app's state and decisions (this window shows them), with the pairs said apart
        self.session = Session()
        damaged = self.session.read_not_duplicates()  # said below, once the status bar is built
        self.groups = GroupsModel(self.session, self)
        self.groups_view_model = GroupsFilter(self)
        self.groups_view_model.setSourceModel(self.groups)
        self.problems = ProblemsModel(self)
        self._build()
        self._restore()
        self.retranslate()
        self.setAcceptDrops(True)
        if damaged:
            self.status.say(self.tr("Not-duplicates list not used: {0}").format(damaged))

    @property
    def root(self) -> str | None:
        """The folder scanned (the session's)."""
        return self.session.root

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
        self.toolbar.addActions([c.choose, c.sample, c.rescan, c.cancel])
        self.toolbar.addSeparator()
        self.toolbar.addActions([c.mark_copies, c.clear_marks, c.trash, c.move, c.export])
        self.addToolBarBreak()  # the knobs on a row of their own: every command fits 1024 px
        self.knobs = ThresholdBar(self.settings, self)
        self.knobs.changed.connect(self.regroup)
        self.addToolBar(self.knobs)
        self.knobs.fit(options_from_settings(self.settings, 0, 0.0).method)
        self.knobs.addAction(c.settings)
        c.fill_menus(self.menuBar())
        self.status = StatusLine(self.statusBar())

        self.start_page = StartPage()
        self.groups_panel = GroupsPanel(self.groups_view_model, self.problems)
        self.groups_panel.member_changed.connect(self.compare_current)
        self.groups_panel.tree.header().sortIndicatorChanged.connect(self.sort_groups)
        self.groups_panel.set_member_actions(c.on_member)
        self.compare = CompareView()
        self.loader = CompareLoader(self)  # texts and differences, off the GUI thread if long
        self.loader.ready.connect(self._show_compared)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("main-splitter")
        self.splitter.addWidget(self.groups_panel)
        self.splitter.addWidget(self.compare)
        self.splitter.setSizes([560, 720])
        self.reuse_panel = ReusePanel(
            self.runner.run, self.runner.when_idle, self.status.show_progress, self.dialogs.warn
        )
        self.views = QTabWidget()  # the groups of copies; the passages copied (查重)
        self.views.setObjectName("views")
        self.views.setDocumentMode(True)
        self.views.addTab(self.splitter, "")
        self.views.addTab(self.reuse_panel, "")

        self.pages = QStackedWidget()
        self.pages.addWidget(self.start_page)
        self.pages.addWidget(self.views)
        self.setCentralWidget(self.pages)
        self.start_page.choose.setFocus()  # not the first knob: a stray key turns no threshold
        self.groups.marks_changed.connect(self._show_marked)
        self._build_helpers()
        self._update_actions()

    def _build_helpers(self) -> None:
        """The helpers of each family of commands, each given the parts it uses."""
        session, settings, dialogs, status = self.session, self.settings, self.dialogs, self.status
        runner, c = self.runner, self.commands
        scans = self.scans = Scans(
            session, settings, dialogs, self.knobs, status, runner, self.background, self
        )
        files = self.file_actions = FileActions(
            session, settings, dialogs, status, runner, scans.again
        )
        members = self.member_actions = MemberActions(
            session, self.groups, self.groups_panel, dialogs, status, self
        )
        self.result_files = ResultFiles(session, settings, dialogs, status, self.background, self)
        self.folder_lists = FolderLists(session, settings, dialogs, scans, self)
        self.library_actions = LibraryActions(settings, dialogs, status, runner, scans)
        scans.recent_changed.connect(self.start_page.show_recent)
        self.start_page.choose_requested.connect(scans.choose)
        self.start_page.sample_requested.connect(c.sample.trigger)
        self.start_page.library_requested.connect(c.library_check.trigger)
        self.start_page.folder_chosen.connect(scans.start)
        self.groups_panel.member_opened.connect(members.open_selected)
        self.reuse_panel.export_wanted.connect(
            lambda kind: self.result_files.export_reuse(self.reuse_panel.reuse, kind)
        )
        c.choose.triggered.connect(scans.choose)
        c.sample.triggered.connect(lambda: scans.start(str(resource("sample"))))
        c.rescan.triggered.connect(scans.again)
        c.settings.triggered.connect(scans.edit_settings)
        c.cancel.triggered.connect(runner.cancel)
        c.mark_copies.triggered.connect(self.groups.mark_all_but_references)
        c.clear_marks.triggered.connect(self.groups.clear_marks)
        c.invert_marks.triggered.connect(self.groups.invert_marks)
        for rule, action in c.mark_rules.items():
            action.triggered.connect(lambda _=False, rule=rule: members.mark_where(rule))
        for rule, action in c.keep_rules.items():
            action.triggered.connect(lambda _=False, rule=rule: members.reprioritize(rule))
        c.toggle_mark.triggered.connect(members.toggle_mark)
        c.make_reference.triggered.connect(members.make_reference)
        c.keep_apart.triggered.connect(members.keep_apart)
        c.remove_from_results.triggered.connect(members.remove_from_results)
        c.pin.triggered.connect(members.pin_for_compare)
        c.unpin.triggered.connect(members.unpin)
        c.open.triggered.connect(members.open_selected)
        c.reveal.triggered.connect(members.reveal_selected)
        c.trash.triggered.connect(files.trash_marked)
        c.move.triggered.connect(files.move_marked)
        c.copy_marked.triggered.connect(files.copy_marked)
        c.undo_last.triggered.connect(files.undo_last_action)
        c.restore.triggered.connect(files.restore_manifest)
        c.export.triggered.connect(self.result_files.export_csv)
        c.export_html.triggered.connect(self.result_files.export_html)
        c.save_results.triggered.connect(self.result_files.save)
        c.open_results.triggered.connect(self.result_files.open_saved)
        c.library_check.triggered.connect(self.library_actions.check)
        c.library_check_article.triggered.connect(self.library_actions.check_article)
        c.library_add.triggered.connect(self.library_actions.add)
        c.library_stats.triggered.connect(self.library_actions.show_stats)
        c.scan_several.triggered.connect(self.folder_lists.scan_several)
        c.not_duplicates.triggered.connect(self.folder_lists.edit_not_duplicates)
        c.reference_folders.triggered.connect(self.folder_lists.edit_reference_folders)
        c.excluded_folders.triggered.connect(self.folder_lists.edit_excluded_folders)
        c.english.triggered.connect(lambda: self.set_language("en"))
        c.chinese.triggered.connect(lambda: self.set_language("zh_CN"))
        c.quit.triggered.connect(self.close)

    def _restore(self) -> None:
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        else:  # 1280 × 800, or the screen where it is smaller (a laptop's 1024 × 700)
            room = self.screen().availableGeometry()
            self.resize(min(1280, room.width()), min(800, room.height()))
        splitter = self.settings.value("splitter")
        if isinstance(splitter, QByteArray):
            self.splitter.restoreState(splitter)
        self.start_page.show_recent(self.scans.recent())

    def closeEvent(self, event: QCloseEvent) -> None:
        """Ask before marks are lost; stop the scan, let a report finish, remember the window."""
        if self.session.unsaved_marks:
            marked = len(self.session.marked)
            question = counted(
                marked,
                self.tr("{0} file is marked and the marks are not saved. Quit anyway?"),
                self.tr("{0} files are marked and the marks are not saved. Quit anyway?"),
            )
            if not self.dialogs.confirm(question, []):
                event.ignore()
                return
        self.runner.shutdown()
        self.background.wait(BACKGROUND_WAIT_MS)
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("splitter", self.splitter.saveState())
        self.knobs.keep()
        super().closeEvent(event)

    # --- language ----------------------------------------------------------------------------
    def set_language(self, language: str) -> None:
        """Switch the UI language now and for next time."""
        install_language(language)
        self.settings.setValue("language", language)
        self.retranslate()

    def retranslate(self) -> None:
        """Set every translatable text (called again after a language switch)."""
        named = self.tr("simdup — near-duplicate articles")
        if self.root is not None:  # the folder shown, as every document window names its file
            named = f"{os.path.basename(self.root.rstrip(os.sep)) or self.root} — {named}"
        self.setWindowTitle(named)
        self.commands.retranslate()
        self.knobs.retranslate()
        self.start_page.retranslate()
        self.groups_panel.retranslate()
        self.compare.retranslate()
        self.reuse_panel.retranslate()
        self.views.setTabText(0, self.tr("Duplicate groups"))
        self.views.setTabText(1, self.tr("Copied passages (reuse)"))
        self.show_summary()
        self._show_marked()

    def _started(self, text: str) -> None:
        """A task the window waits for started (a scan, an action): busy, with a progress bar."""
        self.status.busy(text)
        self._update_actions()

    def show_result(self, result: ScanResult) -> None:
        """Show a scan's groups and problems (regrouped first, off the GUI thread if large)."""
        wanted = self.scans.options().group
        self._regroup_serial += 1
        at_once = len(result.files) <= REGROUP_AT_ONCE and groups_at_once(len(result.files))
        if not at_once and self.session.needs_regroup(result, wanted):
            serial = self._regroup_serial
            task = CallTask(lambda p, c: self.session.regrouped(result, wanted, c), "regrouping")
            task.signals.succeeded.connect(
                lambda done: self._regrouped(serial, done)  # type: ignore[arg-type]
            )
            task.signals.failed.connect(self.scans.failed)
            self.status.say(self.tr("Regrouping…"))
            self.regrouping.start(task)
            return
        selected = self.selected_member()
        place = self.groups_panel.current_place()
        result = self.session.show(result, wanted)
        self.groups.refresh()
        self._show_marked()
        self.problems.set_result(result)
        self.reuse_panel.set_result(result)
        self.groups_panel.expand()
        self.pages.setCurrentIndex(1)
        focused = self.focusWidget()
        if focused is None or not self.knobs.isAncestorOf(focused):  # a knob turned keeps it
            self.groups_panel.tree.setFocus()  # keys move through the groups, not a threshold
        total = sum(self.splitter.sizes())
        if total and self.splitter.sizes()[0] < 0.4 * total:  # room for names and measures
            self.splitter.setSizes([int(0.45 * total), total - int(0.45 * total)])
        self.fit_columns()
        self.compare.clear()
        self.retranslate()
        self._update_actions()
        # Selecting maps the rows through the filter: a moment for a large result, so it
        # comes as an event of its own (the window repaints between the two).
        file = selected.member.file if selected is not None else None
        QTimer.singleShot(0, lambda: self._select_after_showing(result, file, place))
        # A result's records live as long as it is shown: Python's collector would go over
        # them all again and again (tenths of a second each for a large one, the window
        # frozen meanwhile). They hold no reference cycles, so they are set aside from it.
        gc.freeze()

    def fit_columns(self) -> None:
        """Fit the groups' columns to what they show (the distance only for simhash's)."""
        self.groups_panel.fit_columns(self.result is None or self.result.options.method.distances)

    def show_saved(self, result: ScanResult) -> None:
        """Show saved results at the thresholds they were saved with (no scan)."""
        options = result.options
        self.knobs.set_values(k=options.group.k, min_similarity=options.group.min_similarity)
        self.knobs.fit(options.method)
        self.show_result(result)

    def _select_after_showing(
        self, result: ScanResult, file: int | None, place: tuple[int, int]
    ) -> None:
        """Select the file selected before, else the row where it was (else the first copy).

        The list keeps its place: a file taken out or kept apart leaves its neighbour selected.
        """
        if self.result is not result:
            return
        if file is None or not self.groups_panel.select_file(file):
            group, member = place
            if group < 0:
                self.groups_panel.select_first_copy()
            else:
                self.groups_panel.select_near(group, max(member, 1))
        self._update_actions()

    def _regrouped(self, serial: int, result: ScanResult) -> None:
        """A background regroup is done: shown unless a newer one superseded it."""
        if serial == self._regroup_serial:
            self.show_result(result)

    def regroup(self) -> None:
        """Regroup the fingerprints in memory at the new threshold (no rescan)."""
        if self.result is not None and not self.runner.busy:
            self.show_result(self.result)

    def show_summary(self) -> None:
        """The result's figures in the status line, unless a task is running."""
        if self.result is not None and not self.runner.busy:
            self.status.show_summary(self.result)

    def _show_marked(self) -> None:
        """The marked files' count and size, and the lists that apply, beside the status."""
        marked = self.groups.marked_files() if self.result is not None else []
        size = sum(self.result.files[n].size for n in marked) if marked else 0
        self.status.show_marked(len(marked), size, len(self.session.held_marks))
        folders = self.result.options.group.reference_folders if self.result else ()
        self.status.show_applying(len(folders), len(self.session.not_duplicates))

    def _update_actions(self) -> None:
        busy = self.runner.busy
        has_result, has_folder = self.result is not None, self.root is not None
        self.commands.set_state(busy=busy, has_result=has_result, has_folder=has_folder)
        self.start_page.set_busy(busy)
        if not busy:
            self.status.idle()
            self.show_summary()

    # --- compare -------------------------------------------------------------------------------
    def selected_member(self) -> MemberInfo | None:
        """The member row that is current in the groups view."""
        return self.groups_panel.selected_member()

    def compare_current(self) -> None:
        """Compare the current member with its reference (or the pinned file).

        Long texts are read and compared off the GUI thread.
        """
        info = self.selected_member()
        if info is None or self.result is None:
            return
        left, right = self.session.compare_pair(info.member.file)
        reference, other = self.result.files[left], self.result.files[right]
        shown = self.session.similarity_shown(left, right)  # one pair, one figure everywhere
        likeness = (
            partial(self.result.likeness, left, right) if shown is None else partial(float, shown)
        )
        if self.loader.request(reference, other, self.result.options.read, likeness):
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
        method = self.result.options.method if self.result else None
        self.compare.show_pair(
            shown[0],
            shown[1],
            found.similarity,
            found.hunks if clean else None,
            found.explained if clean else None,
            method="" if method is None or method.distances else method.name,
        )

    # --- words and order ------------------------------------------------------------------
    def sort_groups(self, column: int, order: Qt.SortOrder) -> None:
        """Sort groups (and members within them) by a column; references stay first."""
        self.groups.sort(column, order)
        self.groups_panel.expand()

    # --- drag and drop ------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept a dragged folder."""
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and os.path.isdir(urls[0].toLocalFile()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """Scan a dropped folder."""
        self.scans.start(event.mimeData().urls()[0].toLocalFile())
