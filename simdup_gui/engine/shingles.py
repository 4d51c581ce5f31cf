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

from simdup_gui.engine.tokens import U64, Codes, code_points, is_space, mix

SHINGLE = 5
SKETCH = 128
_PRIME = np.uint64(0x100000001B3)
Sketch = npt.NDArray[np.uint64]


def _collapse_spaces(codes: Codes) -> Codes:
    """Whitespace runs become one space, none at either end, as ``" ".join(text.split())``."""
    space = is_space(codes)
    keep = ~space
    keep[1:] |= ~space[:-1]  # a space right after a non-space is kept ...
    kept = np.where(space, np.uint32(32), codes)[keep]
    body = np.flatnonzero(~space[keep])  # ... but none before the first or after the last word
    return kept[body[0] : body[-1] + 1] if len(body) else kept[:0]


def shingle_hashes(text: str, size: int = SHINGLE) -> U64:
    """64-bit hashes of every run of ``size`` characters (whitespace runs count as one space)."""
    return _code_shingles(code_points(text), size)


def _code_shingles(codes: Codes, size: int = SHINGLE) -> U64:
    flat = _collapse_spaces(codes).astype(np.uint64)
    count = len(flat) - size + 1
    if count <= 0:
        return mix(flat[:1].copy()) if len(flat) else np.empty(0, np.uint64)
    hashes = np.zeros(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for offset in range(size):
            hashes = hashes * _PRIME + flat[offset : offset + count]
        return mix(hashes)


def sketch_codes(codes: Codes, size: int = SKETCH) -> Sketch:
    """The ``size`` smallest distinct shingle hashes of a (normalised) text's code points.

    Only the smallest few hashes are sorted (a partition finds them); when repeats leave fewer
    than ``size`` distinct ones among them, all are sorted.
    """
    values = _code_shingles(codes)
    if len(values) > 2 * size:
        low = _distinct_sorted(np.partition(values, 2 * size)[: 2 * size])
        if len(low) >= size:
            return low[:size]
    return _distinct_sorted(values)[:size]


def _distinct_sorted(values: U64) -> U64:
    values = np.sort(values)
    if len(values):
        values = values[np.concatenate(([True], values[1:] != values[:-1]))]
    return values


def sketch(text: str, size: int = SKETCH) -> Sketch:
    """The ``size`` smallest distinct shingle hashes of a (normalised) text, sorted."""
    return sketch_codes(code_points(text), size)


def jaccard(a: Sketch, b: Sketch, size: int = SKETCH) -> float:
    """Estimated Jaccard similarity of the shingle sets behind two bottom-k sketches."""
    if not len(a) or not len(b):
        return 1.0 if len(a) == len(b) else 0.0
    union = np.union1d(a, b)[:size]
    both = np.intersect1d(a, b, assume_unique=True)
    return float(np.isin(union, both, assume_unique=True).sum()) / len(union)


_PAD = np.uint64(2**64 - 1)  # fills short sketches; never a real hash's place in the minimum


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
