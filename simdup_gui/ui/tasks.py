"""Run engine work off the GUI thread: a QRunnable with its signals on a companion QObject."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from simdup_gui.engine.progress import CancelToken, ProgressEvent
from simdup_gui.engine.run.workers import WorkerPool

PROGRESS_INTERVAL = 0.05  # seconds between progress signals, so the event loop is never flooded
GIL_TURN = 0.01  # seconds of a task's work between the GUI thread's turns at the GIL
WORKERS_IDLE_MS = 60 * 1000  # worker processes are let go after this long without a scan


log = logging.getLogger(__name__)


class TaskSignals(QObject):
    """What a task tells the GUI thread."""

    progress = Signal(object)  # ProgressEvent
    succeeded = Signal(object)  # the task's result
    failed = Signal(str)
    finished = Signal()


class TakingTurnsToken(CancelToken):
    """A task's cancel token that also gives the GUI thread its turn at the GIL.

    Python hands the GIL to a waiting thread when its holder has kept it 5 ms in a row; work
    that lets it go and takes it back again and again (the compiled kernels, numpy on large
    arrays) takes it back before the waiting thread wakes, and keeps the window waiting for
    tenths of a second. Polled every GIL_TURN seconds or more, the token sleeps a tenth of a
    millisecond: long enough for a waiting thread to take the GIL.
    """

    def __init__(self) -> None:
        super().__init__()
        self._turn = time.monotonic()

    def __call__(self) -> bool:
        """Whether the task is cancelled, after the GUI thread's turn if it is due."""
        if time.monotonic() - self._turn > GIL_TURN:
            time.sleep(0.0001)
            self._turn = time.monotonic()
        return super().__call__()


class CallTask(QRunnable):
    """Any engine work on a pool thread: ``work(progress, cancel)`` gives the result."""

    def __init__(
        self, work: Callable[[Callable[[ProgressEvent], None], CancelToken], object], what: str
    ) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.signals = TaskSignals()
        self.token = TakingTurnsToken()
        self._work, self._what = work, what
        self._last = 0.0

    def cancel(self) -> None:
        """Ask the work to stop as soon as it can (a scan: after the files in flight)."""
        self.token.cancel()

    def _progress(self, event: ProgressEvent) -> None:
        now = time.monotonic()
        if event.stage == "fingerprinting" and now - self._last < PROGRESS_INTERVAL:
            return
        self._last = now
        self.signals.progress.emit(event)

    def run(self) -> None:
        """Worker thread: never touch widgets here."""
        try:
            result = self._work(self._progress, self.token)
        except Exception as exc:  # shown to the user, not raised into Qt
            log.exception("%s failed", self._what)
            self.signals.failed.emit(str(exc))
        else:
            self.signals.succeeded.emit(result)
        finally:
            self.signals.finished.emit()


class Background(QObject):
    """Tasks nobody waits for (reports written, regroups, kernels loaded), one at a time.

    Each task is held until it finishes (Qt's pool does not hold it).
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._tasks: set[CallTask] = set()

    def start(self, task: CallTask) -> None:
        """Run ``task`` after those started before it."""
        self._tasks.add(task)
        task.signals.finished.connect(lambda: self._tasks.discard(task))
        self.pool.start(task)

    def wait(self, msecs: int) -> None:
        """Wait at most ``msecs`` for the tasks started to finish."""
        self.pool.waitForDone(msecs)


class TaskRunner(QObject):
    """Owns the thread pool, the worker processes and the running task (one scan at a time).

    The worker processes are kept from scan to scan (see ``engine/workers.py``), and let go
    after :data:`WORKERS_IDLE_MS` without a scan (each holds about 170 MB). None is started
    before a scan needs them: small scans run on threads in the app's own process.
    """

    started = Signal(str)  # a task started, with what it does in words (or "")
    idle = Signal()  # the running task finished and was let go

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(2)
        self.workers = WorkerPool()
        self.task: CallTask | None = None
        self._then: list[Callable[[], object]] = []  # what to do once the task is let go
        self._workers_idle = QTimer(self)
        self._workers_idle.setSingleShot(True)
        self._workers_idle.setInterval(WORKERS_IDLE_MS)
        self._workers_idle.timeout.connect(self._release_workers)

    @property
    def busy(self) -> bool:
        """Whether a scan is running."""
        return self.task is not None

    def run(self, task: CallTask, text: str = "") -> bool:
        """Run ``task`` (held until it finishes), said in words; False, and not run, if busy."""
        if self.busy:
            return False
        self._workers_idle.stop()
        self.task = task
        task.signals.finished.connect(lambda: self._forget(task))
        self.pool.start(task)
        self.started.emit(text)
        return True

    def cancel(self) -> None:
        """Cancel the running task, if any."""
        if self.task is not None:
            self.task.cancel()

    def shutdown(self, msecs: int = 10_000) -> None:
        """Cancel, wait for the pool to finish, and stop the worker processes."""
        self.cancel()
        self.pool.waitForDone(msecs)
        self.workers.shutdown()

    def when_idle(self, then: Callable[[], object]) -> None:
        """Call ``then`` once no task runs: now, or as the running one is let go.

        A task's result handlers run while it is still the running one (``finished`` comes
        last), so a handler that wants the next task (a scan after acting) asks for it here.
        """
        if self.task is None:
            then()
        else:
            self._then.append(then)

    def _forget(self, task: CallTask) -> None:
        if self.task is not task:
            return  # a task started since is the running one
        self.task = None
        self._workers_idle.start()
        waiting, self._then = self._then, []
        for then in waiting:  # before the event loop runs again: no moment looks idle
            then()
        self.idle.emit()

    def _release_workers(self) -> None:
        if self.task is None:
            self.workers.shutdown(wait=False)
