"""The result shown, written to files and read back: saved results, CSV and HTML reports.

Each is written off the GUI thread (the HTML report reads the texts again), never over the
folder scanned (``engine/output/outputs.py`` says why not), and the folder is remembered.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QSettings

from simdup_gui.core.session import Session
from simdup_gui.engine.output.html_report import write_html_report
from simdup_gui.engine.output.outputs import output_problem, with_suffix
from simdup_gui.engine.output.report import write_report
from simdup_gui.engine.output.reuse_report import write_reuse_html, write_reuse_report
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.reuse.sources import ReuseResult
from simdup_gui.engine.store.saved import SUFFIX, SavedResultError, load_saved, save_result
from simdup_gui.ui.dialogs import Dialogs
from simdup_gui.ui.i18n import report_words
from simdup_gui.ui.result_view import ResultView
from simdup_gui.ui.status_line import StatusLine
from simdup_gui.ui.tasks import Background, CallTask


class ResultFiles(QObject):
    """The window's commands that write the result shown, or open a saved one."""

    def __init__(
        self,
        session: Session,
        settings: QSettings,
        dialogs: Dialogs,
        status: StatusLine,
        background: Background,
        view: ResultView,
    ) -> None:
        super().__init__(background)
        self.session, self.settings, self.dialogs, self.status = session, settings, dialogs, status
        self.background, self.view = background, view

    def _folder(self) -> str:
        return str(self.settings.value("export_folder", str(Path.home())))

    def save(self) -> None:
        """Ask where, then save the result shown with every choice made on it (marks too)."""
        kinds = self.tr("simdup results") + f" (*{SUFFIX})"
        session = self.session
        choices = session.choices()

        def write(result: ScanResult, destination: str) -> None:
            save_result(result, destination, choices)

        if self._write(self.tr("Save the results"), "results" + SUFFIX, kinds, write):
            session.saved = choices  # quitting now loses nothing

    def open_saved(self) -> None:
        """Open saved results: shown at the thresholds they were saved with, no scan."""
        kinds = self.tr("simdup results") + f" (*{SUFFIX})"
        path = self.dialogs.open_path(self.tr("Open saved results"), self._folder(), kinds)
        if not path:
            return
        try:
            result, choices = load_saved(path)
        except SavedResultError as exc:
            self.dialogs.warn(str(exc))
            return
        self.session.adopt(choices, result)
        self.view.show_saved(result)
        self.status.say(self.tr("Opened {0}").format(path))

    def export_csv(self) -> None:
        """Ask where, then write the CSV report (in the app's language)."""
        title = self.tr("Export CSV report")
        marked = frozenset(self.session.marked)  # the marks, as they are now
        write = partial(write_report, words=report_words(), marked=marked)
        self._write(title, "simdup-report.csv", "CSV (*.csv)", write)

    def export_html(self) -> None:
        """Ask where, then write the HTML report (in the app's language)."""
        title = self.tr("Export HTML report")
        write = partial(write_html_report, words=report_words())
        self._write(title, "simdup-report.html", "HTML (*.html)", write)

    def export_reuse(self, reuse: ReuseResult | None, kind: str) -> None:
        """Ask where, then write the reuse report (``kind``: "html" or "csv")."""
        if reuse is None:
            return
        title = self.tr("Export the reuse report")
        words = report_words()
        if kind == "html":
            write = partial(write_reuse_html, reuse, words=words)
            self._write(title, "simdup-reuse.html", "HTML (*.html)", lambda _, to: write(to))
        else:
            write = partial(write_reuse_report, reuse, words=words)
            self._write(title, "simdup-reuse.csv", "CSV (*.csv)", lambda _, to: write(to))

    def _write(
        self, title: str, name: str, kinds: str, write: Callable[[ScanResult, str], object]
    ) -> bool:
        """Ask where, then write off the GUI thread; whether the writing started.

        A name given without the suggested name's extension gets it (the open dialog looks
        for it).
        """
        result = self.session.result
        if result is None:
            return False
        suggested = os.path.join(self._folder(), name)
        destination = self.dialogs.save_path(title, suggested, kinds)
        if not destination:
            return False
        destination = with_suffix(destination, name)
        problem = output_problem(destination, [result.root])
        if problem:
            self.dialogs.warn(problem)
            return False

        def work(progress: object, cancel: object) -> str:
            try:
                write(result, destination)
            except OSError as exc:
                raise OSError(f"{destination}: {exc.strerror or exc}") from exc
            return destination

        task = CallTask(work, f"writing {destination}")
        task.signals.succeeded.connect(self._written)  # type: ignore[arg-type]
        task.signals.failed.connect(self._failed)
        self.status.say(self.tr("Writing {0}…").format(destination))
        self.background.start(task)
        return True

    def _written(self, destination: str) -> None:
        folder = os.path.dirname(os.path.abspath(destination))
        self.settings.setValue("export_folder", folder)
        self.status.say(self.tr("Report written to {0}").format(destination))

    def _failed(self, message: str) -> None:
        self.status.say(message)
        self.dialogs.warn(message)
