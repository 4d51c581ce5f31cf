"""Scans started from the window: a folder, several together, or one checked against a library.

Also what a scan is made with (the knobs and the settings) and what a change of them needs: a
regroup of the result shown, or a rescan. What a scan is and how it runs are the core's
(``core/scanning.py``); here folders are asked for and the result is handed to the view.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QTimer, Signal

from simdup_gui.core.scanning import ScanRequest, remembered
from simdup_gui.core.session import Session
from simdup_gui.engine.fingerprint.pipeline import warm_up
from simdup_gui.engine.kernels import kernels_compiled, reads_plain
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.results import ScanResult
from simdup_gui.logs import log_path
from simdup_gui.ui.dialogs import Dialogs
from simdup_gui.ui.result_view import ResultView
from simdup_gui.ui.settings_dialog import SettingsDialog, options_from_settings
from simdup_gui.ui.status_line import StatusLine
from simdup_gui.ui.tasks import Background, CallTask, TaskRunner
from simdup_gui.ui.threshold_bar import ThresholdBar

KERNELS_AFTER_MS = 1000  # the compiled kernels are loaded this long after a large result shows


class Scans(QObject):
    """The window's scans: started, answered, and started again when the settings change."""

    recent_changed = Signal(list)  # the folders scanned last, the latest first

    def __init__(
        self,
        session: Session,
        settings: QSettings,
        dialogs: Dialogs,
        knobs: ThresholdBar,
        status: StatusLine,
        runner: TaskRunner,
        background: Background,
        view: ResultView,
    ) -> None:
        super().__init__(runner)
        self.session, self.settings, self.dialogs, self.knobs = session, settings, dialogs, knobs
        self.status, self.runner, self.background, self.view = status, runner, background, view
        self._kernels_loading = False

    @property
    def folders(self) -> tuple[str, ...]:
        """The folders of the scan shown (several: scanned together)."""
        request = self.session.request
        return request.folders if request else ()

    def choose(self) -> None:
        """Ask for a folder and scan it."""
        folder = self.ask_for_articles(self.tr("Choose a folder of articles"))
        if folder:
            self.start(folder)

    def ask_for_articles(self, title: str) -> str:
        """A folder of articles the person chooses, from the last one scanned ("" if none)."""
        start = str(self.settings.value("last_folder", str(Path.home())))
        return self.dialogs.folder(title, start)

    def options(self) -> ScanOptions:
        """The scan settings chosen in the window and the settings dialog."""
        chosen = options_from_settings(self.settings, self.knobs.k, self.knobs.min_similarity)
        return self.session.options(chosen)

    def edit_settings(self) -> None:
        """Edit the scan settings; rescan when they change what a fingerprint is."""
        before = self.options()
        if not self.dialogs.edit(SettingsDialog(self.settings, self.dialogs.window)):
            return
        method = options_from_settings(self.settings, 0, 0.0).method
        if method.name != before.method.name:  # another measure: its own floor
            self.knobs.set_values(min_similarity=method.floor)
            self.knobs.fit(method)
        self.apply_settings(before)

    def apply_settings(self, before: ScanOptions) -> None:
        """Regroup (length floor) or rescan (anything else) after the settings changed."""
        result = self.session.result
        if result is None or self.runner.busy or not self.session.root:
            return
        needed = self.session.after_settings(before, self.options())
        if needed == "regroup":
            self.view.show_result(result)
        elif needed == "rescan":
            self.again()

    def again(self) -> None:
        """Scan the folder (or folders) of the result shown again (against its library, if any)."""
        if self.session.request is not None:
            self.scan(self.session.request)

    def start(self, folder: str | list[str], library: str = "") -> None:
        """Scan ``folder`` (or several, together); one may be checked against ``library``."""
        self.scan(ScanRequest.of(folder, library))

    def scan(self, request: ScanRequest) -> None:
        """Run ``request`` in the background; a rescan of a library check checks again."""
        if self.runner.busy:
            return
        missing = request.missing()
        if missing:
            self.dialogs.warn(self.tr("Not a folder: {0}").format(missing))
            return
        if len(request.folders) == 1:
            folder = request.folders[0]
            self.settings.setValue("last_folder", folder)
            recent = remembered(self.recent(), folder)
            self.settings.setValue("recent", recent)
            self.recent_changed.emit(recent)
        self.session.start(request)
        work = partial(request.run, self.options(), workers=self.runner.workers)
        named = ", ".join(map(display_path, request.folders))
        library = request.library
        what = f"the check of {named} against {library}" if library else f"the scan of {named}"
        task = CallTask(work, what)  # as the log names it
        task.signals.progress.connect(self.status.show_progress)
        task.signals.succeeded.connect(self._done)
        task.signals.failed.connect(self.failed)
        self.runner.run(task, self.tr("Scanning {0}…").format(named))

    def _done(self, result: ScanResult) -> None:
        self.status.idle()
        self.view.show_result(result)
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
        settings = result.options.read.text
        task = CallTask(lambda progress, cancel: warm_up(settings), "loading the kernels")
        self.background.start(task)

    def failed(self, message: str) -> None:
        """A scan (or the library's work) failed: said, with where the log is."""
        self.status.idle(self.tr("Scan failed: {0}").format(message))
        self.dialogs.warn(
            self.tr("{0}\n\nThe details are in the log: {1}").format(message, log_path())
        )

    def recent(self) -> list[str]:
        """The folders scanned last, the latest first."""
        value = self.settings.value("recent", [])
        return [value] if isinstance(value, str) else list(value or [])
