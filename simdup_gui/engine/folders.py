"""The folders a scan reads: each walked once, and a digest of each one's state.

A folder's state is everything its records are made from: the walked files (path, size,
modification time, or the walk's error) and the options that change a record. An unchanged
state lets a rescan take the folder's records whole (``store/snapshot.py``) and the command
its last report (``store/kept_reports.py``). Nothing heavy is imported here, so the command can
find an unchanged folder before it loads the rest.
"""

from __future__ import annotations

import hashlib
import os
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from typing import NamedTuple

from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.progress import Progress, ProgressEvent, never, no_progress
from simdup_gui.engine.read.walk import Entry, display_path, walk


class Walked(NamedTuple):
    """One folder walked: its files, and what the walk left out."""

    root: str
    entries: list[Entry]
    skipped: list[str]  # hidden, tool and excluded folders
    other_types: Counter[str]  # files not read for their type, by extension
    other_files: list[str]  # and their paths


def common_root(folders: Sequence[str]) -> str:
    """The folder a scan's result is of: its one folder, or the folder that holds all of them."""
    if len(folders) == 1:
        return folders[0]
    return os.path.commonpath([os.path.abspath(folder) for folder in folders])


def distinct_folders(roots: Sequence[str]) -> list[str]:
    """The folders, each once: one inside another is left out (its files are the other's).

    Paths are compared in the system's case (on Windows, in any case).

    Raises:
        NotADirectoryError: no folder, or one that is not a folder.
    """
    if not roots:
        raise NotADirectoryError("no folder to scan")
    for folder in roots:
        if not os.path.isdir(folder):
            raise NotADirectoryError(f"not a folder: {folder}")
    full = [os.path.normcase(os.path.join(os.path.abspath(folder), "")) for folder in roots]
    return [
        folder
        for n, folder in enumerate(roots)
        if not any(
            full[n].startswith(other) and (full[n] != other or m < n)
            for m, other in enumerate(full)
            if m != n
        )
    ]


def walk_folders(
    roots: Sequence[str],
    options: ScanOptions,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
) -> list[Walked]:
    """Walk each of the :func:`distinct_folders` of ``roots`` (fewer when cancelled)."""
    walked = []
    for root in distinct_folders(roots):
        entries: list[Entry] = []
        skipped: list[str] = []
        other_types: Counter[str] = Counter()
        other_files: list[str] = []
        files = walk(
            root,
            options.walk.extensions,
            cancel=cancel,
            skipped=skipped,
            other_types=other_types,
            other_files=other_files,
            excluded=options.walk.excluded_folders,
        )
        for entry in files:
            entries.append(entry)
            if len(entries) % 200 == 0:
                event = ProgressEvent("walking", len(entries), 0, current=display_path(entry.path))
                progress(event)
        walked.append(Walked(root, entries, skipped, other_types, other_files))
        if cancel():
            break
    return walked


def cache_keys(root: str) -> Callable[[str], str]:
    r"""The cache's name for each path under ``root``: absolute, undecodable bytes escaped.

    Where a path's bytes can be other than UTF-8 (not on Windows), its backslashes are doubled
    first, so a name with the byte 0xFF and one with the four characters ``\xff`` never share a
    key. Every walked path starts with ``root``, so only the root is made absolute.
    """
    base = os.path.abspath(root)
    if root.endswith(os.sep) and not base.endswith(os.sep):
        base += os.sep
    cut = len(root)
    if os.sep == "\\":
        return lambda path: display_path(base + path[cut:])
    return lambda path: display_path((base + path[cut:]).replace("\\", "\\\\"))


def folders_key(walked: Sequence[Walked]) -> str:
    """The cache's name for a scan of these folders (together): their absolute paths."""
    return "\n".join(cache_keys(part.root)(part.root) for part in walked)


def folder_state(walked: Walked, options: ScanOptions) -> str:
    """A digest of everything a folder's records are made from.

    The walked files (path, size, modification time, or the walk's error) and the options
    that change a record (:attr:`ReadOptions.key`).
    """
    digest = hashlib.blake2b(digest_size=16)
    digest.update(options.read.key.encode())
    entries = walked.entries  # each field taken alone: zip(*entries) makes an iterator per file
    digest.update(array("q", [entry.size for entry in entries]).tobytes())
    digest.update(array("q", [entry.mtime_ns for entry in entries]).tobytes())
    errors = "\0".join([entry.error for entry in entries])  # no error message has a line break
    digest.update(errors.encode() + b"\n")
    digest.update("\0".join([entry.path for entry in entries]).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()
