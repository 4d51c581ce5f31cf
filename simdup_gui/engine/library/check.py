"""Checking new articles, or fingerprints, against a library.

A target and a library article are a match when a scan of both together would pair them:
candidates are the library fingerprints within k of the target's (the stored index) and, from
the loose k on with a similarity floor, the articles whose openings are within LEAD_K and those
whose sketches agree on a band; each must then share at least the floor of its shingles or, from
the loose k on, lie inside the other text or hold it (``default_measure.contained``: a cut copy, an
article in a portal's page). As in a scan (``default_measure``), a text that two library
articles which are not copies of each other both hold is material they share (a stub of a
family's header and footer, a quoted passage): it matches neither as held. A similarity just
above the floor is checked on the two texts, read again where both files are still as they
were. Imported fingerprints have no text: they match on the distance alone.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from simdup_gui.engine.fingerprint.codes import SKETCH
from simdup_gui.engine.fingerprint.file_records import TextShingles
from simdup_gui.engine.fingerprint.shingles import (
    BANDS,
    band_keys,
    exact_jaccard,
    jaccard,
    sketch_matrix,
)
from simdup_gui.engine.library.store import Library
from simdup_gui.engine.match.default_measure import BANDS_K, LEAD_K, STUB, contained
from simdup_gui.engine.match.exact import NEAR_FLOOR, near
from simdup_gui.engine.match.groups import Group, Member
from simdup_gui.engine.match.index import FingerprintIndex
from simdup_gui.engine.match.template import TEMPLATE_SHARE, template_shares
from simdup_gui.engine.options import ReadOptions, ScanOptions
from simdup_gui.engine.progress import Progress, never, no_progress
from simdup_gui.engine.read.walk import path_key
from simdup_gui.engine.records import FileRecord, Pairs
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.scan import scan, scan_article


@dataclass(frozen=True)
class Match:
    """A library entry near a target."""

    entry: int
    distance: int
    similarity: float | None  # None: an imported fingerprint (no text to compare)
    contained: bool = False  # matched only as one text inside the other (under the floor)


def check_fingerprint(library: Library, fingerprint: int, k: int) -> list[Match]:
    """Library entries within ``k`` bits of ``fingerprint``, nearest first."""
    ids, distances = library.index(k).query(fingerprint, k)
    order = np.lexsort((ids, distances))
    return [Match(int(ids[n]), int(distances[n]), None) for n in order]


class ArticleChecker:
    """Checks article records against a library's articles and fingerprints."""

    def __init__(
        self, library: Library, k: int, min_similarity: float, read: ReadOptions | None = None
    ) -> None:
        """Prepare what the loose candidates need (openings and sketch bands), if they apply.

        ``read``: how the targets were read, to read two texts again when their similarity is
        just above the floor (None: the estimates decide).

        Raises:
            LibraryError: the library was built by a simdup whose fingerprints differ.
        """
        library.refuse_if_stale()
        self.library, self.k, self.floor, self.read = library, k, min_similarity, read
        self._shared: dict[int, bool] = {}  # library articles held by two that are not copies
        self.loose = k >= BANDS_K and min_similarity > 0
        self.articles = library.articles() if library.article_count else ()
        self._leads: FingerprintIndex | None = None
        self._lead_ids = np.empty(0, np.int64)
        self._bands: list[dict[int, list[int]]] = [defaultdict(list) for _ in range(BANDS)]
        if self.loose and self.articles:
            with_lead = [n for n, r in enumerate(self.articles) if r.lead is not None]
            self._lead_ids = np.array(with_lead, dtype=np.int64)
            leads = np.array([self.articles[n].lead for n in with_lead], dtype=np.uint64)
            self._leads = FingerprintIndex(leads, LEAD_K) if len(leads) else None
            self._keys, self._valid = band_keys(sketch_matrix([r.sketch for r in self.articles]))
            for band in range(BANDS):
                for n in np.flatnonzero(self._valid[:, band]).tolist():
                    self._bands[band][int(self._keys[n, band])].append(n)

    def matches(self, records: Sequence[FileRecord]) -> list[list[Match]]:
        """Each record's matches (nearest first); a record without a fingerprint has none."""
        out: list[list[Match]] = [[] for _ in records]
        readable = [n for n, r in enumerate(records) if r.ok]
        if self.loose and readable:
            keys, valid = band_keys(sketch_matrix([records[n].sketch for n in readable]))
        for row, n in enumerate(readable):
            record = records[n]
            ids, _ = self.library.index(self.k).query(record.fingerprint or 0, self.k)
            candidates = set(ids.tolist())
            if self.loose:
                if self._leads is not None and record.lead is not None:
                    near, _ = self._leads.query(record.lead, LEAD_K)
                    candidates.update(self._lead_ids[near].tolist())
                for band in range(BANDS):
                    if valid[row, band]:
                        candidates.update(self._bands[band].get(int(keys[row, band]), ()))
            out[n] = self._verified(record, candidates)
        return out

    def _verified(self, record: FileRecord, candidates: set[int]) -> list[Match]:
        found = []
        mine = np.frombuffer(record.sketch, dtype="<u8")
        for entry in candidates:
            distance = (
                int(self.library.fingerprints[entry]) ^ (record.fingerprint or 0)
            ).bit_count()
            if entry >= self.library.article_count:  # imported: the distance alone
                if distance <= self.k:
                    found.append(Match(entry, distance, None))
                continue
            theirs = self.articles[entry]
            share = jaccard(mine, np.frombuffer(theirs.sketch, dtype="<u8"))
            if near(share, self.floor):
                share = self._exact(record, theirs, share)
            if share >= self.floor > 0:
                share = self._own(record, theirs, share)
            held = self.floor > 0 and share < self.floor
            if held and not (self.loose and contained(record, theirs)):
                continue
            if not self.loose and distance > self.k:
                continue
            found.append(Match(entry, distance, share, held))
        return sorted(
            self._copies(record, found), key=lambda m: (m.distance, -(m.similarity or 0), m.entry)
        )

    def _exact(self, record: FileRecord, theirs: FileRecord, estimate: float) -> float:
        """Two texts' exact similarity, read again; the estimate when either cannot be."""
        if self.read is None:
            return estimate
        texts = TextShingles((record, theirs), self.read)
        a, b = texts(0), texts(1)
        return estimate if a is None or b is None else exact_jaccard(a, b)

    def _own(self, record: FileRecord, theirs: FileRecord, share: float) -> float:
        """Two texts' similarity by their own lines, where the library's template could decide it.

        As in a scan (``default_measure._own_lines``): only when a text is TEMPLATE_SHARE or more
        template and the template could take the pair under the floor; both texts read again
        (their similarity stays where they cannot be, unless either is a stub: then 0).
        """
        template = self.library.template
        if not len(template):
            return share
        shares = template_shares([record.lines, theirs.lines], template)
        worst = float(shares.max())
        if (
            worst < TEMPLATE_SHARE
            or (share - worst) / max(1 - worst, 1e-9) >= self.floor + NEAR_FLOOR
        ):
            return share
        if self.read is not None:
            texts = TextShingles((record, theirs), self.read)
            mine, other = texts.own(0, template), texts.own(1, template)
            if mine is not None and other is not None:
                if not mine.chars or not other.chars:
                    return 0.0
                if mine.whole and other.whole:
                    return exact_jaccard(mine.shingles, other.shingles)
                return jaccard(mine.shingles[:SKETCH], other.shingles[:SKETCH])
        return 0.0 if shares.max() >= STUB else share

    def _copies(self, record: FileRecord, found: list[Match]) -> list[Match]:
        """The matches, less those held that are material the library's articles share.

        A target held by two articles that are not copies of each other, or an article held
        by the target that two articles which are not copies of each other hold, is shared.
        """
        held = [m for m in found if m.contained]
        if not held:
            return found
        holders = [m.entry for m in held if record.chars <= self.articles[m.entry].chars]
        stub = self._stub(record)
        dropped = set(holders) if stub or self._different(holders) else set()
        for m in held:
            small = self.articles[m.entry]
            if record.chars > small.chars and (self._stub(small) or self._is_shared(m.entry)):
                dropped.add(m.entry)
        return [m for m in found if not (m.contained and m.entry in dropped)]

    def _stub(self, record: FileRecord) -> bool:
        """Whether a text is mostly lines that are template among the library's articles."""
        template = self.library.template
        return bool(len(template)) and template_shares([record.lines], template)[0] >= STUB

    def _different(self, entries: list[int]) -> bool:
        """Whether two of these library articles are not copies of each other."""
        first = [self.articles[n] for n in entries[:1]]
        for other in entries[1:]:
            a, b = first[0], self.articles[other]
            alike = jaccard(*(np.frombuffer(r.sketch, dtype="<u8") for r in (a, b)))
            if alike < self.floor and not contained(a, b):
                return True
        return False

    def _is_shared(self, entry: int) -> bool:
        """Whether two library articles that are not copies of each other hold article ``entry``."""
        if entry not in self._shared:
            holders = {
                n
                for band in range(BANDS)
                if self._valid[entry, band]
                for n in self._bands[band].get(int(self._keys[entry, band]), ())
                if n != entry
            }
            small = self.articles[entry]
            inside = [
                n
                for n in sorted(holders)
                if self.articles[n].chars >= small.chars
                and contained(small, self.articles[n])
                and jaccard(*(np.frombuffer(r.sketch, "<u8") for r in (small, self.articles[n])))
                < self.floor
            ]
            self._shared[entry] = self._different(inside)
        return self._shared[entry]


def said_apart(path: str, other: str, pairs: frozenset[tuple[str, str]]) -> bool:
    """Whether ``pairs`` (the not-duplicates list) holds the files at ``path`` and ``other``."""
    return ((path, other) if path <= other else (other, path)) in pairs


def check_folder(
    library: Library,
    folder: str,
    options: ScanOptions,
    *,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
) -> ScanResult:
    """A folder of new articles (or one article) checked against ``library``, as the app shows.

    Each new article with matches joins the group of its nearest library article, which is the
    group's reference; the library's files are ``kept`` (never marked, moved or trashed). A
    match the options' not-duplicates list keeps apart is no match, and neither is the article
    itself (a file the library took): it is no copy of itself, and never marked as one.
    """
    if os.path.isfile(folder):
        scanned = scan_article(folder, options)
    else:
        scanned = scan(folder, options, progress=progress, cancel=cancel)
    group, read = options.group, options.read
    checker = ArticleChecker(library, group.k, group.min_similarity, read)
    found = checker.matches(scanned.files)
    files = list(scanned.files)
    place: dict[int, int] = {}  # library entry -> its file's index
    members: dict[int, list[Member]] = {}
    for n, matches in enumerate(found):
        path = files[n].path
        articles = [
            m
            for m in matches
            if m.similarity is not None
            and path_key(library.name_of(m.entry)) != path_key(path)
            and not said_apart(path, library.name_of(m.entry), group.not_duplicates)
        ]
        if not articles:
            continue
        best = articles[0]
        if best.entry not in place:
            place[best.entry] = len(files)
            files.append(library.articles()[best.entry])
            members[best.entry] = [Member(place[best.entry], 0, 1.0)]
        members[best.entry].append(Member(n, best.distance, best.similarity or 0.0, best.contained))
    ordered = sorted(members.values(), key=lambda ms: (-len(ms), files[ms[0].file].path))
    groups = tuple(Group(n, tuple(ms)) for n, ms in enumerate(ordered, 1))
    return replace(
        scanned,
        files=tuple(files),
        groups=groups,
        pairs=Pairs.empty(),
        kept=frozenset(place.values()),
        library=str(library.folder),
    )
