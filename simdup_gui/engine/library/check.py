"""Checking new articles, or fingerprints, against a library.

A target and a library article are a match when a scan of both together would pair them:
candidates are the library fingerprints within k of the target's (the stored index) and, from
the loose k on with a similarity floor, the articles whose openings are within LEAD_K and those
whose sketches agree on a band; each must then share at least the floor of its shingles or, from
the loose k on, lie inside the other text or hold it (``default_measure.contained``: a cut copy, an
article in a portal's page). Imported fingerprints have no text: they match on the distance
alone.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from simdup_gui.engine.fingerprint.shingles import BANDS, band_keys, jaccard, sketch_matrix
from simdup_gui.engine.library.store import Library
from simdup_gui.engine.match.default_measure import BANDS_K, LEAD_K, contained
from simdup_gui.engine.match.groups import Group, Member
from simdup_gui.engine.match.index import FingerprintIndex
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.progress import Progress, never, no_progress
from simdup_gui.engine.records import FileRecord, Pairs
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.scan import scan


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

    def __init__(self, library: Library, k: int, min_similarity: float) -> None:
        """Prepare what the loose candidates need (openings and sketch bands), if they apply.

        Raises:
            LibraryError: the library was built by a simdup whose fingerprints differ.
        """
        library.refuse_if_stale()
        self.library, self.k, self.floor = library, k, min_similarity
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
            keys, valid = band_keys(sketch_matrix([r.sketch for r in self.articles]))
            for band in range(BANDS):
                for n in np.flatnonzero(valid[:, band]).tolist():
                    self._bands[band][int(keys[n, band])].append(n)

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
            held = self.floor > 0 and share < self.floor
            if held and not (self.loose and contained(record, theirs)):
                continue
            if not self.loose and distance > self.k:
                continue
            found.append(Match(entry, distance, share, held))
        return sorted(found, key=lambda m: (m.distance, -(m.similarity or 0), m.entry))


def check_folder(
    library: Library,
    folder: str,
    options: ScanOptions,
    *,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
) -> ScanResult:
    """A folder of new articles checked against ``library``, as a result the app shows.

    Each new article with matches joins the group of its nearest library article, which is the
    group's reference; the library's files are ``kept`` (never marked, moved or trashed).
    """
    scanned = scan(folder, options, progress=progress, cancel=cancel)
    found = ArticleChecker(library, options.group.k, options.group.min_similarity).matches(
        scanned.files
    )
    files = list(scanned.files)
    place: dict[int, int] = {}  # library entry -> its file's index
    members: dict[int, list[Member]] = {}
    for n, matches in enumerate(found):
        articles = [m for m in matches if m.similarity is not None]
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
