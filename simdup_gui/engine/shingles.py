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

from simdup_gui.engine.tokens import U64, Codes, code_points, joined, mix

SHINGLE = 5
SKETCH = 128
_PRIME = np.uint64(0x100000001B3)
Sketch = npt.NDArray[np.uint64]


def _collapse_spaces(text: str) -> str:
    """Whitespace runs become one space, none at either end."""
    return " ".join(text.split())


def shingle_hashes(text: str, size: int = SHINGLE) -> U64:
    """64-bit hashes of every run of ``size`` characters (whitespace runs count as one space)."""
    codes = code_points(_collapse_spaces(text))
    return _own_shingles(codes, _shingles(codes, size), 0, len(codes), size)


def _own_shingles(codes: Codes, hashes: U64, lo: int, hi: int, size: int = SHINGLE) -> U64:
    """The shingles of the text at ``codes[lo:hi]``: those that end inside it.

    A text shorter than a shingle has one, made of its first character.
    """
    if hi - lo >= size:
        return hashes[lo : hi - size + 1]
    return _shingles(codes[lo : lo + 1]) if hi > lo else hashes[:0]


def _shingles(codes: Codes, size: int = SHINGLE) -> U64:
    """The hash of the ``size`` characters from each position (fewer near the end)."""
    flat = codes.astype(np.uint64)
    hashes = np.zeros(len(flat), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for offset in range(min(size, len(flat))):
            hashes[: len(flat) - offset] = hashes[: len(flat) - offset] * _PRIME + flat[offset:]
        return mix(hashes)


def sketches(texts: list[str], size: int = SKETCH) -> list[Sketch]:
    """The bottom-``size`` sketch of each (normalised) text of a batch, hashed all at once.

    Each text's shingles stop at its end; a text shorter than a shingle is one shingle.
    """
    codes, bounds = joined([_collapse_spaces(t) for t in texts])
    hashes = _shingles(codes)
    edges = zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True)
    return [_bottom(_own_shingles(codes, hashes, lo, hi), size) for lo, hi in edges]


def _bottom(values: U64, size: int) -> Sketch:
    """The ``size`` smallest distinct values, sorted; a partition finds them first."""
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
    return sketches([text], size)[0]


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
