"""Acting on the marked files from the window: trash, move, copy, undo and restore.

Trash and move go through the session (``core/session.py``), which asks its questions here
(:class:`~simdup_gui.core.acting.Questions`): the answers come from the window's dialogs.
Every file is read again before it is touched, and a manifest records what was done, so that
undo (the last action) or restore (any manifest) puts it back.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QSettings

from simdup_gui.core.acting import Plan
from simdup_gui.core.session import Session
from simdup_gui.engine.output.actions import ActionOutcome, restore
from simdup_gui.engine.output.outputs import output_problem
from simdup_gui.engine.output.words import human_size
from simdup_gui.engine.read.walk import display_path
from simdup_gui.ui.dialogs import Dialogs
from simdup_gui.ui.i18n import counted
from simdup_gui.ui.status_line import StatusLine
from simdup_gui.ui.tasks import CallTask, TaskRunner

SHOWN_PROBLEMS = 20  # a report lists at most this many files that were not acted on


class FileActions(QObject):
    """The window's commands that change files, and the session's questions answered."""

    def __init__(
        self,
        session: Session,
        settings: QSettings,
        dialogs: Dialogs,
        status: StatusLine,
        runner: TaskRunner,
        rescan: Callable[[], None],
    ) -> None:
        """``rescan`` scans the folder shown again (after files were moved or put back)."""
        super().__init__(runner)
        self.session, self.settings, self.dialogs, self.status = session, settings, dialogs, status
        self.runner, self.rescan = runner, rescan
        self.last_manifest: Path | None = None  # of the last trash or move, for undo

    def trash_marked(self) -> None:
        """Send the marked files to the trash, after a confirmation."""
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
            lambda done: self._report(list(done.outcomes), done.manifest)  # type: ignore[attr-defined]
        )
        task.signals.failed.connect(self._failed)
        acting = (self.tr("Acting on {0} file…"), self.tr("Acting on {0} files…"))
        self.runner.run(task, counted(len(action.seen), *acting))

    def _failed(self, message: str) -> None:
        self.status.idle(message)
        self.dialogs.warn(self.tr("Nothing was done: {0}").format(message))

    def _report(self, outcomes: list[ActionOutcome], manifest: Path) -> None:
        done = sum(o.action in ("moved", "trashed") for o in outcomes)
        skipped = [o for o in outcomes if o.action == "skipped"]
        failed = [o for o in outcomes if o.action == "failed"]
        text = self.tr("Done with {0} of {1}; {2} skipped, {3} failed. Manifest: {4}").format(
            done, self.status.files_text(len(outcomes)), len(skipped), len(failed), manifest
        )
        self.last_manifest = manifest
        self.status.idle(text)
        self.dialogs.inform(text + _listed(skipped + failed))
        if self.session.root:
            self.runner.when_idle(self.rescan)  # the action's task is still let go

    def copy_marked(self) -> None:
        """Copy the marked files to a folder (the originals stay where they are)."""
        if not self.session.marked:
            self.nothing_marked()
            return
        destination = self.dialogs.folder(self.tr("Copy the marked files to"), "")
        if not destination:
            return
        problem = output_problem(destination, [self.session.root or ""], folder=True)
        if problem:
            self.refuse(problem)
            return
        outcomes = self.session.copy_marked(destination)
        failed = [o for o in outcomes if o.action == "failed"]
        text = self.tr("Copied {0} of {1} to {2}.").format(
            len(outcomes) - len(failed), self.status.files_text(len(outcomes)), destination
        )
        self.status.say(text)
        self.dialogs.inform(text + _listed(failed))

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
        text = self.tr("Restored {0} of {1}.").format(done, self.status.files_text(len(outcomes)))
        self.dialogs.inform(text + _listed(problems))
        if self.session.root and done:
            self.rescan()

    # --- the session's questions (core.acting.Questions) ---------------------------------------
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

    def refuse(self, problem: str) -> None:
        """Say why it cannot be done."""
        self.dialogs.warn(self.tr("Nothing was done: {0}").format(problem))

    def confirm(self, plan: Plan) -> bool:
        """Ask before acting, naming the groups, files and bytes, listing the files; No first."""
        status = self.status
        counts = self.tr("{0} from {1} ({2})").format(
            status.files_text(plan.files), status.groups_text(plan.groups), human_size(plan.size)
        )
        if plan.destination is None:
            question = self.tr("Send {0} to the trash?").format(counts)
        else:
            question = self.tr("Move {0} to {1}?").format(counts, plan.destination)
        return self.dialogs.confirm(question, [display_path(p) for p in plan.paths])


def _listed(outcomes: list[ActionOutcome]) -> str:
    """The files not acted on and why, as lines to add to a report ("" if none)."""
    lines = [f"{display_path(o.path)}: {o.error}" for o in outcomes[:SHOWN_PROBLEMS]]
    return "\n\n" + "\n".join(lines) if lines else ""
