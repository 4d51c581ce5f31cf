"""Files to fingerprint, in batches, on a pool of threads or worker processes, back in order.

A scan hands over its work (entries to read, outcomes already known from the cache) and gets
every outcome back in the same order, with at most a few batches in flight, so memory stays
bounded and a cancel stops the work within a batch.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from functools import partial

from simdup_gui.engine import kernels
from simdup_gui.engine.fingerprint.file_records import Fingerprinted, fingerprint_batch
from simdup_gui.engine.fingerprint.pipeline import warm_up
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.progress import Progress, ProgressEvent
from simdup_gui.engine.read.walk import Entry
from simdup_gui.engine.run.workers import Pool, process_pool

PROCESS_THRESHOLD = 200  # files to fingerprint before worker processes pay for their start-up
BATCH_FILES, BATCH_BYTES = 32, 1 << 20  # one process task: this many files or bytes at most
THREAD_BATCH_FILES = 8  # smaller, so that a small scan still spreads over the threads
BATCHES_PER_JOB = 2  # batches in flight per worker: one running, one waiting


def _executor(
    options: ScanOptions,
    files: int,
    workers: Pool | None,
    progress: Progress,
    plain: bool,
    compiled: bool,
) -> tuple[Executor, int, bool]:
    """An executor, how many files each task takes, and whether the scan owns the executor.

    Threads for small jobs; processes (each with its own GIL) for large ones: much per-file
    work (decoding, HTML, normalising) holds the GIL, so only processes use every core for
    it. They are the ``workers`` kept between scans when given, else started for this scan
    (see :func:`process_context`). Either takes files in batches, analysed together.

    Unless kept workers are ready, the compiled kernels are loaded first (the "preparing"
    stage: a moment; "compiling" on a machine's first run, which builds them, 15-30 s).
    A ``plain`` scan (a small one) compiles nothing and runs on one thread: Python's loops
    hold the GIL. ``compiled``: whether the compiled kernels are on disk already.
    """
    if plain:
        progress(ProgressEvent("preparing", 0, files))
        return ThreadPoolExecutor(1), THREAD_BATCH_FILES, True
    use_processes = options.run.processes
    if use_processes is None:
        use_processes = options.run.jobs > 1 and files >= PROCESS_THRESHOLD
    if use_processes and workers is not None:
        if not compiled:  # the kept workers compile or build them before their first batch
            progress(ProgressEvent("compiling", 0, files))
        return workers.executor(options.run.jobs), BATCH_FILES, False
    progress(ProgressEvent("preparing" if compiled else "compiling", 0, files))
    context = process_context() if use_processes else None
    if context is None or context.get_start_method() == "fork":
        warm_up(options.read.text)  # here, in the threads' process, or before forking: inherited
    if context is not None:
        return process_pool(options.run.jobs, context), BATCH_FILES, True
    return ThreadPoolExecutor(options.run.jobs), THREAD_BATCH_FILES, True


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold Ctrl+C while processes fork; it comes after.

    Python runs fork's handlers where an exception the interrupt's handler raises is dropped
    (the command would go on as if never interrupted).
    """
    main = threading.current_thread() is threading.main_thread()
    if not main or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def stop_now(executor: Executor) -> None:
    """Drop the batches not started and end the worker processes (their batches are lost)."""
    executor.shutdown(wait=False, cancel_futures=True)
    processes = getattr(executor, "_processes", None) or {}  # ProcessPoolExecutor's own
    for process in list(processes.values()):
        process.terminate()


def process_context() -> multiprocessing.context.BaseContext:
    """How worker processes start: ``fork`` where that is safe, else ``spawn``.

    A spawned worker imports everything and loads the compiled kernels again (about a second
    each). Forked workers inherit them ready, but fork is only safe from a process with no
    other threads, and on Linux (not macOS, whose system libraries forbid it, nor Windows,
    which lacks it). A GUI scans from a worker thread: it spawns.
    """
    single_threaded = (
        threading.current_thread() is threading.main_thread() and threading.active_count() == 1
    )
    forks = sys.platform == "linux" and hasattr(os, "fork")
    return multiprocessing.get_context("fork" if forks and single_threaded else "spawn")


def in_batches(
    work: list[Fingerprinted | Entry],
    options: ScanOptions,
    cancel: Callable[[], bool],
    workers: Pool | None,
    progress: Progress,
) -> Iterator[tuple[Fingerprinted, bool]]:
    """Every file's outcome in order, and whether it was computed now rather than cached.

    Files to read go to a pool in batches; with none to read (an unchanged folder) there is
    no pool to start. A pool the scan started is stopped at the end; kept ``workers`` are
    not (batches dropped by a cancel may still finish there, unseen).
    """
    entries = [item for item in work if isinstance(item, Entry)]
    if not entries:
        for n, item in enumerate(work):
            if n % 256 == 0 and cancel():
                return
            yield item, False  # type: ignore[misc]
        return
    compiled = kernels.kernels_compiled()  # a look at the files on disk: once a scan
    to_read = sum(entry.size for entry in entries)
    plain = options.run.processes is not True and kernels.reads_plain(to_read, compiled)
    with kernels.plain_kernels(plain):
        executor, batch_size, owned = _executor(
            options, len(entries), workers, progress, plain, compiled
        )
        run = partial(fingerprint_batch, options=options.read)
        window = BATCHES_PER_JOB * options.run.jobs
        try:
            yield from in_order(executor, _batches(work, batch_size), run, window, cancel)
        except BrokenProcessPool:
            if workers is not None and not owned:
                workers.shutdown(wait=False)
            raise
        except BaseException:  # interrupted (Ctrl+C) or given up: nothing more is waited for
            if owned:
                stop_now(executor)
            raise
        finally:
            if owned:
                executor.shutdown(wait=True)  # returns at once after stop_now


def _batches(
    work: Iterable[Fingerprinted | Entry], size: int
) -> Iterator[Fingerprinted | list[Entry]]:
    """Ready outcomes as they are; runs of entries as lists of at most ``size`` files."""
    batch: list[Entry] = []
    batch_bytes = 0
    for item in work:
        if isinstance(item, Entry):
            batch.append(item)
            batch_bytes += item.size
            if len(batch) >= size or batch_bytes >= BATCH_BYTES:
                yield batch
                batch, batch_bytes = [], 0
        else:
            if batch:
                yield batch
                batch, batch_bytes = [], 0
            yield item
    if batch:
        yield batch


def in_order(
    pool: Executor,
    work: Iterable[Fingerprinted | list[Entry]],
    fn: Callable[[list[Entry]], list[Fingerprinted]],
    window: int,
    cancel: Callable[[], bool],
) -> Iterator[tuple[Fingerprinted, bool]]:
    """Outcomes in input order: ready ones pass through, batches of entries run on the pool.

    At most ``window`` batches are in flight; after a cancel nothing new starts and batches not
    yet started are dropped. Yields each outcome with whether it was computed now.
    """
    pending: deque[Future[list[Fingerprinted]] | Fingerprinted] = deque()
    for item in work:
        if cancel():
            break
        if isinstance(item, list):
            with interrupts_held():  # a submit may fork the workers
                pending.append(pool.submit(fn, item))
        else:
            pending.append(item)
        while pending and (len(pending) >= window or not isinstance(pending[0], Future)):
            yield from _settle(pending.popleft())
    for head in pending:
        if not (isinstance(head, Future) and cancel() and head.cancel()):
            yield from _settle(head)


def _settle(
    item: Future[list[Fingerprinted]] | Fingerprinted,
) -> Iterator[tuple[Fingerprinted, bool]]:
    if isinstance(item, Future):
        for outcome in item.result():
            yield outcome, True
    else:
        yield item, False
