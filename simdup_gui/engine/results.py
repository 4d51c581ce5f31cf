"""What a scan gives: every file's record, the pairs that link them, and the groups.

Measuring and regrouping read files and group them again: their modules are imported when
first asked for, so a command that only shows a result (a rescan's report) does without them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from simdup_gui.engine.match.groups import Group, kept_files
from simdup_gui.engine.match.methods import member_measures
from simdup_gui.engine.options import ScanOptions
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
        bits = member_measures(self.options.text.method)[0]
        prints = {m.file: bits(self.files[m.file]) for m in group.members}
        return group.with_reference(file, prints, self._like())

    def _like(self) -> Callable[[int, int], tuple[float, bool]]:
        """Two files' similarity by the scan's method, and whether one's text holds the other's.

        The text similarity reads the two files again when their sketches cannot tell.
        """
        files, method = self.files, self.options.text.method
        if method.name != "default":
            alike = member_measures(method)[1]
            return lambda a, b: (alike(files[a], files[b]), False)
        from simdup_gui.engine.fingerprint.files import TextShingles
        from simdup_gui.engine.match.exact import exact_similarity
        from simdup_gui.engine.match.matching import likeness

        shingles, floor = TextShingles(files, self.options), self.options.min_similarity
        return lambda a, b: likeness(
            files[a], files[b], floor, partial(exact_similarity, shingles, a, b)
        )

    def regroup(
        self,
        k: int,
        min_chars: int | None = None,
        min_similarity: float | None = None,
        not_duplicates: frozenset[tuple[str, str]] | None = None,
        reference_folders: tuple[str, ...] | None = None,
        cancel: Callable[[], bool] = never,
    ) -> ScanResult:
        """The same files grouped at another k (or length or similarity floor), no rescan.

        ``cancel`` is polled between steps; once it is true the groups are incomplete.

        A library check's groups are the library's matches: they are kept as they are.
        """
        if self.library:
            return self
        options = replace(
            self.options,
            k=k,
            min_chars=self.options.min_chars if min_chars is None else min_chars,
            min_similarity=(
                self.options.min_similarity if min_similarity is None else min_similarity
            ),
            not_duplicates=(
                self.options.not_duplicates if not_duplicates is None else not_duplicates
            ),
            reference_folders=(
                self.options.reference_folders if reference_folders is None else reference_folders
            ),
        )
        from simdup_gui.engine.match.matching import group_here

        pairs, groups = group_here(self.files, options, cancel)
        kept = kept_files(self.files, options.reference_folders)
        return replace(self, pairs=pairs, groups=groups, options=options, kept=kept)
