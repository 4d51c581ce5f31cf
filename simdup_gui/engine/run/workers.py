"""Worker processes kept from one scan to the next, started before the first is asked for.

A scan started from a thread (as an app's are) spawns its worker processes, and each spends
about a second importing and loading the compiled kernels. An app keeps one pool for all its
scans instead and warms it up while the user is still choosing a folder.
"""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor

from simdup_gui.engine.fingerprint.pipeline import warm_up
from simdup_gui.engine.options import TextSettings


class WorkerPool:
    """A process pool that outlives scans: pass it to ``scan(workers=...)``.

    The processes are spawned (safe from any thread and on every OS). A pool whose process died
    is discarded by the scan that found out and made anew by the next.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self._jobs = 0

    @property
    def running(self) -> bool:
        """Whether processes are started (or starting)."""
        return self._executor is not None

    def executor(self, jobs: int) -> ProcessPoolExecutor:
        """The pool with ``jobs`` processes (started if there is none or it had another size)."""
        with self._lock:
            if self._executor is None or self._jobs != jobs:
                if self._executor is not None:
                    self._executor.shutdown(wait=False, cancel_futures=True)
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(jobs, mp_context=context)
                self._jobs = jobs
            return self._executor

    def warm(self, jobs: int, settings: TextSettings | None = None) -> None:
        """Start ``jobs`` processes now and load the kernels in them; returns at once."""
        executor = self.executor(jobs)
        for _ in range(jobs):
            executor.submit(warm_up, settings or TextSettings())

    def shutdown(self, *, wait: bool = True) -> None:
        """Let the processes go; the next scan starts others.

        With ``wait``, once their batches in flight are done; without, at once (a pool whose
        process died, or one left idle), their batches finishing unseen.
        """
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)
