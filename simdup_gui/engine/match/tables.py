"""The permuted tables of the index: which blocks of bits lead each table, and how many tables.

See ``index.py`` for the method (Manku, Jain and Das Sarma, WWW 2007) and how ``r`` is chosen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

U64 = npt.NDArray[np.uint64]
MAX_K = 8
BITS = 64
QUERY_BUCKET = 64
DEFAULT_MEMORY_BUDGET = 4 * 1024**3
BUCKET_BITS = 22  # at most this many leading key bits make an all-pairs table's buckets
_TABLE_COST = 20.0  # one fingerprint through one table's sort (measured against ...)
_PAIR_COST = 1.0  # ... checking one pair of a bucket


def check_k(k: int) -> int:
    """Return ``k`` if it is a supported Hamming distance, else raise ValueError."""
    if not isinstance(k, int | np.integer) or isinstance(k, bool) or not 0 <= k <= MAX_K:
        raise ValueError(f"k must be an integer from 0 to {MAX_K}, got {k!r}")
    return int(k)


def as_fingerprints(values: npt.ArrayLike) -> U64:
    """Return ``values`` as a 1-D uint64 array without copying when possible."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"fingerprints must be a 1-D array, got shape {array.shape}")
    if array.size and array.dtype != np.uint64:
        if not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"fingerprints must be integers, got {array.dtype}")
        if array.min() < 0:
            raise ValueError("fingerprints must be unsigned 64-bit integers")
    return array.astype(np.uint64, copy=False)


def hamming(a: int, b: int) -> int:
    """Hamming distance between two 64-bit integers."""
    return (int(a) ^ int(b)).bit_count()


@dataclass(frozen=True)
class Permutation:
    """A table's bit permutation: the chosen blocks first, then the rest in order."""

    prefix_bits: int
    prefix_mask: int  # the chosen blocks, in original bit positions
    moves: tuple[tuple[int, int], ...]  # (source mask, left shift) pairs

    @classmethod
    def leading(cls, blocks: Sequence[tuple[int, int]], chosen: Sequence[int]) -> Permutation:
        """Build the permutation that moves ``chosen`` blocks (start, width) to the front."""
        order = list(chosen) + [b for b in range(len(blocks)) if b not in chosen]
        shifts: dict[int, int] = {}
        dest = 0
        for b in order:
            start, width = blocks[b]
            mask = ((1 << width) - 1) << (BITS - start - width)
            shift = start - dest  # positive: the block moves towards the top bit
            shifts[shift] = shifts.get(shift, 0) | mask
            dest += width
        prefix_mask = 0
        for b in chosen:
            start, width = blocks[b]
            prefix_mask |= ((1 << width) - 1) << (BITS - start - width)
        prefix_bits = sum(blocks[b][1] for b in chosen)
        moves = tuple(sorted((mask, shift) for shift, mask in shifts.items()))
        return cls(prefix_bits, prefix_mask, moves)

    def apply(self, fps: U64) -> U64:
        """Permute every fingerprint of an array."""
        out = np.zeros_like(fps)
        part = np.empty_like(fps)
        for mask, shift in self.moves:
            np.bitwise_and(fps, np.uint64(mask), out=part)
            if shift >= 0:
                part <<= np.uint64(shift)
            else:
                part >>= np.uint64(-shift)
            out |= part
        return out

    def apply_int(self, fp: int) -> int:
        """Permute one fingerprint given as a Python int."""
        out = 0
        for mask, shift in self.moves:
            part = fp & mask
            out |= part << shift if shift >= 0 else part >> -shift
        return out & (2**BITS - 1)


@dataclass(frozen=True)
class TablePlan:
    """The blocks and tables that guarantee every pair within ``k`` shares a prefix somewhere."""

    k: int
    r: int
    blocks: tuple[tuple[int, int], ...]
    tables: tuple[Permutation, ...]

    @classmethod
    def build(cls, k: int, r: int) -> TablePlan:
        """Split 64 bits into ``k + r`` near-equal blocks; one table per choice of ``r`` blocks."""
        check_k(k)
        if not 1 <= r <= BITS - k:
            raise ValueError(f"r must be from 1 to {BITS - k}, got {r}")
        count = k + r
        widths = [BITS // count + (1 if b < BITS % count else 0) for b in range(count)]
        starts = np.cumsum([0, *widths[:-1]]).tolist()
        blocks = tuple(zip(starts, widths, strict=True))
        tables = tuple(Permutation.leading(blocks, c) for c in combinations(range(count), r))
        return cls(k, r, blocks, tables)

    @property
    def min_prefix_bits(self) -> int:
        """The shortest prefix over the tables."""
        return min(t.prefix_bits for t in self.tables)


def _tables_for(k: int, r: int) -> int:
    return math.comb(k + r, r)


def _prefix_for(k: int, r: int) -> int:
    return (BITS * r) // (k + r)


def bucket_bits(prefix_bits: int, n: int) -> int:
    """How many leading key bits make an all-pairs table's buckets.

    At most its prefix; about log2(n) + 1 (a bucket or two per fingerprint); at most BUCKET_BITS.
    """
    return max(1, min(prefix_bits, n.bit_length() + 1, BUCKET_BITS))


def plan_for_pairs(k: int, n: int) -> TablePlan:
    """Choose the tables for an all-pairs run over ``n`` fingerprints by estimated work.

    Per table: a counting sort of every fingerprint, and every pair within a bucket checked.
    """
    check_k(k)
    if k == 0:
        return TablePlan.build(0, 1)
    best_r, best_cost = 1, math.inf
    for r in range(1, 8):
        if _tables_for(k, r) > 1024:
            break
        per_bucket = n / 2.0 ** bucket_bits(_prefix_for(k, r), n)
        cost = _tables_for(k, r) * n * (_TABLE_COST + _PAIR_COST * per_bucket / 2)
        if cost < best_cost:
            best_r, best_cost = r, cost
    return TablePlan.build(k, best_r)


def plan_for_queries(k: int, n: int, memory_budget: int = DEFAULT_MEMORY_BUDGET) -> TablePlan:
    """Choose stored tables: buckets of at most QUERY_BUCKET keys, within the memory budget."""
    check_k(k)
    if k == 0:
        return TablePlan.build(0, 1)
    r = 1
    while (
        n / 2.0 ** _prefix_for(k, r) > QUERY_BUCKET
        and _tables_for(k, r + 1) * 8 * n <= memory_budget
        and _tables_for(k, r + 1) <= 256
    ):
        r += 1
    return TablePlan.build(k, r)
