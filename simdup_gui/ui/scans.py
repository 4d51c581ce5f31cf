"""Scans started from the window: a folder, several together, or one checked against a library.

Also what a scan is made with (the knobs and the settings) and what a change of them needs: a
regroup of the result shown, or a rescan. The result goes to the window to be shown.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from simdup_gui.core import not_duplicates
from simdup_gui.engine.fingerprint.pipeline import warm_up
from simdup_gui.engine.kernels import kernels_compiled, reads_plain
from simdup_gui.engine.library.check import check_folder
from simdup_gui.engine.library.store import Library
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.progress import CancelToken, ProgressEvent
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.results import ScanResult
from simdup_gui.logs import log_path
from simdup_gui.ui.settings_dialog import SettingsDialog, options_from_settings
from simdup_gui.ui.tasks import CallTask, ScanTask

if TYPE_CHECKING:
    from simdup_gui.ui.main_window import MainWindow

RECENT_LIMIT = 8  # folders offered on the start page
KERNELS_AFTER_MS = 1000  # the compiled kernels are loaded this long after a large result shows


class Scans(QObject):
    """The window's scans: started, answered, and started again when the settings change."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.folders: list[str] = []  # the folders of the scan shown (several: scanned together)
        self._kernels_loading = False

    def choose(self) -> None:
        """Ask for a folder and scan it."""
        folder = self.ask_for_articles(self.tr("Choose a folder of articles"))
        if folder:
            self.start(folder)

    def ask_for_articles(self, title: str) -> str:
        """A folder of articles the person chooses, from the last one scanned ("" if none)."""
        start = str(self.window.settings.value("last_folder", str(Path.home())))
        return self.window.dialogs.folder(title, start)

    def options(self) -> ScanOptions:
        """The scan settings chosen in the window and the settings dialog."""
        window = self.window
        knobs = window.knobs
        options = options_from_settings(window.settings, knobs.k, knobs.min_similarity)
        apart = frozenset(window.session.not_duplicates)
        return replace(options, group=replace(options.group, not_duplicates=apart))

    def edit_settings(self) -> None:
        """Edit the scan settings; rescan when they change what a fingerprint is."""
        window = self.window
        before = self.options()
        if not window.dialogs.edit(SettingsDialog(window.settings, window)):
            return
        method = options_from_settings(window.settings, 0, 0.0).method
        if method.name != before.method.name:  # another measure: its own floor
            window.knobs.set_values(min_similarity=method.floor)
            window.knobs.fit(method)
        self.apply_settings(before)

    def apply_settings(self, before: ScanOptions) -> None:
        """Regroup (length floor) or rescan (anything else) after the settings changed."""
        window = self.window
        after = self.options()
        if window.result is None or window.runner.busy or not window.root:
            return
        needed = window.session.after_settings(before, after)
        if needed == "regroup":
            window.show_result(window.result)
        elif needed == "rescan":
            self.again()

    def again(self) -> None:
        """Scan the folder (or folders) of the result shown again (against its library, if any)."""
        result = self.window.result
        if len(self.folders) == 1:
            library = result.library if result is not None else ""
            self.start(self.folders[0], library or None)
        elif self.folders:
            self.start(self.folders)

    def start(self, folder: str | list[str], library: str | None = None) -> None:
        """Scan ``folder`` (or several, together) in the background.

        One folder may be checked against ``library``; a rescan of a folder checked against a
        library checks it again.
        """
        window = self.window
        if window.runner.busy:
            return
        folders = [folder] if isinstance(folder, str) else list(folder)
        for one in folders:
            if not os.path.isdir(one):
                window.dialogs.warn(self.tr("Not a folder: {0}").format(one))
                return
        if isinstance(folder, list):
            library = None
            window.root = os.path.commonpath([os.path.abspath(f) for f in folders])
        else:
            window.root = folder
            window.settings.setValue("last_folder", folder)
            self._remember(folder)
        self.folders = folders
        # the not-duplicates list as it is on disk now (the command line may have added to it);
        # a damaged one was reported when the window opened, and this session's pairs hold
        with suppress(not_duplicates.NotDuplicatesError):
            window.session.not_duplicates = not_duplicates.load()
        options = self.options()
        task: CallTask
        if library:
            opened = Library.open(library)  # checked by the caller
            # a library keeps the default's fingerprints: another method's floor is not its own
            kept = opened.settings.method
            same = options.method == kept
            floor = options.group.min_similarity if same else kept.floor
            group = replace(options.group, min_similarity=floor)
            read = replace(options.read, text=opened.settings)

            def work(progress: Callable[[ProgressEvent], None], cancel: CancelToken) -> object:
                wanted = replace(options, read=read, group=group)
                return check_folder(opened, folder, wanted, progress=progress, cancel=cancel)

            task = CallTask(work, f"checking {folder} against {library}")
        else:
            task = ScanTask(folder, options, workers=window.runner.workers)
        task.signals.progress.connect(window.status.show_progress)
        task.signals.succeeded.connect(self._done)
        task.signals.failed.connect(self.failed)
        window.run_task(
            task, self.tr("Scanning {0}…").format(", ".join(map(display_path, folders)))
        )

    def _done(self, result: ScanResult) -> None:
        self.window.status.idle()
        self.window.show_result(result)
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
        self.window.in_background(self.window.background_pool, task)

    def failed(self, message: str) -> None:
        """A scan (or the library's work) failed: said, with where the log is."""
        self.window.status.idle(self.tr("Scan failed: {0}").format(message))
        self.window.dialogs.warn(
            self.tr("{0}\n\nThe details are in the log: {1}").format(message, log_path())
        )

    def _remember(self, folder: str) -> None:
        recent = [f for f in self.recent() if f != folder]
        self.window.settings.setValue("recent", [folder, *recent][:RECENT_LIMIT])
        self.window.start_page.show_recent(self.recent())

    def recent(self) -> list[str]:
        """The folders scanned last, the latest first."""
        value = self.window.settings.value("recent", [])
        return [value] if isinstance(value, str) else list(value or [])
