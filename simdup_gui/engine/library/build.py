"""Adding to a library and taking out of it: folders of articles, files of fingerprints."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from simdup_gui.engine.library.store import (
    MAX_K,
    Contents,
    Imported,
    Library,
    LibraryError,
    write_generation,
    writing,
)
from simdup_gui.engine.match.fingerprint_lists import (
    load_fingerprints,
    load_parquet_fingerprints,
)
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.progress import Progress, never, no_progress
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.scan import scan
from simdup_gui.engine.store.cache import FingerprintCache


@dataclass(frozen=True)
class Added:
    """What an add did: articles new, changed, unchanged, vanished (and dropped), unreadable."""

    new: int = 0
    changed: int = 0
    unchanged: int = 0
    vanished: tuple[str, ...] = ()
    pruned: bool = False
    unreadable: tuple[FileRecord, ...] = ()
    imported: int = 0
    written: bool = False  # a new generation was written (nothing changed: none)
    cancelled: bool = False


def _max_k(current: Library | None, wanted: int | None) -> int:
    """The k a library answers up to: a new one's as asked (default 8), an existing one's own."""
    if current is None:
        return MAX_K if wanted is None else wanted
    if wanted is not None and wanted != current.max_k:
        raise LibraryError(f"{current.folder}: answers k up to {current.max_k}, not {wanted}")
    return current.max_k


def _under(path: str, folder: str) -> bool:
    folder = os.path.abspath(folder).rstrip(os.sep) + os.sep
    return os.path.abspath(path).startswith(folder) or os.path.abspath(path) == folder[:-1]


def add_folders(
    folder: str,
    sources: Sequence[str],
    options: ScanOptions,
    *,
    prune: bool = False,
    cache: FingerprintCache | None = None,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
    max_k: int | None = None,
) -> Added:
    """Fingerprint the articles of ``sources`` into the library at ``folder``.

    New and changed articles are read (the fingerprint cache serves unchanged ones); articles
    of those folders that are gone are reported, and dropped with ``prune``. An add that
    changes nothing writes nothing, and so does a cancelled one.
    """
    with writing(folder, options.read.text, progress) as current:
        old = current.contents() if current else Contents.empty()
        known = {r.path: r for r in old.articles}
        found: dict[str, FileRecord] = {}
        unreadable: list[FileRecord] = []
        for source in sources:
            result = scan(
                os.path.abspath(source), options, cache=cache, progress=progress, cancel=cancel
            )
            if result.cancelled:
                return Added(cancelled=True)
            for record in result.files:
                if record.ok:
                    found[record.path] = record
                else:
                    unreadable.append(record)
        unchanged = {
            p
            for p, r in found.items()
            if p in known and (known[p].size, known[p].mtime_ns) == (r.size, r.mtime_ns)
        }
        changed = {p for p in found if p in known and p not in unchanged}
        new = [p for p in found if p not in known]
        there = {r.path for r in unreadable}  # unreadable now, not gone: kept as it was
        vanished = tuple(
            p
            for p in known
            if p not in found and p not in there and any(_under(p, s) for s in sources)
        )
        kept = [r for p, r in known.items() if p not in found and not (prune and p in vanished)]
        articles = tuple(sorted([*kept, *found.values()], key=lambda r: r.path))
        if articles != old.articles or current is None:
            contents = Contents(articles, old.imported, old.imported_fingerprints)
            write_generation(folder, contents, options.read.text, _max_k(current, max_k))
            written = True
        else:
            written = False
        return Added(
            len(new), len(changed), len(unchanged), vanished, prune, tuple(unreadable), 0, written
        )


def add_fingerprints(
    folder: str,
    source: str,
    options: ScanOptions,
    max_k: int | None = None,
    progress: Progress = no_progress,
) -> Added:
    """Import a file of precomputed fingerprints.

    The formats ``simdup pairs`` reads, or Parquet with ``id`` and ``fingerprint`` columns.

    Each row is an entry named ``source#id`` (the id column, or the row number from 1);
    importing the same file again replaces its rows.
    """
    ids: list[str] = []
    if source.lower().endswith(".parquet"):
        fingerprints, ids = load_parquet_fingerprints(source)
    else:
        fingerprints = load_fingerprints(source)
    name = os.path.abspath(source)
    with writing(folder, options.read.text, progress) as current:
        old = (current.contents() if current else Contents.empty()).without_imported(
            lambda part: part.source == name  # importing a file again replaces its rows
        )
        contents = Contents(
            old.articles,
            (*old.imported, Imported(name, len(fingerprints), tuple(ids))),
            np.concatenate([old.imported_fingerprints, fingerprints]),
        )
        write_generation(folder, contents, options.read.text, _max_k(current, max_k))
    return Added(imported=len(fingerprints), written=True)


def remove(folder: str, paths: Sequence[str], progress: Progress = no_progress) -> int:
    """Drop the articles at or under ``paths`` (and imported files named there); how many."""
    with writing(folder, None, progress) as library:
        assert library is not None
        old = library.contents()
        kept = old.without_imported(lambda part: any(_under(part.source, p) for p in paths))
        articles = tuple(r for r in old.articles if not any(_under(r.path, p) for p in paths))
        dropped = len(old.articles) - len(articles) + len(old.imported_fingerprints)
        dropped -= len(kept.imported_fingerprints)
        if dropped:
            contents = Contents(articles, kept.imported, kept.imported_fingerprints)
            write_generation(folder, contents, library.settings, library.max_k)
        return dropped


__all__ = ["Added", "LibraryError", "add_fingerprints", "add_folders", "remove"]
