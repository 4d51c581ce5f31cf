"""What a scan gives: every file's record, the pairs that link them, and the groups.

Measuring and regrouping read files and group them again: their modules are imported when
first asked for, so a command that only shows a result (a rescan's report) does without them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from simdup_gui.engine.match.groups import Group, kept_files
from simdup_gui.engine.options import GroupOptions, ScanOptions
from simdup_gui.engine.progress import never
from simdup_gui.engine.read.walk import is_link
from simdup_gui.engine.records import FileRecord, Pairs


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
    skipped_folders: tuple[str, ...] = ()  # hidden and tool folders, not walked
    kept: frozenset[int] = frozenset()  # files never marked, moved or trashed (a library's)
    other_types: tuple[tuple[str, int], ...] = ()  # files not read for their type: (.ext, count)
    other_files: tuple[str, ...] = ()  # and their paths (a saved result's: not kept)
    library: str = ""  # the library the files were checked against (the groups are its)
    roots: tuple[str, ...] = ()  # the folders scanned, when several (``root``: their parent)

    @property
    def errors(self) -> tuple[FileRecord, ...]:
        """The files that could not be read or fingerprinted (links are not errors)."""
        return tuple(f for f in self.files if f.error and not is_link(f.error))

    @property
    def links(self) -> tuple[FileRecord, ...]:
        """The symbolic links to files: rows that name their target, never read."""
        return tuple(f for f in self.files if f.error and is_link(f.error))

    def likeness(self, a: int, b: int) -> float:
        """Two files' similarity by the scan's method: the text similarity, or its own."""
        return self._like()(a, b)[0]

    def with_reference(self, group: Group, file: int) -> Group:
        """``group`` around its member ``file``, each member measured against it anew."""
        method = self.options.method
        prints = {m.file: method.bits(self.files[m.file]) for m in group.members}
        return group.with_reference(file, prints, self._like())

    def _like(self) -> Callable[[int, int], tuple[float, bool]]:
        """Two files' similarity by the scan's method, and whether one's text holds the other's.

        The text similarity reads the two files again when their sketches cannot tell.
        """
        from simdup_gui.engine.fingerprint.file_records import TextShingles

        shingles = TextShingles(self.files, self.options.read)
        return self.options.method.likeness(self.files, self.options.group.min_similarity, shingles)

    def regroup(self, group: GroupOptions, cancel: Callable[[], bool] = never) -> ScanResult:
        """The same files grouped with other grouping options (k, floors, ...), no rescan.

        ``cancel`` is polled between steps; once it is true the groups are incomplete.

        A library check's groups are the library's matches: they are kept as they are.
        """
        if self.library:
            return self
        options = replace(self.options, group=group)
        from simdup_gui.engine.match.matching import group_here

        pairs, groups = group_here(self.files, options, cancel)
        kept = kept_files(self.files, group.reference_folders)
        return replace(self, pairs=pairs, groups=groups, options=options, kept=kept)
