"""Exact Hamming-distance search over 64-bit fingerprints with permutations.

The method is the one of Manku, Jain and Das Sarma, *Detecting Near-Duplicates for Web Crawling*
(WWW 2007). Split the 64 bits into ``k + r`` contiguous blocks. Two fingerprints that differ in at
most ``k`` bits leave at least ``r`` blocks untouched, so for every choice of ``r`` blocks build a
permutation whose keys are the fingerprints with those blocks permuted to the front (the *prefix*),
and sort it. A pair within distance ``k`` then shares its prefix in at least one of the
``C(k + r, r)`` permutations: matching the prefix exactly and checking the whole key by popcount
(``np.bitwise_count``) finds every such pair, and nothing else is reported.

A query reads one bucket per permutation (see :class:`FingerprintIndex` for what a stored
permutation holds); all pairs (:func:`all_pairs`) scan the runs of equal prefixes of each sorted
permutation.

Choosing ``r`` (and with it the number of permutations): a permutation with an ``p``-bit prefix puts
about ``N / 2**p`` random keys behind each prefix, every one of them a candidate to check. More
permutations give longer prefixes and fewer candidates but cost a sort and ``8 N`` bytes each.

* :class:`FingerprintIndex` (stored permutations, for queries) takes the smallest ``r`` whose
  buckets hold at most :data:`QUERY_BUCKET` keys on average, as long as the permutations fit in its
  memory budget; with a large ``N`` the budget wins and it keeps ``r = 1`` (``k + 1`` permutations).
* :func:`all_pairs` picks the plan that minimises an estimate of the work: per permutation a
  counting sort of every fingerprint plus the candidate pairs in its buckets (~``N**2 / 2**(b+1)``
  for ``b`` bucket bits). Small ``N`` gets few permutations, large ``N`` more. Besides every choice
  of ``r`` of ``k + r`` blocks, it weighs *covering* plans (:meth:`PermutationPlan.covering`): split
  the bits into ``k + 2r - 1`` blocks in two halves and take every choice of ``r`` blocks within a
  half; a pair leaves ``2r - 1`` blocks intact, so ``r`` in one half; and smaller such families
  found by search (``coverings.py``). At ``k = 8`` over 10^6 fingerprints that is 71 permutations of
  16-bit prefixes, where the halves take 105 and every choice of three blocks 165. Permutations that
  lead with the same block share one partition of the fingerprints; each part is then sorted and
  scanned permutation by permutation in compiled code, the parts shared among threads, and the next
  group's partition made while this group's last parts are scanned (``match/index_kernels.py``).

Each pair is reported once: from the first permutation (in a fixed order) whose prefix blocks it
leaves intact. Identical fingerprints are pairs at distance 0.

>>> fps = np.array([0b1011, 0b1001, 1 << 63, 0b1011], dtype=np.uint64)
>>> pairs = all_pairs(fps, 1)
>>> [(int(i), int(j), int(d)) for i, j, d in zip(pairs.i, pairs.j, pairs.distance)]
[(0, 1, 1), (0, 3, 0), (1, 3, 1)]
>>> ids, dist = FingerprintIndex(fps, 2).query(0b1000, 1)
>>> ids.tolist(), dist.tolist()
([1], [1])
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import U64, Index
from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.match.permutations import (
    BITS,
    DEFAULT_MEMORY_BUDGET,
    Permutation,
    PermutationGroup,
    PermutationPlan,
    as_fingerprints,
    block_masks,
    first_permutations,
    hamming,
    permutation_groups,
    plan_for_pairs,
    plan_for_queries,
)
from simdup_gui.engine.options import MAX_K, check_k
from simdup_gui.engine.records import Pairs

__all__ = [  # what the index offers, its permutations' helpers among them
    "MAX_K",
    "FingerprintIndex",
    "Pairs",
    "all_pairs",
    "as_fingerprints",
    "brute_force_pairs",
    "brute_force_query",
    "check_k",
    "hamming",
]


def _never() -> bool:
    return False


def all_pairs(
    fingerprints: npt.ArrayLike,
    k: int,
    *,
    plan: PermutationPlan | None = None,
    jobs: int = 2,
    cancel: Callable[[], bool] = _never,
    window: int | None = None,
) -> Pairs:
    """Every pair of fingerprints within Hamming distance ``k``, each once, ``i < j``.

    Args:
        fingerprints: 1-D array of uint64 fingerprints.
        k: largest Hamming distance reported (0 to 8).
        plan: the permutations to use; by default :func:`plan_for_pairs` chooses them.
        jobs: how many threads share each partition's parts (the kernels release the GIL).
        cancel: polled between steps; when it returns True the result so far is returned.
        window: if given, each fingerprint of a permutation's bucket is checked against the next
            ``window`` of that bucket only: no longer every pair, but linear in a run of
            thousands of near-copies and enough to connect them (what grouping needs).

    Returns:
        The pairs sorted by (i, j), with their distances.
    """
    k = check_k(k)
    fps = as_fingerprints(fingerprints)
    n = len(fps)
    if n < 2:
        return Pairs.empty()
    plan = plan or plan_for_pairs(k, n)
    if plan.k < k:
        raise ValueError(f"the plan is for k <= {plan.k}, not {k}")
    kernels = kernel_module("simdup_gui.engine.match.index_kernels")
    part_bits, groups = permutation_groups(plan, n)
    blocks = np.array(block_masks(plan), np.uint64)
    first = first_permutations(plan)
    parts = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:

        def partitioned(group: PermutationGroup) -> Future[tuple[U64, Index, Index]]:
            masks, rotations = group.part_masks, group.part_rotations
            return pool.submit(kernels.partition, fps, masks, rotations, part_bits)

        coming, checking = partitioned(groups[0]), []
        for at, group in enumerate(groups):
            if cancel():
                coming.cancel()
                break
            ordered, ids, starts = coming.result()
            shares = np.array_split(np.arange(1 << part_bits), 2 * max(1, jobs))
            futures = [
                pool.submit(
                    kernels.group_pairs,
                    ordered,
                    ids,
                    starts,
                    share,
                    k,
                    group.masks,
                    group.rotations,
                    group.local_bits,
                    group.prefix_masks,
                    group.in_plan,
                    first,
                    blocks,
                    window or 0,
                )
                for share in shares
                if len(share)
            ]
            parts.extend(future.result() for future in checking)  # the group before
            checking = futures
            if at + 1 < len(groups):  # sorted while this group's last pairs are checked
                coming = partitioned(groups[at + 1])
        parts.extend(future.result() for future in checking)
    return Pairs.from_parts(parts, n)


def _permutation_bits(permutation: Permutation, n: int) -> tuple[int, int]:
    """A stored permutation's directory bits and filter bits, for ``n`` fingerprints.

    Beyond 2**24 fingerprints the filter keeps 16 bits (2 bytes a row, not 4): a permutation of 10^8
    is 0.6 GB instead of 0.8 GB, for slightly more rows checked in full.
    """
    id_bits = max(1, (n - 1).bit_length())
    bits = max(1, min(permutation.prefix_bits, 24, n.bit_length() - 2))
    widest = 16 if n > 2**24 else 32
    return bits, max(0, min(widest, BITS - bits - id_bits))


@dataclass(frozen=True)
class _StoredPermutation:
    """One query permutation: ids sorted by permuted key, a bucket directory and a 16-bit filter."""

    permutation: Permutation
    directory: np.ndarray  # directory[v] = first row whose key's top ``bits`` bits are >= v
    bits: int
    filters: np.ndarray  # the ``filter_bits`` key bits that follow the directory bits
    filter_bits: int
    ids: np.ndarray  # the fingerprint index of each row


class FingerprintIndex:
    """Stored permutations answering ``query(fingerprint, k)`` for any k up to the index's.

    A permutation keeps, sorted by permuted key, only each fingerprint's id and the 16 to 32 key
    bits after its bucket bits (as many as fit beside the id in one 64-bit sort key). A directory on
    the top ``b`` bits (``b`` at most the prefix length and about log2 N) finds a query's bucket
    with two array reads. A row whose filter bits already differ from the query's in more than ``k``
    places cannot match; the few that pass are checked on their full fingerprints. So a query reads
    2 or 4 bytes per candidate instead of 8, which is what costs time once the permutations are far
    larger than the CPU caches.

    Memory: ``6 N`` to ``8 N`` bytes per permutation plus ``4 * 2**b`` per directory; the
    fingerprint array itself is kept by reference, not copied.
    """

    def __init__(
        self,
        fingerprints: npt.ArrayLike,
        k: int,
        *,
        memory_budget: int = DEFAULT_MEMORY_BUDGET,
        plan: PermutationPlan | None = None,
    ) -> None:
        """Build the permutations for distances up to ``k`` over ``fingerprints``."""
        self.k = check_k(k)
        self.fingerprints = as_fingerprints(fingerprints)
        self.plan = plan or plan_for_queries(self.k, len(self.fingerprints), memory_budget)
        if self.plan.k < self.k:
            raise ValueError(f"the plan is for k <= {self.plan.k}, not {self.k}")
        self._permutations = [self._build(permutation) for permutation in self.plan.permutations]

    def _build(self, permutation: Permutation) -> _StoredPermutation:
        n = len(self.fingerprints)
        id_bits = max(1, (n - 1).bit_length())
        id_type = np.uint32 if id_bits <= 32 else np.uint64
        bits, filter_bits = _permutation_bits(permutation, n)
        keys = permutation.apply(self.fingerprints)
        keys >>= np.uint64(BITS - bits - filter_bits)
        keys <<= np.uint64(id_bits)
        keys |= np.arange(n, dtype=np.uint64)
        keys.sort()
        ids = (keys & np.uint64((1 << id_bits) - 1)).astype(id_type)
        keys >>= np.uint64(id_bits)
        filter_type = np.uint16 if filter_bits <= 16 else np.uint32
        filters = (keys & np.uint64((1 << filter_bits) - 1)).astype(filter_type)
        keys >>= np.uint64(filter_bits)
        directory = np.searchsorted(keys, np.arange(2**bits + 1, dtype=np.uint64)).astype(id_type)
        return _StoredPermutation(permutation, directory, bits, filters, filter_bits, ids)

    def __len__(self) -> int:
        return len(self.fingerprints)

    def save(self, folder: str | os.PathLike[str]) -> None:
        """Write the permutations into ``folder`` as ``.npy`` files (the plan made again on load).

        Their files keep the names they had when these were called tables (``table0-ids.npy``):
        libraries written before read as they are.
        """
        for n, permutation in enumerate(self._permutations):
            for name in ("directory", "filters", "ids"):
                np.save(os.path.join(folder, f"table{n}-{name}.npy"), getattr(permutation, name))

    @classmethod
    def load(
        cls,
        folder: str | os.PathLike[str],
        fingerprints: npt.ArrayLike,
        k: int,
        *,
        memory_budget: int = DEFAULT_MEMORY_BUDGET,
    ) -> FingerprintIndex:
        """The index :meth:`save` wrote for these fingerprints, its permutations memory-mapped.

        A query then reads a few pages of each permutation, not the whole index.

        Raises:
            ValueError: the files do not fit the fingerprints (another index's, or damaged).
        """
        index = cls.__new__(cls)
        index.k = check_k(k)
        index.fingerprints = as_fingerprints(fingerprints)
        n = len(index.fingerprints)
        index.plan = plan_for_queries(index.k, n, memory_budget)
        index._permutations = []
        for t, permutation in enumerate(index.plan.permutations):
            arrays = {
                name: np.load(os.path.join(folder, f"table{t}-{name}.npy"), mmap_mode="r")
                for name in ("directory", "filters", "ids")
            }
            bits, filter_bits = _permutation_bits(permutation, n)
            if len(arrays["ids"]) != n or len(arrays["directory"]) != 2**bits + 1:
                raise ValueError(f"{folder}: permutation {t} does not fit {n} fingerprints")
            stored = _StoredPermutation(
                permutation,
                arrays["directory"],
                bits,
                arrays["filters"],
                filter_bits,
                arrays["ids"],
            )
            index._permutations.append(stored)
        return index

    @property
    def nbytes(self) -> int:
        """Bytes held by the index beyond the fingerprint array."""
        return sum(t.directory.nbytes + t.filters.nbytes + t.ids.nbytes for t in self._permutations)

    def query(
        self, fingerprint: int, k: int | None = None
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
        """Ascending indices of the fingerprints within ``k`` of ``fingerprint``, and distances."""
        k = self.k if k is None else check_k(k)
        if k > self.k:
            raise ValueError(f"this index answers k <= {self.k}, not {k}")
        fp = int(fingerprint)
        if not 0 <= fp < 2**BITS:
            raise ValueError(f"fingerprint must be a 64-bit unsigned integer, got {fingerprint!r}")
        filters, wanted, sizes, rows = [], [], [], []
        for t in self._permutations:
            q = t.permutation.apply_int(fp)
            top = q >> (BITS - t.bits)
            lo, hi = t.directory[top : top + 2].tolist()
            if hi > lo:
                filters.append(t.filters[lo:hi])
                wanted.append((q >> (BITS - t.bits - t.filter_bits)) & ((1 << t.filter_bits) - 1))
                sizes.append(hi - lo)
                rows.append((t.ids, lo))
        if not filters:
            return np.empty(0, np.int64), np.empty(0, np.uint8)
        query_filters = np.repeat(np.array(wanted, dtype=np.uint32), sizes)
        near = np.bitwise_count(np.concatenate(filters) ^ query_filters) <= k
        candidates = set()
        ends = np.cumsum(sizes).tolist()
        for position in np.flatnonzero(near).tolist():
            permutation = bisect.bisect_right(ends, position)
            permutation_ids, lo = rows[permutation]
            candidates.add(
                int(permutation_ids[lo + position - (ends[permutation] - sizes[permutation])])
            )
        if not candidates:
            return np.empty(0, np.int64), np.empty(0, np.uint8)
        ids = np.array(sorted(set(candidates)), dtype=np.int64)
        dist = np.bitwise_count(self.fingerprints[ids] ^ np.uint64(fp))
        keep = dist <= k
        return ids[keep], dist[keep].astype(np.uint8)

    def pairs(self, k: int | None = None, *, jobs: int = 2) -> Pairs:
        """All pairs within ``k`` (default: the index's k), each once with ``i < j``."""
        k = self.k if k is None else check_k(k)
        return all_pairs(self.fingerprints, k, jobs=jobs)


def brute_force_pairs(fingerprints: npt.ArrayLike, k: int, *, chunk: int = 2048) -> Pairs:
    """All pairs within ``k`` by comparing every pair: the reference the index must equal."""
    k = check_k(k)
    fps = as_fingerprints(fingerprints)
    n = len(fps)
    parts = []
    for lo in range(0, n, chunk):
        block = fps[lo : lo + chunk]
        dist = np.bitwise_count(block[:, None] ^ fps[None, lo:])
        ii, jj = np.nonzero(dist <= k)
        keep = jj > ii
        parts.append((ii[keep] + lo, jj[keep] + lo, dist[ii[keep], jj[keep]]))
    return Pairs.from_parts(parts, n)


def brute_force_query(
    fingerprints: npt.ArrayLike, fingerprint: int, k: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
    """Indices and distances within ``k`` of one fingerprint by a full scan."""
    fps = as_fingerprints(fingerprints)
    dist = np.bitwise_count(fps ^ np.uint64(fingerprint))
    ids = np.flatnonzero(dist <= check_k(k)).astype(np.int64)
    return ids, dist[ids].astype(np.uint8)
