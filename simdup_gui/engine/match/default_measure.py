"""The default method's measure (``methods/default.py``): fingerprints, openings, sketches, texts.

Candidates are the pairs of fingerprints within k (the permuted-table index) and, at a loose k
with a text similarity floor, the pairs whose openings' fingerprints are within LEAD_K and those
whose shingle sketches agree on a band (``shingles.banded_pairs``: copies whose added or dropped
text moved the fingerprint far); each candidate must then share enough 5-character shingles
(estimated Jaccard from the files' sketches; just above the floor, exact: ``exact.py``), or,
where text alone decides, the shorter text must lie inside the longer (containment).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from simdup_gui.engine.arrays import distinct
from simdup_gui.engine.fingerprint.codes import PAD, SKETCH
from simdup_gui.engine.fingerprint.shingles import (
    banded_pairs,
    containment,
    containment_many,
    jaccard,
    jaccard_many,
    sketch_matrix,
)
from simdup_gui.engine.match.exact import ExactPairs, near, near_floor_checked
from simdup_gui.engine.match.groups import LOOSE_K, Measure, Thresholds
from simdup_gui.engine.match.index import all_pairs
from simdup_gui.engine.records import FileRecord, Pairs

CONTAINED = 0.8  # this share of a text's shingles inside a longer text makes it a copy of it
CONTAINED_SAMPLES = 24  # ... judged on at least this many of its sketch's hashes
LEAD_K = 3  # openings this close make a candidate pair too (then verified like any other)
BANDS_K = LOOSE_K  # from this k on (the app's "loose"), openings and sketch bands add candidates
RUN_WINDOW = 32  # each fingerprint is checked against this many others sharing a table prefix


def similarity(a: FileRecord, b: FileRecord) -> float:
    """Estimated Jaccard similarity of two files' shingle sets (1.0 if neither has a sketch)."""
    if not a.sketch and not b.sketch:
        return 1.0
    return jaccard(np.frombuffer(a.sketch, dtype="<u8"), np.frombuffer(b.sketch, dtype="<u8"))


def contained(a: FileRecord, b: FileRecord) -> bool:
    """Whether the shorter text of two lies, as a whole, inside the longer one.

    A truncated repost inside its original, or an article inside a page that wraps it in a
    portal's navigation, ads and comments: their Jaccard similarity is low, but most of the
    shorter text's shingles are in the longer one. The shorter must fill its sketch (at least
    SKETCH distinct shingles: not a one-line stub) and be judged on CONTAINED_SAMPLES hashes.
    """
    small, large = (a, b) if a.chars <= b.chars else (b, a)
    inner = np.frombuffer(small.sketch, dtype="<u8")
    if len(inner) < SKETCH:
        return False
    share, samples = containment(inner, np.frombuffer(large.sketch, dtype="<u8"))
    return share >= CONTAINED and samples >= CONTAINED_SAMPLES


def likeness(
    a: FileRecord, b: FileRecord, floor: float, exact: Callable[[], float | None] | None = None
) -> tuple[float, bool]:
    """Two files' text similarity, and whether they match only as one text inside the other.

    That is: less alike than ``floor`` as a whole, but the shorter lies inside the longer.
    Their ``exact`` similarity is asked for when the estimate is just above the floor.
    """
    share = similarity(a, b)
    if exact is not None and near(share, floor):
        found = exact()
        share = share if found is None else found
    return share, share < floor and contained(a, b)


def contained_many(
    rows: np.ndarray, chars: np.ndarray, left: np.ndarray, right: np.ndarray
) -> np.ndarray:
    """:func:`contained` for many pairs of sketch rows, with their texts' lengths."""
    swap = chars[left] > chars[right]
    small, large = np.where(swap, right, left), np.where(swap, left, right)
    share, samples = containment_many(rows, small, large)
    full = rows[small, -1] != PAD
    return full & (share >= CONTAINED) & (samples >= CONTAINED_SAMPLES)


def default_measure(
    records: Sequence[FileRecord],
    k: int,
    floor: float,
    cancel: Callable[[], bool],
    exact: ExactPairs | None = None,
) -> Measure:
    """The measure of these records (one per distinct text; see the module).

    ``exact`` gives two records' exact text similarity by position (None: estimates only).
    """
    rows = sketch_matrix([record.sketch for record in records])
    fps = np.array([record.fingerprint for record in records], dtype=np.uint64)
    chars = np.array([record.chars for record in records], dtype=np.int64)

    def alike(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return near_floor_checked(jaccard_many(rows, a, b), a, b, floor, exact)

    def holds(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return contained_many(rows, chars, a, b)

    found = _candidates(records, fps, rows, chars, k, floor, alike, cancel)
    return Measure(fps, found, alike, Thresholds(k, floor), holds)


def _union(a: Pairs, b: Pairs, fps: np.ndarray) -> Pairs:
    """Pairs in ``a`` or ``b``, each once, with distances measured on ``fps``."""
    n = len(fps)
    keys = distinct(np.concatenate([a.i * n + a.j, b.i * n + b.j]))
    i, j = keys // n, keys % n
    return Pairs(i, j, np.bitwise_count(fps[i] ^ fps[j]).astype(np.uint8))


def _candidates(
    records: Sequence[FileRecord],
    fps: np.ndarray,
    rows: np.ndarray,
    chars: np.ndarray,
    k: int,
    min_similarity: float,
    alike: Callable[[np.ndarray, np.ndarray], np.ndarray],
    cancel: Callable[[], bool],
) -> Pairs:
    """Candidate pairs (positions in ``records``, whose sketches are ``rows``) ``alike`` enough.

    Candidates are the pairs within ``k`` and, from BANDS_K on with a floor, those whose
    openings are within LEAD_K and those whose sketches agree on a band; below BANDS_K nothing
    else could meet the thresholds. Each fingerprint is checked against RUN_WINDOW others of a
    table's prefix run, so thousands of near-copies of one text cost linear work.
    """
    local = all_pairs(fps, k, cancel=cancel, window=RUN_WINDOW)
    if min_similarity <= 0 or len(records) < 2:
        return local
    if k >= BANDS_K and not cancel():
        leads = np.array([record.lead or 0 for record in records], dtype=np.uint64)
        openings = all_pairs(leads, LEAD_K, cancel=cancel, window=RUN_WINDOW)
        local = _union(local, openings, fps)
        banded = banded_pairs(rows)
        local = _union(local, Pairs(*banded, np.zeros(len(banded[0]), np.uint8)), fps)
    keep = alike(local.i, local.j) >= min_similarity
    if k >= BANDS_K:  # text alone decides: a text held by the other is a copy too
        rest = np.flatnonzero(~keep)
        keep[rest] = contained_many(rows, chars, local.i[rest], local.j[rest])
    return Pairs(local.i[keep], local.j[keep], local.distance[keep])
