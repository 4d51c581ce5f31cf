"""Scan a folder: walk, read, fingerprint on a thread pool, index, group.

The result keeps fingerprints and metadata, never the texts, so memory stays bounded for large
folders. Progress goes to a callback; a cancel predicate is polled between files and steps, and a
cancelled scan returns what it finished.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace

import numpy as np

from simdup_gui.engine.decode import DecodeError
from simdup_gui.engine.groups import Group, build_groups
from simdup_gui.engine.index import Pairs, all_pairs, check_k
from simdup_gui.engine.pipeline import TextSettings, extract_text, text_features
from simdup_gui.engine.progress import Progress, ProgressEvent, never, no_progress
from simdup_gui.engine.reader import DEFAULT_MAX_BYTES, ReadError, read_prefix
from simdup_gui.engine.simhash import Features, idf_table, tf_fingerprint, tfidf_fingerprint
from simdup_gui.engine.walk import DEFAULT_EXTENSIONS, Entry, display_path, walk


@dataclass(frozen=True)
class ScanOptions:
    """What to scan and how."""

    k: int = 3
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    text: TextSettings = field(default_factory=TextSettings)
    max_bytes: int = DEFAULT_MAX_BYTES
    jobs: int = max(1, os.cpu_count() or 1)

    def __post_init__(self) -> None:
        """Validate k and the job count."""
        check_k(self.k)
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")


@dataclass(frozen=True)
class FileRecord:
    """What the scan learnt about one file (no text is kept)."""

    path: str
    size: int = 0
    mtime_ns: int = 0
    encoding: str = ""
    encoding_method: str = ""
    fingerprint: int | None = None
    features: int = 0
    chars: int = 0
    notes: tuple[str, ...] = ()
    error: str = ""

    @property
    def ok(self) -> bool:
        """Whether the file has a fingerprint."""
        return self.fingerprint is not None and not self.error


@dataclass(frozen=True)
class ScanResult:
    """Every file seen, the pairs within k among the readable ones, and the groups."""

    root: str
    files: tuple[FileRecord, ...]
    pairs: Pairs
    groups: tuple[Group, ...]
    options: ScanOptions
    cancelled: bool = False
    seconds: float = 0.0

    @property
    def errors(self) -> tuple[FileRecord, ...]:
        """The files that could not be read or fingerprinted."""
        return tuple(f for f in self.files if f.error)

    def regroup(self, k: int) -> ScanResult:
        """The same files grouped at another k, from the fingerprints in memory (no rescan)."""
        pairs, groups = group_files(self.files, k)
        return replace(self, pairs=pairs, groups=groups, options=replace(self.options, k=k))


def fingerprint_file(entry: Entry, options: ScanOptions) -> tuple[FileRecord, Features | None]:
    """Read, decode, strip and fingerprint one file; errors become part of the record."""
    record = FileRecord(display_path(entry.path), entry.size, entry.mtime_ns, error=entry.error)
    if record.error:
        return record, None
    notes = []
    if record.path != entry.path:
        notes.append("file name is not valid UTF-8")
    try:
        data, truncated = read_prefix(entry.path, options.max_bytes)
        if truncated:
            notes.append(f"only the first {options.max_bytes} bytes read")
        extracted = extract_text(data, entry.path)
    except (ReadError, DecodeError) as exc:
        return replace(record, error=str(exc), notes=tuple(notes)), None
    if extracted.replaced:
        notes.append(f"{extracted.replaced} undecodable bytes replaced")
    record = replace(
        record,
        size=max(record.size, len(data)),
        encoding=extracted.encoding,
        encoding_method=extracted.encoding_method,
        chars=len(extracted.text),
    )
    if not extracted.text.strip():
        return replace(record, error="no text", notes=tuple(notes)), None
    features = text_features(extracted.text, options.text)
    if features.is_short:
        notes.append(f"short text: {len(features)} distinct words")
    record = replace(record, features=len(features), notes=tuple(notes))
    if options.text.weighting == "tf":
        return replace(record, fingerprint=tf_fingerprint(features)), None
    return record, features


def _bounded_map(
    pool: ThreadPoolExecutor,
    fn: Callable[[Entry], tuple[FileRecord, Features | None]],
    entries: Iterable[Entry],
    window: int,
    cancel: Callable[[], bool],
) -> Iterator[tuple[FileRecord, Features | None]]:
    """Like ``pool.map`` in order, but with at most ``window`` files in flight and cancellable."""
    pending: list[Future[tuple[FileRecord, Features | None]]] = []
    for entry in entries:
        if cancel():
            break
        pending.append(pool.submit(fn, entry))
        if len(pending) >= window:
            yield pending.pop(0).result()
    for future in pending:
        if cancel():
            future.cancel()
        elif not future.cancelled():
            yield future.result()


def group_files(files: tuple[FileRecord, ...], k: int) -> tuple[Pairs, tuple[Group, ...]]:
    """Pairs within ``k`` among the fingerprinted files, and their groups."""
    ok = [n for n, f in enumerate(files) if f.ok]
    fps = np.array([files[n].fingerprint for n in ok], dtype=np.uint64)
    local = all_pairs(fps, k)
    pairs = Pairs(np.array(ok, np.int64)[local.i], np.array(ok, np.int64)[local.j], local.distance)
    groups = build_groups(
        fps, local, [files[n].chars for n in ok], [files[n].path for n in ok], file_ids=ok
    )
    return pairs, groups


def scan(
    root: str,
    options: ScanOptions | None = None,
    *,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
) -> ScanResult:
    """Scan ``root`` and group its near-duplicate articles."""
    options = options or ScanOptions()
    started = time.perf_counter()
    if not os.path.isdir(root):
        raise NotADirectoryError(f"not a folder: {root}")
    entries = []
    for entry in walk(root, options.extensions, cancel=cancel):
        entries.append(entry)
        if len(entries) % 500 == 0:
            progress(ProgressEvent("walking", len(entries), 0, current=display_path(entry.path)))
    total, total_bytes = len(entries), sum(e.size for e in entries)
    records: list[FileRecord] = []
    features: list[Features | None] = []
    done_bytes = 0
    with ThreadPoolExecutor(max_workers=options.jobs) as pool:
        work = _bounded_map(
            pool, lambda e: fingerprint_file(e, options), entries, 4 * options.jobs, cancel
        )
        for record, feats in work:
            records.append(record)
            features.append(feats)
            done_bytes += record.size
            progress(ProgressEvent("fingerprinting", len(records), total, done_bytes, record.path))
    if options.text.weighting == "tfidf":
        records = _apply_tfidf(records, features)
    del features
    files = tuple(records)
    progress(ProgressEvent("indexing", 0, 1, total_bytes))
    pairs, groups = group_files(files, options.k)
    progress(ProgressEvent("grouping", 1, 1, total_bytes))
    cancelled = cancel() or len(files) < total
    progress(ProgressEvent("done", len(files), total, done_bytes))
    return ScanResult(root, files, pairs, groups, options, cancelled, time.perf_counter() - started)


def _apply_tfidf(records: list[FileRecord], features: list[Features | None]) -> list[FileRecord]:
    idf, unseen = idf_table(f for f in features if f is not None)
    return [
        replace(r, fingerprint=tfidf_fingerprint(f, idf, unseen)) if f is not None else r
        for r, f in zip(records, features, strict=True)
    ]
