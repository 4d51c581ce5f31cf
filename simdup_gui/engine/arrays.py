"""The array types the engine's compiled loops take and give, and a few array helpers.

:func:`distinct`, :func:`mix` and :func:`holding_pairs`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Codes = npt.NDArray[np.uint32]  # code points of texts joined one after another
Flags = npt.NDArray[np.uint8]
Index = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
F64 = npt.NDArray[np.float64]
Bytes = npt.NDArray[np.uint8]
Bytes2D = npt.NDArray[np.uint8]  # rows of bytes
Bools = npt.NDArray[np.bool_]


def distinct(values: npt.ArrayLike) -> np.ndarray:
    """The distinct values of a 1-D array, ascending: ``np.unique``'s answer, by sorting.

    numpy 2.3 and later find them with a hash table, 10 to 100 times slower here than a sort
    (0.5 s against 6 ms for 10^6 random int64; 6 µs against 2 µs for a hundred values).
    """
    ordered = np.sort(np.asarray(values).ravel())
    if len(ordered) < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def holding_pairs(values: np.ndarray, fewer: int) -> tuple[Index, Index]:
    """Every two entries holding one value, where fewer than ``fewer`` entries hold it.

    ``values`` sorted (with their owners sorted within a value, the first entry's owner is
    the lower). Returns the two entries' places: owners sharing a value, pair by pair.
    """
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    ends = np.repeat(np.append(starts[1:], len(values)), np.diff(np.append(starts, len(values))))
    places = np.arange(len(values))
    firsts = [np.flatnonzero(places + step < ends) for step in range(1, fewer)]
    steps = [np.full(len(at), step, np.int64) for step, at in enumerate(firsts, 1)]
    first = np.concatenate([*firsts, np.empty(0, np.int64)])
    return first, first + np.concatenate([*steps, np.empty(0, np.int64)])


_U64 = np.uint64


def mix(values: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """SplitMix64's finaliser on each value (``tokens.mix`` for arrays): a well-spread hash."""
    with np.errstate(over="ignore"):
        values = (values ^ (values >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
        values = (values ^ (values >> _U64(27))) * _U64(0x94D049BB133111EB)
    return values ^ (values >> _U64(31))
