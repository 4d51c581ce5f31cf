"""Worker processes: none outlives the process that started it; an app keeps one pool.

A scan started from a thread (as an app's are) spawns its worker processes, and each spends
about a second importing and loading the compiled kernels. An app keeps one pool for all its
scans instead (:class:`WorkerPool`).

Every worker watches its parent (:func:`process_pool`): when the parent is gone, however it
ended (closed, ``kill``, ``kill -9``, a crash), the worker ends within a second, and
multiprocessing's resource tracker, whose pipe they all held, ends after them.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Protocol

from simdup_gui.engine.fingerprint.pipeline import warm_up
from simdup_gui.engine.options import TextSettings
from simdup_gui.engine.run.parent import watch_parent


def process_pool(jobs: int, context: multiprocessing.context.BaseContext) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes, each ending soon after its parent does."""
    return ProcessPoolExecutor(
        jobs, mp_context=context, initializer=watch_parent, initargs=(os.getpid(),)
    )


class Pool(Protocol):
    """Workers that outlive one scan: this machine's processes, or a cluster's (``cluster``)."""

    def executor(self, jobs: int) -> Executor:
        """Where batches run."""
        ...

    def shutdown(self, *, wait: bool = True) -> None:
        """Let the workers go (a pool whose worker died)."""
        ...


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
                self._executor = process_pool(jobs, multiprocessing.get_context("spawn"))
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
