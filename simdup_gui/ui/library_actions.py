"""The archive library from the window: check new articles against it, add to it, its figures.

The library itself is the engine's (``engine/library/``); here a person chooses it and the
folders, and the work runs as the window's task.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QSettings

from simdup_gui.core.scanning import added_with
from simdup_gui.engine.library.build import Added, add_folders
from simdup_gui.engine.library.store import Library, LibraryError, library_stats
from simdup_gui.engine.output.outputs import output_problem
from simdup_gui.engine.progress import CancelToken, ProgressEvent
from simdup_gui.ui.dialogs import Dialogs
from simdup_gui.ui.library_dialogs import LibraryStatsDialog
from simdup_gui.ui.scans import Scans
from simdup_gui.ui.status_line import StatusLine
from simdup_gui.ui.tasks import CallTask, TaskRunner


class LibraryActions(QObject):
    """The window's library commands."""

    def __init__(
        self,
        settings: QSettings,
        dialogs: Dialogs,
        status: StatusLine,
        runner: TaskRunner,
        scans: Scans,
    ) -> None:
        super().__init__(scans)
        self.settings, self.dialogs, self.status = settings, dialogs, status
        self.runner, self.scans = runner, scans

    def _choose(self, *, existing: bool, current: bool = False) -> str | None:
        """Ask for a library folder; an existing one must open (or the person is told why).

        A ``current`` one must also hold the fingerprints this simdup makes.
        """
        settings, dialogs = self.settings, self.dialogs
        start = str(settings.value("library", str(Path.home())))
        if existing:
            folder = dialogs.folder(self.tr("Choose a library"), start)
        else:  # a name typed that is no folder yet makes one (and the library in it)
            title = self.tr("Choose a library, or type a new folder's name to make one")
            folder = dialogs.new_folder(title, start)
        if not folder:
            return None
        if existing:
            try:
                opened = Library.open(folder)
                if current:
                    opened.refuse_if_stale()
            except LibraryError as exc:
                dialogs.warn(str(exc))
                return None
        settings.setValue("library", folder)
        return folder

    def check(self) -> None:
        """Check a folder of new articles against a library.

        Each group's reference is the library's copy, which is never marked, moved or trashed.
        """
        library = self._choose(existing=True, current=True)
        if library is None:
            return
        folder = self.scans.ask_for_articles(self.tr("Choose a folder of new articles"))
        if folder:
            self.scans.start(folder, library)

    def check_article(self) -> None:
        """Check one article (a file) against a library, as a folder of them is."""
        library = self._choose(existing=True, current=True)
        if library is None:
            return
        start = str(self.settings.value("last_folder", str(Path.home())))
        endings = " ".join(f"*{ending}" for ending in self.scans.options().walk.extensions)
        kinds = f"{self.tr('Articles')} ({endings});;{self.tr('All files')} (*)"
        article = self.dialogs.open_path(self.tr("Choose an article to check"), start, kinds)
        if article:
            self.scans.start(article, library)

    def add(self) -> None:
        """Add a folder of articles to a library (made if new), in the background."""
        if self.runner.busy:
            return
        library = self._choose(existing=False)
        if library is None:
            return
        folder = self.scans.ask_for_articles(self.tr("Choose a folder of articles to add"))
        if not folder:
            return
        problem = output_problem(library, [folder], folder=True)
        if problem:
            self.dialogs.warn(problem)
            return
        options = self.scans.options()

        def work(progress: Callable[[ProgressEvent], None], cancel: CancelToken) -> object:
            wanted = added_with(options, library)
            return add_folders(library, [folder], wanted, progress=progress, cancel=cancel)

        task = CallTask(work, f"adding {folder} to {library}")
        task.signals.progress.connect(self.status.show_progress)
        task.signals.succeeded.connect(self._added)
        task.signals.failed.connect(self.scans.failed)
        self.runner.run(task)

    def _added(self, added: Added) -> None:
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
        self.status.idle(text)
        self.dialogs.inform(text)

    def show_stats(self) -> None:
        """Show what a library holds, with its pairs by distance."""
        library = self._choose(existing=True)
        if library is None:
            return
        stats = library_stats(Library.open(library))
        self.dialogs.edit(LibraryStatsDialog(library, stats, self.dialogs.window))
