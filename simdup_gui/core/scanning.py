"""What a scan from the app is: its folders, the library it is checked against, its options.

Decisions only, with no Qt: the window asks for the folders and shows what comes back. A
:class:`ScanRequest` says what is scanned and runs it (on any thread); the functions below
say with which options a folder is checked against a library or added to one, and which
folders the start page offers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from simdup_gui.engine.folders import common_root
from simdup_gui.engine.library.check import check_folder
from simdup_gui.engine.library.store import Library
from simdup_gui.engine.methods import method_named
from simdup_gui.engine.options import ScanOptions, TextSettings
from simdup_gui.engine.progress import CancelToken, ProgressEvent
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.run.workers import WorkerPool
from simdup_gui.engine.scan import scan
from simdup_gui.engine.store.cache import FingerprintCache

RECENT_LIMIT = 8  # folders offered on the start page


@dataclass(frozen=True)
class ScanRequest:
    """A folder scanned (or several, together), or one folder checked against a library."""

    folders: tuple[str, ...]
    library: str = ""  # the library one folder is checked against ("" if none)

    @classmethod
    def of(cls, folder: str | Sequence[str], library: str = "") -> ScanRequest:
        """One folder (checked against ``library`` if given), or several scanned together."""
        if isinstance(folder, str):
            return cls((folder,), library)
        return cls(tuple(folder))

    @classmethod
    def of_result(cls, result: ScanResult) -> ScanRequest:
        """The request that scans a result's folders again (against its library, if any)."""
        return cls.of(result.root if len(result.roots) < 2 else result.roots, result.library or "")

    @property
    def root(self) -> str:
        """The folder scanned, or the folder that holds all of them (as the result's)."""
        return common_root(self.folders)

    def missing(self) -> str:
        """The first of the folders that is not a folder ("" if each is one).

        A check against a library takes one article too.
        """
        article = self.library and len(self.folders) == 1 and os.path.isfile(self.folders[0])
        return "" if article else next((f for f in self.folders if not os.path.isdir(f)), "")

    def run(
        self,
        options: ScanOptions,
        progress: Callable[[ProgressEvent], None],
        cancel: CancelToken,
        workers: WorkerPool | None = None,
    ) -> ScanResult:
        """Scan (with the fingerprint cache), or check the folder against the library."""
        if self.library:
            opened = Library.open(self.library)
            wanted = checked_with(options, opened.settings)
            return check_folder(opened, self.folders[0], wanted, progress=progress, cancel=cancel)
        cache = FingerprintCache.default()
        try:
            return scan(
                self.folders,
                options,
                cache=cache,
                progress=progress,
                cancel=cancel,
                workers=workers,
            )
        finally:
            cache.close()


def checked_with(options: ScanOptions, kept: TextSettings) -> ScanOptions:
    """The options a folder is checked against a library built with ``kept`` with.

    The library's fingerprints are compared, so its text settings are taken; the similarity
    floor chosen holds for the library's own method only (another method's floor is not its).
    """
    floor = options.group.min_similarity if options.method == kept.method else kept.method.floor
    return replace(
        options,
        read=replace(options.read, text=kept),
        group=replace(options.group, min_similarity=floor),
    )


def added_with(options: ScanOptions, library: str) -> ScanOptions:
    """The options a folder is added to ``library`` with: its settings, or (new) the default's.

    A library keeps the default method's fingerprints whatever the app's method is.
    """
    if os.path.isfile(os.path.join(library, "library.json")):
        text = Library.open(library).settings
    else:
        text = replace(options.read.text, method=method_named("default"))
    return replace(options, read=replace(options.read, text=text))


def remembered(recent: Sequence[str], folder: str) -> list[str]:
    """The folders the start page offers after ``folder`` was scanned: the latest first."""
    return [folder, *(f for f in recent if f != folder)][:RECENT_LIMIT]
