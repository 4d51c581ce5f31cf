"""The default method's measure (``methods/default.py``): fingerprints, openings, sketches, texts.

Candidates are the pairs of fingerprints within k (the permutation index) and, at a loose k
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
from simdup_gui.engine.match.exact import NEAR_FLOOR, NodeTexts, near, near_floor_checked
from simdup_gui.engine.match.groups import LOOSE_K, Measure, Thresholds
from simdup_gui.engine.match.index import all_pairs
from simdup_gui.engine.match.template import TEMPLATE_SHARE, shared_lines, template_shares
from simdup_gui.engine.records import FileRecord, Pairs

CONTAINED = 0.8  # this share of a text's shingles inside a longer text makes it a copy of it
CONTAINED_SAMPLES = 24  # ... judged on at least this many of its sketch's hashes
LEAD_K = 3  # openings this close make a candidate pair too (then verified like any other)
BANDS_K = LOOSE_K  # from this k on (the app's "loose"), openings and sketch bands add candidates
RUN_WINDOW = 32  # each fingerprint is checked against this many others sharing a permutation prefix


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


def containment_share(a: FileRecord, b: FileRecord) -> float:
    """The estimated share of the shorter text of two that lies in the longer (``contained``)."""
    small, large = (a, b) if a.chars <= b.chars else (b, a)
    inner = np.frombuffer(small.sketch, dtype="<u8")
    return containment(inner, np.frombuffer(large.sketch, dtype="<u8"))[0]


def likeness(
    a: FileRecord, b: FileRecord, floor: float, exact: Callable[[], float | None] | None = None
) -> tuple[float, bool]:
    """Two files' text similarity as shown, and whether they match only as one inside the other.

    That is: less alike than ``floor`` as a whole, but the shorter lies inside the longer. The
    similarity shown is the estimate, whatever the floor (``Measure.shown``); whether they are
    alike asks their ``exact`` similarity when the estimate is just above the floor.
    """
    share = decided = similarity(a, b)
    if exact is not None and near(share, floor):
        found = exact()
        decided = share if found is None else found
    return share, decided < floor and contained(a, b)


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
    texts: NodeTexts | None = None,
    template: np.ndarray | None = None,
) -> Measure:
    """The measure of these records (one per distinct text; see the module).

    ``texts`` reads the records' texts again by position (None: the records alone tell);
    ``template``: the template's line hashes when counted over more texts than these.
    """
    rows = sketch_matrix([record.sketch for record in records])
    fps = np.array([record.fingerprint for record in records], dtype=np.uint64)
    chars = np.array([record.chars for record in records], dtype=np.int64)
    found = _candidates(records, fps, rows, k, floor, cancel)
    whole = rows  # the sketches as read: the figures shown, whatever the floor

    def shown(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return jaccard_many(whole, a, b)

    loose = k >= BANDS_K and floor > 0  # text alone decides: a text held by the other is a copy
    stubs = np.zeros(len(records), bool)  # mostly template, not read again: never held
    if floor > 0 and len(found):
        stubs, rows, chars = _own_lines(records, rows, chars, found, floor, loose, texts, template)
    shared = np.zeros(len(records), bool)  # held by texts that are not copies of each other

    def alike(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return near_floor_checked(jaccard_many(rows, a, b), a, b, floor, texts)

    def holds(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        small = np.where(chars[a] > chars[b], b, a)
        held = contained_many(rows, chars, a, b) & ~stubs[a] & ~stubs[b]
        return held & ~shared[small]

    if floor <= 0:
        return Measure(fps, found, alike, Thresholds(k, floor), holds, shown)
    keep = alike(found.i, found.j) >= floor
    if loose:
        rest = np.flatnonzero(~keep)
        left, right = found.i[rest], found.j[rest]
        held = holds(left, right)
        shared[:] = _shared_material(left[held], right[held], rows, chars, floor, alike, holds)
        keep[rest] = held & ~shared[np.where(chars[left] > chars[right], right, left)]
    kept = Pairs(found.i[keep], found.j[keep], found.distance[keep])
    return Measure(fps, kept, alike, Thresholds(k, floor), holds, shown)


STUB = 0.5  # a text this much template that cannot be read again is a stub: it holds nothing


def _own_lines(
    records: Sequence[FileRecord],
    rows: np.ndarray,
    chars: np.ndarray,
    found: Pairs,
    floor: float,
    loose: bool,
    texts: NodeTexts | None,
    template: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Measure by their own lines the texts whose template (``template.py``) could decide a pair.

    A pair the estimates accept may be alike, or one text held by the other, only for the lines
    both share with many other texts. Each text of such a pair that is TEMPLATE_SHARE or more
    template gets its own sketch and length: its text read again without those lines. Returns
    the stubs (texts at least STUB template that could not be read again, or have nothing of
    their own; they never hold nor are held), and ``rows`` and ``chars`` with the own sketches
    and lengths (copies: the given ones stay as read). Template never adds a
    pair (the estimates must accept it first) and a pair it cannot change is not read again:
    a text ``t`` template changes a measure ``m`` to no less than ``(m - t) / (1 - t)``.
    """
    lines = [record.lines for record in records]
    stubs = np.zeros(len(records), bool)
    raw = jaccard_many(rows, found.i, found.j)
    similar = raw >= floor
    if template is None:
        copies = Pairs(found.i[similar], found.j[similar], found.distance[similar])
        template = shared_lines(lines, copies)
    share = template_shares(lines, template)
    heavy = share >= TEMPLATE_SHARE
    if not heavy.any():
        return stubs, rows, chars
    worst = np.maximum(share[found.i], share[found.j])
    doubt = similar & (_least(raw, worst) < floor + NEAR_FLOOR)
    held = np.zeros(len(found), bool)
    if loose:
        small = np.where(chars[found.i] > chars[found.j], found.j, found.i)
        large = found.i + found.j - small
        inside, samples = containment_many(rows, small, large)
        held = (rows[small, -1] != PAD) & (inside >= CONTAINED) & (samples >= CONTAINED_SAMPLES)
        doubt |= ~similar & held & (_least(inside, share[small]) < CONTAINED + NEAR_FLOOR)
    matched = similar | held if loose else similar
    rows, chars = rows.copy(), chars.copy()
    for node in _closed(found, doubt, matched, heavy).tolist():
        own = texts.own(node, template) if texts is not None else None
        if own is None or not own.chars:
            stubs[node] = own is not None or share[node] >= STUB
            continue
        rows[node] = PAD
        rows[node, : min(len(own.shingles), SKETCH)] = own.shingles[:SKETCH]
        chars[node] = own.chars
    return stubs, rows, chars


def _closed(found: Pairs, doubt: np.ndarray, matched: np.ndarray, heavy: np.ndarray) -> np.ndarray:
    """The texts to measure by their own lines: the much-template ones of the doubtful pairs.

    And then every much-template text the estimates match with one of those: a pair is
    measured alike on both sides, a text's own lines against the other's own lines.
    """
    chosen = np.zeros(len(heavy), bool)
    chosen[found.i[doubt]] = chosen[found.j[doubt]] = True
    chosen &= heavy
    while True:
        near = matched & (chosen[found.i] | chosen[found.j])
        more = np.zeros(len(heavy), bool)
        more[found.i[near]] = more[found.j[near]] = True
        more &= heavy & ~chosen
        if not more.any():
            return np.flatnonzero(chosen)
        chosen |= more


def _least(measure: np.ndarray, template: np.ndarray) -> np.ndarray:
    """The least a measure could be were a share ``template`` of the texts left out."""
    return (measure - template) / np.maximum(1.0 - template, 1e-9)


HOLDER_HASHES = 8  # a text sharing this many of a held text's sketch hashes may hold it too


def _shared_material(
    left: np.ndarray,
    right: np.ndarray,
    rows: np.ndarray,
    chars: np.ndarray,
    floor: float,
    alike: Callable[[np.ndarray, np.ndarray], np.ndarray],
    holds: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> np.ndarray:
    """The texts held by two texts that are not copies of each other: shared, not copies.

    ``left`` and ``right`` are the pairs matched by one text held by the other. A text that two
    different articles both hold (a stub of their family's header and footer, a quoted
    passage) is material they share; it is a copy of neither. Each held text's holders are
    looked for among all texts (those sharing HOLDER_HASHES of its sketch's hashes, then
    checked), not only among the candidates found.
    """
    shared = np.zeros(len(chars), bool)
    if not len(left):
        return shared
    small = distinct(np.where(chars[left] > chars[right], right, left))
    owner = np.repeat(np.arange(len(rows), dtype=np.int64), rows.shape[1])
    hashes = rows.ravel()
    real = hashes != PAD
    order = np.argsort(hashes[real], kind="stable")
    hashes, owner = hashes[real][order], owner[real][order]
    held, holder = [], []
    for text in small.tolist():
        mine = rows[text][rows[text] != PAD]
        lo, hi = np.searchsorted(hashes, mine), np.searchsorted(hashes, mine, side="right")
        sharing = owner[np.concatenate([np.arange(a, b) for a, b in zip(lo, hi, strict=True)])]
        counts = np.bincount(sharing, minlength=len(rows))
        found = np.flatnonzero((counts >= HOLDER_HASHES) & (chars >= chars[text]))
        found = found[found != text]
        held += [text] * len(found)
        holder += found.tolist()
    held_, holder_ = np.array(held, np.int64), np.array(holder, np.int64)
    inside = holds(held_, holder_) & (alike(held_, holder_) < floor)
    held_, holder_ = held_[inside], holder_[inside]
    first = np.concatenate(([True], held_[1:] != held_[:-1])) if len(held_) else held_ > 0
    head = np.maximum.accumulate(np.where(first, np.arange(len(held_)), 0))
    other = ~first  # each text's other holders, against its first
    a, b = holder_[head[other]], holder_[other]
    copies = (alike(a, b) >= floor) | holds(a, b)
    shared[held_[other][~copies]] = True
    return shared


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
    k: int,
    min_similarity: float,
    cancel: Callable[[], bool],
) -> Pairs:
    """Candidate pairs (positions in ``records``, whose sketches are ``rows``), not yet verified.

    Candidates are the pairs within ``k`` and, from BANDS_K on with a floor, those whose
    openings are within LEAD_K and those whose sketches agree on a band; below BANDS_K nothing
    else could meet the thresholds. Each fingerprint is checked against RUN_WINDOW others of a
    permutation's prefix run, so thousands of near-copies of one text cost linear work.
    """
    local = all_pairs(fps, k, cancel=cancel, window=RUN_WINDOW)
    if min_similarity <= 0 or len(records) < 2 or k < BANDS_K or cancel():
        return local
    leads = np.array([record.lead or 0 for record in records], dtype=np.uint64)
    openings = all_pairs(leads, LEAD_K, cancel=cancel, window=RUN_WINDOW)
    local = _union(local, openings, fps)
    banded = banded_pairs(rows)
    return _union(local, Pairs(*banded, np.zeros(len(banded[0]), np.uint8)), fps)
