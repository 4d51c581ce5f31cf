"""Character-shingle sketches: an honest similarity between two texts, kept in 1 KB.

A text's shingles are its runs of ``SHINGLE`` characters (after normalisation, whitespace
collapsed); the Jaccard similarity of two shingle sets is the share of shingles they have in
common. A bottom-k sketch keeps the ``SKETCH`` smallest shingle hashes; the smallest ``SKETCH``
hashes of the union of two sketches are a uniform sample of the union, so the share of them that
both sketches hold estimates the Jaccard similarity (exactly, for texts with fewer shingles).

>>> a = sketch("the quick brown fox jumps over the lazy dog")
>>> round(jaccard(a, a), 2), round(jaccard(a, sketch("an entirely different sentence here")), 2)
(1.0, 0.0)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import distinct
from simdup_gui.engine.fingerprint.codes import PAD, SHINGLE, SHINGLE_BASE, SKETCH
from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.text.tokens import Batch, mix

_MASK = (1 << 64) - 1
Sketch = npt.NDArray[np.uint64]


def shingle_hashes(text: str, size: int = SHINGLE) -> list[int]:
    """The 64-bit hash of every run of ``size`` characters (whitespace runs count as one space).

    The definition :func:`sketches_of` computes for a batch: a polynomial of the characters'
    code points modulo 2**64, finished by ``mix``. A text shorter than a shingle has one, its
    first character.
    """
    chars = [ord(c) for c in " ".join(text.split())]
    if len(chars) < size:
        return [mix(c) for c in chars[:1]]
    out = []
    for start in range(len(chars) - size + 1):
        value = 0
        for char in chars[start : start + size]:
            value = (value * SHINGLE_BASE + char) & _MASK
        out.append(mix(value))
    return out


def sketches(texts: list[str], size: int = SKETCH) -> list[Sketch]:
    """The bottom-``size`` sketch of each (normalised) text."""
    return sketches_of(Batch.of([t.strip() for t in texts]), size=size)


def sketches_of(batch: Batch, size: int = SKETCH) -> list[Sketch]:
    """The bottom-``size`` sketch of each text of a batch: its smallest distinct shingle hashes.

    The texts must have no whitespace at either end (``str.strip``). Compiled
    (``kernels.sketches``); :func:`shingle_hashes` defines the hashes.
    """
    kernels = kernel_module("simdup_gui.engine.fingerprint.kernels")

    rows, filled = kernels.sketches(batch.codes, batch.flags, batch.bounds, SHINGLE, size)
    return [row[:count] for row, count in zip(rows, filled.tolist(), strict=True)]


def sketch(text: str, size: int = SKETCH) -> Sketch:
    """The ``size`` smallest distinct shingle hashes of a (normalised) text, sorted."""
    return sketches([text], size)[0]


def shingle_set(text: str) -> Sketch:
    """Every distinct shingle hash of a text, sorted: the whole set its sketch samples.

    The text is normalised as a scan's are (``Batch.normalized``); its sketch is the first
    SKETCH values.
    """
    batch = Batch.normalized([text])
    return sketches_of(batch, size=max(1, len(batch.codes)))[0]


def exact_jaccard(a: Sketch, b: Sketch) -> float:
    """The Jaccard similarity of two whole shingle sets (:func:`shingle_set`)."""
    if not len(a) or not len(b):
        return 1.0 if len(a) == len(b) else 0.0
    both = len(np.intersect1d(a, b, assume_unique=True))
    return both / (len(a) + len(b) - both)


def jaccard(a: Sketch, b: Sketch, size: int = SKETCH) -> float:
    """Estimated Jaccard similarity of the shingle sets behind two bottom-k sketches."""
    if not len(a) or not len(b):
        return 1.0 if len(a) == len(b) else 0.0
    union = distinct(np.concatenate((a, b)))[:size]
    both = np.intersect1d(a, b, assume_unique=True)
    return float(np.isin(union, both, assume_unique=True).sum()) / len(union)


def containment(a: Sketch, b: Sketch, size: int = SKETCH) -> tuple[float, int]:
    """Estimated share of text ``a``'s shingles that text ``b`` holds, and on how many hashes.

    ``a``'s sketch values up to ``b``'s largest (all of them when ``b``'s sketch is not full:
    it then holds all of ``b``'s shingles) are a uniform sample of ``a``'s shingles in a range
    where ``b``'s sketch holds every one of ``b``'s; the share found there is the estimate.
    """
    if not len(a):
        return 0.0, 0
    sample = a if len(b) < size else a[a <= b[-1]]
    if not len(sample):
        return 0.0, 0
    return float(np.isin(sample, b).sum()) / len(sample), len(sample)


def containment_many(
    rows: npt.NDArray[np.uint64], left: npt.ArrayLike, right: npt.ArrayLike
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """:func:`containment` of each pair's left row in its right row, compiled."""
    kernels = kernel_module("simdup_gui.engine.fingerprint.kernels")

    left, right = np.asarray(left, dtype=np.int64), np.asarray(right, dtype=np.int64)
    return kernels.containment_pairs(np.ascontiguousarray(rows, dtype=np.uint64), left, right)


def sketch_matrix(sketches: list[bytes], size: int = SKETCH) -> npt.NDArray[np.uint64]:
    """Sketches (as bytes) stacked into rows, short ones padded at the end."""
    rows = np.full((len(sketches), size), PAD, dtype=np.uint64)
    for row, raw in zip(rows, sketches, strict=True):
        values = np.frombuffer(raw, dtype="<u8")[:size]
        row[: len(values)] = values
    return rows


BANDS, BAND_BINS = 12, 3  # banded_pairs: candidates agree on the 3 bins of one of 12 bands
FULL_RUN = 32  # rows agreeing on a band: up to this many, every pair is a candidate


def band_keys(
    rows: npt.NDArray[np.uint64],
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.bool_]]:
    """Each row's key on each band (see :func:`banded_pairs`), and whether the band has one.

    Two rows agree on a band when their keys there are equal and both are valid (a band with an
    empty bin, in a short text, has none).
    """
    kernels = kernel_module("simdup_gui.engine.fingerprint.kernels")

    minima = kernels.bin_minima(np.ascontiguousarray(rows, dtype=np.uint64), BANDS * BAND_BINS)
    minima = minima.reshape(len(rows), BANDS, BAND_BINS)
    valid = (minima != PAD).all(axis=2)
    keys = minima[:, :, 0].copy()
    for column in range(1, BAND_BINS):  # one key per band: the bins' values mixed
        keys = keys * np.uint64(SHINGLE_BASE) ^ minima[:, :, column]
    return keys, valid


def banded_pairs(rows: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.int64], ...]:
    """Pairs of rows of a :func:`sketch_matrix` likely to be alike, found without comparing all.

    Each sketch's values are put in ``BANDS * BAND_BINS`` bins by their remainder. The
    smallest value of a bin is the same in two sketches about as often as their Jaccard
    similarity J: when the smallest value the two texts' union has there is in both of them
    (it is then the smallest of the bin in both sketches). Rows whose bins agree on a whole band
    are candidates, with a chance of about 1 - (1 - J**3) ** BANDS: 0.55 at J = 0.4, 0.94 at
    J = 0.6, 0.99 at J = 0.7, and 0.012 for texts that share a tenth of their shingles. A band
    with an empty bin (a short text) is left out. More than ``FULL_RUN`` rows agreeing on a band
    (many near-copies of one text) give each row paired with the first, not every pair: enough to
    group them, with candidates linear in their number. Returns ``i < j``, each pair once.

    Near-copies agree on most bands: a run whose rows all shared one earlier band's run of at
    most ``FULL_RUN`` (their first such run) gave its every pair there, and is not listed again
    (a tenth as many pairs to sort for families of near-copies).
    """
    count = len(rows)
    all_keys, valid = band_keys(rows)
    lefts, rights = [], []
    first_run = np.full(count, -1, np.int64)  # each row's first run of 2 to FULL_RUN rows
    for band in range(BANDS):
        members = np.flatnonzero(valid[:, band])
        keys = all_keys[members, band]
        order = np.argsort(keys, kind="stable")
        keys, members = keys[order], members[order]
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        lengths = np.diff(np.append(starts, len(keys)))  # runs of equal keys agree on the band
        for length in distinct(lengths[lengths > 1]).tolist():
            runs = starts[lengths == length]
            rows_of = members[runs[:, None] + np.arange(length)]
            known = first_run[rows_of]
            runs = runs[~((known == known[:, :1]).all(axis=1) & (known[:, 0] >= 0))]
            if length > FULL_RUN:  # many near-copies: each is paired with the first only
                a, b = np.zeros(length - 1, np.int64), np.arange(1, length)
            else:
                a, b = np.triu_indices(length, 1)
            lefts.append(members[(runs[:, None] + a).ravel()])
            rights.append(members[(runs[:, None] + b).ravel()])
        listed = np.flatnonzero((lengths > 1) & (lengths <= FULL_RUN))  # every pair given
        sizes = lengths[listed]
        within = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        named = members[np.repeat(starts[listed], sizes) + within]
        unset = first_run[named] < 0
        first_run[named[unset]] = np.repeat(band * count + listed, sizes)[unset]
    if not lefts:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    i, j = np.concatenate(lefts), np.concatenate(rights)
    keys = np.sort(np.minimum(i, j) * count + np.maximum(i, j))
    keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]  # each pair once
    return keys // count, keys % count


def jaccard_many(
    rows: npt.NDArray[np.uint64], left: npt.ArrayLike, right: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """:func:`jaccard` for many pairs of rows of a :func:`sketch_matrix` at once.

    Of each pair's union's smallest ``size`` distinct values, the share that both hold: a merge
    of the two sorted rows, compiled (``kernels.jaccard_pairs``; about 8 times as fast as
    sorting the pairs' values with numpy).
    """
    kernels = kernel_module("simdup_gui.engine.fingerprint.kernels")

    left, right = np.asarray(left, dtype=np.int64), np.asarray(right, dtype=np.int64)
    return kernels.jaccard_pairs(np.ascontiguousarray(rows, dtype=np.uint64), left, right)
