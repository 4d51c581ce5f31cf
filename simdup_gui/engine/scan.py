"""Scan a folder: walk, read, fingerprint in batches on threads or worker processes, index, group.

The result keeps fingerprints and metadata, never the texts, so memory stays bounded for large
folders. Unchanged files (and an unchanged folder's groups) come from the cache. Progress goes
to a callback; a cancel predicate is polled between batches and steps, and a cancelled scan
returns what it finished.
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from simdup_gui.engine.cache import CachedFile, FingerprintCache, Snapshot
from simdup_gui.engine.decode import DecodeError
from simdup_gui.engine.groups import Group
from simdup_gui.engine.index import Pairs, check_k
from simdup_gui.engine.matching import GROUPING_VERSION, group_files
from simdup_gui.engine.pipeline import (
    Analysis,
    TextSettings,
    analyze_many,
    extract_text,
    warm_up,
)
from simdup_gui.engine.progress import Progress, ProgressEvent, never, no_progress
from simdup_gui.engine.reader import DEFAULT_MAX_BYTES, ReadError, read_prefix
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.simhash import Features, idf_table, tfidf_fingerprint
from simdup_gui.engine.walk import DEFAULT_EXTENSIONS, Entry, display_path, walk
from simdup_gui.engine.workers import WorkerPool


@dataclass(frozen=True)
class ScanOptions:
    """What to scan and how."""

    k: int = 8  # candidates: fingerprints this many bits apart or fewer (best measured)
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    text: TextSettings = field(default_factory=TextSettings)
    max_bytes: int = DEFAULT_MAX_BYTES
    skip_oversize: bool = False  # skip files over max_bytes instead of reading their start
    jobs: int = max(1, os.cpu_count() or 1)
    # Worker processes: False never, True always, None when jobs > 1 and many files. Where they
    # start with "spawn", they re-import the caller's __main__: scripts need `if __name__ ...`.
    processes: bool | None = False
    min_chars: int = 0  # shorter texts are fingerprinted but never grouped
    min_similarity: float = 0.4  # and they must share this much text (Jaccard, best measured)

    def __post_init__(self) -> None:
        """Validate k, the size limit and the job count."""
        check_k(self.k)
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")
        if self.max_bytes < 1:
            raise ValueError(f"max_bytes must be positive, got {self.max_bytes}")


@dataclass(frozen=True)
class ScanResult:
    """Every file seen, the verified pairs that link the readable ones, and the groups.

    ``pairs`` are the graph the groups are made of: exact copies are linked to their first copy
    rather than to each other.
    """

    root: str
    files: tuple[FileRecord, ...]
    pairs: Pairs
    groups: tuple[Group, ...]
    options: ScanOptions
    cancelled: bool = False
    seconds: float = 0.0
    cached: int = 0  # files whose fingerprint came from the cache
    warnings: tuple[str, ...] = ()

    @property
    def errors(self) -> tuple[FileRecord, ...]:
        """The files that could not be read or fingerprinted."""
        return tuple(f for f in self.files if f.error)

    def regroup(
        self, k: int, min_chars: int | None = None, min_similarity: float | None = None
    ) -> ScanResult:
        """The same files grouped at another k (or length or similarity floor), no rescan."""
        options = replace(
            self.options,
            k=k,
            min_chars=self.options.min_chars if min_chars is None else min_chars,
            min_similarity=(
                self.options.min_similarity if min_similarity is None else min_similarity
            ),
        )
        pairs, groups = group_files(self.files, k, options.min_chars, options.min_similarity)
        return replace(self, pairs=pairs, groups=groups, options=options)


Outcome = tuple[FileRecord, Features | None]


def fingerprint_file(entry: Entry, options: ScanOptions) -> Outcome:
    """Read, decode, strip and fingerprint one file; errors become part of the record.

    Returns the record and, with TF-IDF weighting, the features (the fingerprint needs the
    whole folder's document frequencies first).
    """
    return fingerprint_batch([entry], options)[0]


def fingerprint_batch(entries: list[Entry], options: ScanOptions) -> list[Outcome]:
    """:func:`fingerprint_file` over a few files, their texts analysed together.

    numpy's per-call cost is paid once per batch, and a worker process gets one task.
    """
    read = [_read_entry(entry, options) for entry in entries]
    analyses = iter(_analyses([text for _, text, _ in read if text is not None], options.text))
    return [
        _fingerprinted(record, next(analyses), notes, options)
        if text is not None
        else (record._replace(notes=tuple(notes)), None)
        for record, text, notes in read
    ]


def _analyses(texts: list[str], settings: TextSettings) -> list[Analysis | Exception]:
    """The texts' analyses; should the batch fail, each text alone, its failure its own."""
    try:
        return list(analyze_many(texts, settings))
    except Exception:  # any text the libraries choke on stays one file's error
        out: list[Analysis | Exception] = []
        for text in texts:
            try:
                out.append(analyze_many([text], settings)[0])
            except Exception as exc:
                out.append(exc)
        return out


def _read_entry(entry: Entry, options: ScanOptions) -> tuple[FileRecord, str | None, list[str]]:
    """Read, decode and strip one file.

    Returns its record so far, its text (None when there is nothing to fingerprint: the record
    says why) and notes about it.
    """
    record = FileRecord(entry.path, entry.size, entry.mtime_ns, error=entry.error)
    notes: list[str] = []
    if record.error:
        return record, None, notes
    if display_path(entry.path) != entry.path:
        notes.append("file name is not valid UTF-8")
    if options.skip_oversize and entry.size > options.max_bytes:
        return record._replace(error=f"larger than {options.max_bytes} bytes, skipped"), None, notes
    try:
        data, truncated = read_prefix(entry.path, options.max_bytes)
        if truncated:
            notes.append(f"only the first {options.max_bytes} bytes read")
        extracted = extract_text(data, entry.path, boilerplate=options.text.boilerplate)
    except (ReadError, DecodeError) as exc:
        return record._replace(error=str(exc)), None, notes
    if extracted.replaced:
        notes.append(f"{extracted.replaced} undecodable bytes replaced")
    record = record._replace(
        size=max(record.size, len(data)),
        encoding=extracted.encoding,
        encoding_method=extracted.encoding_method,
        chars=len(extracted.text),
        boilerplate=round(extracted.boilerplate_share, 3),
    )
    if not extracted.text.strip():
        return record._replace(error="no text"), None, notes
    return record, extracted.text, notes


def _fingerprinted(
    record: FileRecord, analysis: Analysis | Exception, notes: list[str], options: ScanOptions
) -> Outcome:
    """The record completed from the text's analysis (or the reason it failed)."""
    if isinstance(analysis, Exception):
        error = f"text could not be fingerprinted: {type(analysis).__name__}: {analysis}"
        return record._replace(error=error, notes=tuple(notes)), None
    features = analysis.features
    if features.is_short:
        notes.append(f"short text: {len(features)} distinct words")
    tfidf = options.text.whole_folder
    record = record._replace(
        features=len(features),
        notes=tuple(notes),
        sketch=analysis.sketch,
        lead=analysis.lead_fingerprint,
        fingerprint=None if tfidf else analysis.fingerprint,
    )
    return record, features if tfidf else None


def read_text(path: str, options: ScanOptions | None = None) -> str:
    """A file's plain text as the scan saw it (decoded, stripped), for showing it to a person.

    Raises:
        ReadError: the file cannot be read.
        DecodeError: the bytes are not text.
    """
    options = options or ScanOptions()
    data, _ = read_prefix(path, options.max_bytes)
    return extract_text(data, path, boilerplate=options.text.boilerplate).text


def _cache_keys(root: str) -> Callable[[str], str]:
    """The cache's name for each path under ``root``: absolute, undecodable bytes escaped.

    Every walked path starts with ``root``, so only the root is made absolute.
    """
    base = os.path.abspath(root)
    if root.endswith(os.sep) and not base.endswith(os.sep):
        base += os.sep
    cut = len(root)
    return lambda path: display_path(base + path[cut:])


def _from_cache(entry: Entry, cached: CachedFile) -> Outcome:
    record = FileRecord(
        entry.path,
        entry.size,
        entry.mtime_ns,
        encoding=cached.encoding,
        encoding_method=cached.encoding_method,
        fingerprint=cached.fingerprint,
        features=cached.features,
        chars=cached.chars,
        boilerplate=cached.boilerplate,
        notes=cached.notes,
        sketch=cached.sketch,
        lead=cached.lead,
    )
    return record, cached.tfidf_features


def _to_cache(record: FileRecord, features: Features | None) -> CachedFile:
    return CachedFile(
        record.fingerprint,
        record.lead,
        record.encoding,
        record.encoding_method,
        record.features,
        record.chars,
        record.boilerplate,
        record.notes,
        record.sketch,
        features,
    )


PROCESS_THRESHOLD = 200  # files to fingerprint before worker processes pay for their start-up
BATCH_FILES, BATCH_BYTES = 32, 1 << 20  # one process task: this many files or bytes at most
THREAD_BATCH_FILES = 8  # smaller, so that a small scan still spreads over the threads
BATCHES_PER_JOB = 2  # batches in flight per worker: one running, one waiting


def _pool(
    options: ScanOptions, files: int, workers: WorkerPool | None, progress: Progress
) -> tuple[Executor, int, bool]:
    """An executor, how many files each task takes, and whether the scan owns the executor.

    Threads for small jobs; processes (each with its own GIL) for large ones: much per-file
    work (decoding, HTML, normalising) holds the GIL, so only processes use every core for
    it. They are the ``workers`` kept between scans when given, else started for this scan
    (see :func:`_process_context`). Either takes files in batches, analysed together.

    Unless kept workers are ready, the compiled kernels are loaded first (the "preparing"
    stage: a moment, but about ten seconds on a machine's first run, which compiles them).
    """
    use_processes = options.processes
    if use_processes is None:
        use_processes = options.jobs > 1 and files >= PROCESS_THRESHOLD
    if use_processes and workers is not None:
        return workers.executor(options.jobs), BATCH_FILES, False
    progress(ProgressEvent("preparing", 0, files))
    context = _process_context() if use_processes else None
    if context is None or context.get_start_method() == "fork":
        warm_up(options.text)  # here, in the threads' process, or before forking: inherited
    if context is not None:
        return ProcessPoolExecutor(options.jobs, mp_context=context), BATCH_FILES, True
    return ThreadPoolExecutor(options.jobs), THREAD_BATCH_FILES, True


def _process_context() -> multiprocessing.context.BaseContext:
    """How worker processes start: ``fork`` where that is safe, else ``spawn``.

    A spawned worker imports everything and loads the compiled kernels again (about a second
    each). Forked workers inherit them ready, but fork is only safe from a process with no
    other threads, and on Linux (not macOS, whose system libraries forbid it, nor Windows,
    which lacks it). A GUI scans from a worker thread: it spawns.
    """
    single_threaded = (
        threading.current_thread() is threading.main_thread() and threading.active_count() == 1
    )
    return multiprocessing.get_context(
        "fork" if sys.platform == "linux" and single_threaded else "spawn"
    )


def _outcomes(
    work: list[Outcome | Entry],
    options: ScanOptions,
    cancel: Callable[[], bool],
    workers: WorkerPool | None,
    progress: Progress,
) -> Iterator[tuple[Outcome, bool]]:
    """Every file's outcome in order, and whether it was computed now rather than cached.

    Files to read go to a pool in batches; with none to read (an unchanged folder) there is
    no pool to start. A pool the scan started is stopped at the end; kept ``workers`` are
    not (batches dropped by a cancel may still finish there, unseen).
    """
    to_read = sum(isinstance(item, Entry) for item in work)
    if not to_read:
        for n, item in enumerate(work):
            if n % 256 == 0 and cancel():
                return
            yield item, False  # type: ignore[misc]
        return
    executor, batch_size, owned = _pool(options, to_read, workers, progress)
    run = partial(fingerprint_batch, options=options)
    window = BATCHES_PER_JOB * options.jobs
    try:
        yield from _in_order(executor, _batches(work, batch_size), run, window, cancel)
    except BrokenProcessPool:
        if workers is not None and not owned:
            workers.shutdown(wait=False)
        raise
    finally:
        if owned:
            executor.shutdown(wait=True)


def _batches(work: Iterable[Outcome | Entry], size: int) -> Iterator[Outcome | list[Entry]]:
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


def _in_order(
    pool: Executor,
    work: Iterable[Outcome | list[Entry]],
    fn: Callable[[list[Entry]], list[Outcome]],
    window: int,
    cancel: Callable[[], bool],
) -> Iterator[tuple[Outcome, bool]]:
    """Outcomes in input order: ready ones pass through, batches of entries run on the pool.

    At most ``window`` batches are in flight; after a cancel nothing new starts and batches not
    yet started are dropped. Yields each outcome with whether it was computed now.
    """
    pending: deque[Future[list[Outcome]] | Outcome] = deque()
    for item in work:
        if cancel():
            break
        pending.append(pool.submit(fn, item) if isinstance(item, list) else item)
        while pending and (len(pending) >= window or not isinstance(pending[0], Future)):
            yield from _settle(pending.popleft())
    for head in pending:
        if not (isinstance(head, Future) and cancel() and head.cancel()):
            yield from _settle(head)


def _settle(item: Future[list[Outcome]] | Outcome) -> Iterator[tuple[Outcome, bool]]:
    if isinstance(item, Future):
        for outcome in item.result():
            yield outcome, True
    else:
        yield item, False


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the length of a scan.

    A scan makes tens of thousands of records that all live on; the collector's full passes
    over them (and over a previous scan's) cost as much as the rest of a rescan, and the scan
    makes few reference cycles for it to find (they are found once it runs again). Reference
    counting still frees everything else at once.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@_cyclic_gc_paused()
def scan(
    root: str,
    options: ScanOptions | None = None,
    *,
    cache: FingerprintCache | None = None,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
    workers: WorkerPool | None = None,
) -> ScanResult:
    """Scan ``root`` and group its near-duplicate articles.

    Args:
        root: the folder.
        options: what to read and how to fingerprint it.
        cache: where to look up and store fingerprints (default: none).
        progress: receives a :class:`ProgressEvent` per stage step and per file.
        cancel: polled between files; once true the scan stops and returns what it finished.
        workers: worker processes kept between scans, used when the scan takes processes
            (default: the scan starts its own).
    """
    options = options or ScanOptions()
    cache = cache or FingerprintCache.disabled()
    started = time.perf_counter()
    if not os.path.isdir(root):
        raise NotADirectoryError(f"not a folder: {root}")
    entries = []
    for entry in walk(root, options.extensions, cancel=cancel):
        entries.append(entry)
        if len(entries) % 200 == 0:
            progress(ProgressEvent("walking", len(entries), 0, current=display_path(entry.path)))
    total, total_bytes = len(entries), sum(e.size for e in entries)
    folder = _cache_keys(root)(root)
    snapshots = cache.enabled and not options.text.whole_folder
    state = _folder_digest(entries, options) if snapshots else ""
    snapshot = cache.load_snapshot(folder, state) if snapshots else None
    if snapshot is not None and len(snapshot.records) != total:
        snapshot = None
    stored = None if snapshot is None else snapshot.records
    if snapshot is not None and not any(record.error for record in snapshot.records):
        files, cached, done_bytes = snapshot.records, total, total_bytes  # unchanged
        records_digest = snapshot.records_digest
        progress(ProgressEvent("fingerprinting", total, total, total_bytes, "", total_bytes))
    else:
        files, cached, done_bytes = _fingerprinted_files(
            root, entries, stored, options, cache, progress, cancel, workers
        )
        records_digest = _records_digest(files) if cache.enabled else ""
    progress(ProgressEvent("indexing", 0, 1, done_bytes))
    digest = _grouping_digest(records_digest, options)
    known_groups = cache.load_groups(folder, digest)
    if known_groups is None:
        pairs, groups = group_files(files, options.k, options.min_chars, options.min_similarity)
        if not cancel():
            cache.put_groups(folder, digest, pairs, groups)
    else:
        pairs, groups = known_groups
    progress(ProgressEvent("grouping", 1, 1, done_bytes))
    cancelled = cancel() or len(files) < total
    if snapshots and not cancelled and files != stored:
        cache.put_snapshot(folder, state, Snapshot(files, records_digest))
    progress(ProgressEvent("done", len(files), total, done_bytes))
    return ScanResult(
        root,
        files,
        pairs,
        groups,
        options,
        cancelled,
        time.perf_counter() - started,
        cached,
        tuple(cache.warnings),
    )


def _fingerprinted_files(
    root: str,
    entries: list[Entry],
    snapshot: tuple[FileRecord, ...] | None,
    options: ScanOptions,
    cache: FingerprintCache,
    progress: Progress,
    cancel: Callable[[], bool],
    workers: WorkerPool | None,
) -> tuple[tuple[FileRecord, ...], int, int]:
    """Every walked file's record, from the snapshot, the cache or reading it.

    New fingerprints go to the cache. Returns the records (fewer when cancelled), how many
    came from the cache, and their files' bytes.
    """
    total, total_bytes = len(entries), sum(e.size for e in entries)
    settings = options.text.version
    cache_key = _cache_keys(root)
    if snapshot is not None:
        # An unchanged folder: every record in one piece; files that failed are tried again.
        work_items = [
            entry if record.error else (record, None)
            for record, entry in zip(snapshot, entries, strict=True)
        ]
    else:
        known = cache.load_folder(cache_key(root), settings)

        def lookup(entry: Entry) -> Outcome | Entry:
            if entry.error:
                return fingerprint_file(entry, options)  # the error is the record: no reading
            size, mtime_ns, hit = known.get(cache_key(entry.path), (-1, -1, None))
            if hit is None or (size, mtime_ns) != (entry.size, entry.mtime_ns):
                return entry
            return _from_cache(entry, hit)

        work_items = [lookup(e) for e in entries]
    records: list[FileRecord] = []
    features: list[Features | None] = []
    fresh: list[tuple[str, int, int, str, CachedFile]] = []
    done_bytes = cached = 0
    outcomes = _outcomes(work_items, options, cancel, workers, progress)
    for n, ((record, feats), computed) in enumerate(outcomes):
        records.append(record)
        features.append(feats)
        done_bytes += record.size
        if computed and not record.error and cache.enabled:
            entry = entries[n]
            key = (cache_key(entry.path), entry.size, entry.mtime_ns, settings)
            fresh.append((*key, _to_cache(record, feats)))
        cached += not computed and not record.error
        if len(fresh) >= 256:
            cache.put_many(fresh)
            fresh.clear()
        if computed or len(records) % 100 == 0 or len(records) == total:  # cached: cheap
            progress(
                ProgressEvent(
                    "fingerprinting",
                    len(records),
                    total,
                    done_bytes,
                    display_path(record.path),
                    total_bytes,
                )
            )
    cache.put_many(fresh)
    if options.text.whole_folder:
        records = _apply_tfidf(records, features)
    return tuple(records), cached, done_bytes


def _folder_digest(entries: list[Entry], options: ScanOptions) -> str:
    """A digest of everything a folder's records are made from.

    The walked files (path, size, modification time, or the walk's error) and the options
    that change a record: the text settings' version and how large files are read.
    """
    digest = hashlib.blake2b(digest_size=16)
    digest.update(repr((options.text.version, options.max_bytes, options.skip_oversize)).encode())
    paths, sizes, mtimes, errors = zip(*entries, strict=True) if entries else ((), (), (), ())
    digest.update(np.array([sizes, mtimes], dtype=np.int64).tobytes())  # no Python per file
    digest.update("\0".join(errors).encode() + b"\n")  # no error message has a line break
    digest.update("\0".join(paths).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _records_digest(files: tuple[FileRecord, ...]) -> str:
    """A digest of what grouping takes from the records.

    Their paths, sizes, times, fingerprints and whether they are readable; the sketches come
    from the same texts as the fingerprints.
    """
    rows = (f"{f.path}\0{f.size}\0{f.mtime_ns}\0{f.fingerprint}\0{f.lead}\0{f.ok}" for f in files)
    data = "\n".join(rows).encode("utf-8", "surrogateescape")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _grouping_digest(records_digest: str, options: ScanOptions) -> str:
    """A digest of everything the groups are made from: the same digest, the same groups."""
    grouping = (GROUPING_VERSION, options.text.version, options.k, options.min_chars)
    text = repr((grouping, options.min_similarity, records_digest))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _apply_tfidf(records: list[FileRecord], features: list[Features | None]) -> list[FileRecord]:
    idf, unseen = idf_table(f for f in features if f is not None)
    return [
        r._replace(fingerprint=tfidf_fingerprint(f, idf, unseen)) if f is not None else r
        for r, f in zip(records, features, strict=True)
    ]
