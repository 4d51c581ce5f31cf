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

from itertools import pairwise

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.tokens import (
    SPACE,
    U64,
    Batch,
    Codes,
    Index,
    code_points,
    count_hashes,
    count_per_text,
    mix,
)

SHINGLE = 5
SKETCH = 128
_PRIME = np.uint64(0x100000001B3)
Sketch = npt.NDArray[np.uint64]
_PAD = np.uint64(2**64 - 1)  # fills short sketches; never a real hash's place in the minimum


def _collapse_spaces(text: str) -> str:
    """Whitespace runs become one space, none at either end."""
    return " ".join(text.split())


def shingle_hashes(text: str, size: int = SHINGLE) -> U64:
    """64-bit hashes of every run of ``size`` characters (whitespace runs count as one space)."""
    codes = code_points(_collapse_spaces(text))
    if len(codes) < size:
        return _shingles(codes[:1])  # a text shorter than a shingle has one: its first character
    return _shingles(codes, size)[: len(codes) - size + 1]


def _shingles(codes: Codes, size: int = SHINGLE) -> U64:
    """The hash of the ``size`` characters from each position (fewer near the end)."""
    flat = codes.astype(np.uint64)
    hashes = np.zeros(len(flat), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for offset in range(min(size, len(flat))):
            hashes[: len(flat) - offset] = hashes[: len(flat) - offset] * _PRIME + flat[offset:]
        return mix(hashes)


def collapse_spaces(batch: Batch) -> tuple[Codes, Index]:
    """:func:`_collapse_spaces` for a batch of texts with no whitespace at either end.

    A space is kept when the character before it is not one. Returns the new codes and bounds.
    """
    space = (batch.flags & SPACE).astype(bool)
    keep = ~space
    keep[1:] |= ~space[:-1]
    kept = np.concatenate(([0], np.cumsum(keep)))
    return np.where(space, np.uint32(32), batch.codes)[keep], kept[batch.bounds]


def sketches(texts: list[str], size: int = SKETCH) -> list[Sketch]:
    """The bottom-``size`` sketch of each (normalised) text."""
    return sketches_of(Batch.of([t.strip() for t in texts]), size=size)


def sketches_of(batch: Batch, size: int = SKETCH) -> list[Sketch]:
    """The bottom-``size`` sketch of each text of a batch, all hashed and chosen at once.

    The texts must have no whitespace at either end (``str.strip``). Shingle hashes are
    uniform, so a text's ``size`` smallest lie below about ``size / shingles`` of the hash
    range: only hashes under four times that are sorted. A text with too few distinct ones
    there (a very repetitive text) is done in full.
    """
    codes, bounds = collapse_spaces(batch)
    hashes = _shingles(codes)
    lengths = np.diff(bounds)
    count = np.maximum(lengths - SHINGLE + 1, 0)
    owner = np.repeat(np.arange(len(lengths)), lengths)
    valid = np.arange(len(codes)) - bounds[owner] < count[owner]
    share = np.minimum(4.0 * size / np.maximum(count, 1), 1.0)
    limit = np.full(len(lengths), _PAD)
    limit[share < 1.0] = (share[share < 1.0] * 2.0**64).astype(np.uint64)
    chosen = valid & (hashes <= limit[owner])
    short = np.flatnonzero((lengths > 0) & (lengths < SHINGLE))
    values = np.concatenate((hashes[chosen], mix(codes[bounds[short]].astype(np.uint64))))
    texts = np.concatenate((owner[chosen], short))
    values, _, texts = count_per_text(values, texts)  # distinct per text, sorted
    cuts = np.searchsorted(texts, np.arange(len(lengths) + 1)).tolist()
    out = []
    for text, (lo, hi) in enumerate(pairwise(cuts)):
        if hi - lo < size and limit[text] != _PAD:
            lo_pos, hi_pos = int(bounds[text]), int(bounds[text]) + int(count[text])
            out.append(count_hashes(hashes[lo_pos:hi_pos])[0][:size])
        else:
            out.append(values[lo : min(hi, lo + size)])
    return out


def sketch(text: str, size: int = SKETCH) -> Sketch:
    """The ``size`` smallest distinct shingle hashes of a (normalised) text, sorted."""
    return sketches([text], size)[0]


def jaccard(a: Sketch, b: Sketch, size: int = SKETCH) -> float:
    """Estimated Jaccard similarity of the shingle sets behind two bottom-k sketches."""
    if not len(a) or not len(b):
        return 1.0 if len(a) == len(b) else 0.0
    union = np.union1d(a, b)[:size]
    both = np.intersect1d(a, b, assume_unique=True)
    return float(np.isin(union, both, assume_unique=True).sum()) / len(union)


def sketch_matrix(sketches: list[bytes], size: int = SKETCH) -> npt.NDArray[np.uint64]:
    """Sketches (as bytes) stacked into rows, short ones padded at the end."""
    rows = np.full((len(sketches), size), _PAD, dtype=np.uint64)
    for row, raw in zip(rows, sketches, strict=True):
        values = np.frombuffer(raw, dtype="<u8")[:size]
        row[: len(values)] = values
    return rows


def jaccard_many(
    rows: npt.NDArray[np.uint64], left: npt.ArrayLike, right: npt.ArrayLike, chunk: int = 20_000
) -> npt.NDArray[np.float64]:
    """:func:`jaccard` for many pairs of rows of a :func:`sketch_matrix` at once.

    Each pair's two sketches are merged and sorted in one numpy call; a value present in both
    appears twice in a row, next to itself. Of the union's smallest ``size`` distinct values,
    the share that appear twice is the estimate.
    """
    left, right = np.asarray(left, dtype=np.int64), np.asarray(right, dtype=np.int64)
    size = rows.shape[1]
    out = np.empty(len(left), dtype=np.float64)
    for lo in range(0, len(left), chunk):
        merged = np.sort(
            np.concatenate([rows[left[lo : lo + chunk]], rows[right[lo : lo + chunk]]], axis=1),
            axis=1,
        )
        real = merged != _PAD
        first = np.ones_like(real)
        first[:, 1:] = merged[:, 1:] != merged[:, :-1]  # first copy of each distinct value
        twice = np.zeros_like(real)
        twice[:, :-1] = merged[:, :-1] == merged[:, 1:]  # ... that has a second copy
        distinct = first & real
        in_union = distinct & (np.cumsum(distinct, axis=1) <= size)
        union = in_union.sum(axis=1)
        both = (in_union & twice).sum(axis=1)
        out[lo : lo + chunk] = np.where(union > 0, both / np.maximum(union, 1), 1.0)
    return out
