"""Scan a folder: walk, read, fingerprint in batches on threads or worker processes, index, group.

This module puts the steps together with the cache: reading one file is ``fingerprinting``,
running batches of them on a pool is ``batches``, pairing and grouping is ``matching``. The
result keeps fingerprints and metadata, never the texts, so memory stays bounded for large
folders. Unchanged files (and an unchanged folder's groups) come from the cache. Progress goes
to a callback; a cancel predicate is polled between batches and steps, and a cancelled scan
returns what it finished.
"""

from __future__ import annotations

import gc
import hashlib
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from simdup_gui.engine.folders import (
    Walked,
    cache_keys,
    common_root,
    distinct_folders,
    folder_state,
    folders_key,
    walk_folders,
)
from simdup_gui.engine.kernels import groups_plain, plain_kernels
from simdup_gui.engine.match.groups import kept_files
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.progress import Progress, ProgressEvent, never, no_progress
from simdup_gui.engine.read.walk import Entry, display_path
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.store.cache import CachedFile, FingerprintCache, Snapshot

if TYPE_CHECKING:
    from simdup_gui.engine.fingerprint.file_records import Fingerprinted
    from simdup_gui.engine.fingerprint.simhash import Features
    from simdup_gui.engine.match.matching import Grouper
    from simdup_gui.engine.run.workers import Pool

# An unchanged folder is read from its snapshot and grouped from the cache: the reading
# (fingerprint.file_records, run.batches) and the grouping (match.matching) are imported when a scan
# needs them, so such a rescan does without them (20-30 ms of a 0.45 s command).


def _from_cache(entry: Entry, cached: CachedFile) -> Fingerprinted:
    record = cached.record._replace(path=entry.path, size=entry.size, mtime_ns=entry.mtime_ns)
    return record, cached.tfidf_features


def _to_cache(record: FileRecord, features: Features | None) -> CachedFile:
    return CachedFile(record._replace(path="", size=0, mtime_ns=0), features)


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


class _Read(NamedTuple):
    """One folder's records, as the grouping takes them, and what its walk left out."""

    files: tuple[FileRecord, ...]
    total: int  # files walked (more than ``files`` when cancelled)
    cached: int
    done_bytes: int
    records_digest: str
    skipped: list[str]
    other_types: Counter[str]
    other_files: list[str]


@_cyclic_gc_paused()
def scan(
    root: str | Sequence[str] | Sequence[Walked],
    options: ScanOptions | None = None,
    *,
    cache: FingerprintCache | None = None,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
    workers: Pool | None = None,
    grouper: Grouper | None = None,
) -> ScanResult:
    """Scan a folder (or several, grouped together) and group its near-duplicate articles.

    Args:
        root: the folder, or several folders (a folder inside another is read once), or
            the folders as :func:`~simdup_gui.engine.folders.walk_folders` walked them with
            these options (not walked again).
        options: what to read and how to fingerprint it.
        cache: where to look up and store fingerprints (default: none).
        progress: receives a :class:`ProgressEvent` per stage step and per file.
        cancel: polled between files; once true the scan stops and returns what it finished.
        workers: worker processes kept between scans, used when the scan takes processes
            (default: the scan starts its own).
        grouper: how the records are paired and grouped (default: :func:`group_here`; a
            cluster's groups them where it is, ``cluster/table.py``).

    The result's ``root`` is the folder, or the folders' common parent (``roots`` lists them).
    """
    options = options or ScanOptions()
    cache = cache or FingerprintCache.disabled()
    started = time.perf_counter()
    if isinstance(root, str):
        root = [root]
    if root and all(isinstance(folder, Walked) for folder in root):
        walked = list(root)
        roots = [part.root for part in walked]
    else:
        roots = distinct_folders(root)
        walked = walk_folders(roots, options, progress, cancel)
    parts = []
    for folder in walked:
        parts.append(_read_folder(folder, options, cache, progress, cancel, workers))
        if cancel():
            break
    files = tuple(f for part in parts for f in part.files)
    done_bytes = sum(part.done_bytes for part in parts)
    progress(ProgressEvent("indexing", 0, 1, done_bytes))
    key = folders_key(walked)
    digest = _grouping_digest("\n".join(part.records_digest for part in parts), options)
    known_groups = cache.load_groups(key, digest, len(files))
    if known_groups is None:
        from simdup_gui.engine.match.matching import group_here

        here = partial(group_here, jobs=options.run.jobs, workers=workers)
        with plain_kernels(groups_plain(len(files))):
            pairs, groups = (grouper or here)(files, options, cancel)
        if not cancel():
            cache.put_groups(key, digest, pairs, groups)
    else:
        pairs, groups = known_groups
    progress(ProgressEvent("grouping", 1, 1, done_bytes))
    total = sum(part.total for part in parts)
    cancelled = cancel() or len(files) < total or len(parts) < len(roots)
    progress(ProgressEvent("done", len(files), total, done_bytes))
    other_types = sum((part.other_types for part in parts), Counter[str]())
    return ScanResult(
        common_root(roots),
        files,
        pairs,
        groups,
        options,
        cancelled,
        time.perf_counter() - started,
        sum(part.cached for part in parts),
        tuple(cache.warnings),
        tuple(folder for part in parts for folder in part.skipped),
        kept=kept_files(files, options.group.reference_folders),
        other_types=tuple(other_types.most_common()),
        other_files=tuple(path for part in parts for path in part.other_files),
        roots=tuple(roots) if len(roots) > 1 else (),
    )


def scan_article(path: str, options: ScanOptions | None = None) -> ScanResult:
    """One article read as a scan of it alone (its folder the root; no group, no cache)."""
    from simdup_gui.engine.fingerprint.file_records import fingerprint_batch
    from simdup_gui.engine.records import Pairs

    options = options or ScanOptions()
    started = time.perf_counter()
    path = os.path.abspath(path)
    info = os.stat(path)
    record = fingerprint_batch([Entry(path, info.st_size, info.st_mtime_ns)], options.read)[0][0]
    seconds = time.perf_counter() - started
    return ScanResult(os.path.dirname(path), (record,), Pairs.empty(), (), options, seconds=seconds)


def _read_folder(
    walked: Walked,
    options: ScanOptions,
    cache: FingerprintCache,
    progress: Progress,
    cancel: Callable[[], bool],
    workers: Pool | None,
) -> _Read:
    """A walked folder's records: its snapshot when unchanged, else file by file."""
    root, entries, skipped, other_types, other_files = walked
    total, total_bytes = len(entries), sum(e.size for e in entries)
    folder = cache_keys(root)(root)
    snapshots = cache.enabled and not options.read.text.whole_folder
    state = folder_state(walked, options) if snapshots else ""
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
    if snapshots and not cancel() and len(files) == total and files != stored:
        cache.put_snapshot(folder, state, Snapshot(files, records_digest))
    return _Read(
        files, total, cached, done_bytes, records_digest, skipped, other_types, other_files
    )


def _fingerprinted_files(
    root: str,
    entries: list[Entry],
    snapshot: tuple[FileRecord, ...] | None,
    options: ScanOptions,
    cache: FingerprintCache,
    progress: Progress,
    cancel: Callable[[], bool],
    workers: Pool | None,
) -> tuple[tuple[FileRecord, ...], int, int]:
    """Every walked file's record, from the snapshot, the cache or reading it.

    New fingerprints go to the cache. Returns the records (fewer when cancelled), how many
    came from the cache, and their files' bytes.
    """
    from simdup_gui.engine.fingerprint.file_records import fingerprint_file
    from simdup_gui.engine.fingerprint.simhash import with_tfidf
    from simdup_gui.engine.run.batches import in_batches

    total, total_bytes = len(entries), sum(e.size for e in entries)
    settings = options.read.key
    cache_key = cache_keys(root)
    if snapshot is not None:
        # An unchanged folder: every record in one piece; files that failed are tried again.
        work_items = [
            entry if record.error else (record, None)
            for record, entry in zip(snapshot, entries, strict=True)
        ]
    else:
        known = cache.load_folder(cache_key(root), settings)

        def lookup(entry: Entry) -> Fingerprinted | Entry:
            if entry.error:
                return fingerprint_file(entry, options.read)  # the error is the record: no reading
            size, mtime_ns, hit = known.get(cache_key(entry.path), (-1, -1, None))
            if hit is None or (size, mtime_ns) != (entry.size, entry.mtime_ns):
                return entry
            return _from_cache(entry, hit)

        work_items = [lookup(e) for e in entries]
    records: list[FileRecord] = []
    features: list[Features | None] = []
    fresh: list[tuple[str, int, int, str, CachedFile]] = []
    done_bytes = cached = 0
    results = in_batches(work_items, options, cancel, workers, progress)
    for n, ((record, feats), computed) in enumerate(results):
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
    if options.read.text.whole_folder:
        records = with_tfidf(records, features)
    return tuple(records), cached, done_bytes


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
    text = repr((options.grouping_key, records_digest))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
