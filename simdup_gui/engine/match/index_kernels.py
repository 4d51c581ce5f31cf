"""The all-pairs scan of the permutations, compiled by numba (the method: ``index.py``).

Permutations are taken in groups that lead with the same block. One counting sort
(:func:`partition`) splits the fingerprints into parts by that block's leading bits; then, part by
part (1/16 to 1/256 of the fingerprints), each permutation of the group sorts the part by its next
bits and checks every pair inside a bucket in full: the whole prefix equal, the distance within
``k``, and this permutation the first (in the plan's order) whose prefix blocks the pair leaves
intact, so that one permutation only reports each pair: a lookup by the set of intact blocks
(``index.first_permutations``). A permutation's buckets are its key's leading
``part_bits + local_bits`` bits (at most its prefix), gathered straight from the fingerprint by a
few masks and rotations (``permutations.py`` ``Permutation.gathering``): the rest of the permuted
key is never made.

``partition_numpy`` and ``group_pairs_numpy`` are the same in numpy: the plain form
(``engine/kernels.py``) runs them, and tests check both forms against brute force.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simdup_gui.engine.arrays import U64, Index

_JIT = {"cache": True, "nogil": True}
_M1, _M2, _M4 = (
    np.uint64(0x5555555555555555),
    np.uint64(0x3333333333333333),
    np.uint64(0x0F0F0F0F0F0F0F0F),
)
_H01 = np.uint64(0x0101010101010101)
_ONE = np.uint64(1)


@njit(**_JIT)
def _popcount(x: np.uint64) -> np.uint64:
    """Set bits of a 64-bit word (the SWAR count, which LLVM turns into one instruction)."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return (x * _H01) >> np.uint64(56)


@njit(**_JIT)
def _turned(part: np.uint64, turn: np.uint64) -> np.uint64:
    """A word rotated left by ``turn`` bits (0 to 63)."""
    return (part << turn) | (part >> ((np.uint64(64) - turn) & np.uint64(63)))


@njit(**_JIT)
def gather_into(out: U64, values: U64, lo: int, masks: U64, rotations: Index) -> None:
    """``out[i]``: the bits the moves gather from ``values[lo + i]``, for each ``i`` of ``out``.

    Each move's mask is applied and the result rotated left, and the moves' results joined.
    The moves come four at a time (their arrays padded with empty masks to a multiple of 4),
    so that each pass over the values keeps them in registers.
    """
    for first in range(0, len(masks), 4):
        m0, m1, m2, m3 = masks[first], masks[first + 1], masks[first + 2], masks[first + 3]
        r0, r1 = np.uint64(rotations[first]), np.uint64(rotations[first + 1])
        r2, r3 = np.uint64(rotations[first + 2]), np.uint64(rotations[first + 3])
        for at in range(len(out)):
            value = values[lo + at]
            bits = _turned(value & m0, r0) | _turned(value & m1, r1)
            bits |= _turned(value & m2, r2) | _turned(value & m3, r3)
            out[at] = bits if first == 0 else out[at] | bits


@njit(**_JIT)
def partition(fps: U64, masks: U64, rotations: Index, bits: int) -> tuple[U64, Index, Index]:
    """The fingerprints and their ids by part: the ``bits`` bits the moves gather.

    Ids ascend within a part; returns where each part starts (and one more entry: the end).
    """
    n = len(fps)
    part = np.empty(n, np.uint64)
    gather_into(part, fps, 0, masks, rotations)
    starts = np.zeros((1 << bits) + 1, np.int64)
    for at in range(n):
        starts[np.int64(part[at]) + 1] += 1
    for value in range(1 << bits):
        starts[value + 1] += starts[value]
    ordered, ids = np.empty(n, np.uint64), np.empty(n, np.int64)
    room = starts[:-1].copy()
    for at in range(n):
        slot = np.int64(part[at])
        ordered[room[slot]] = fps[at]
        ids[room[slot]] = at
        room[slot] += 1
    return ordered, ids, starts


@njit(**_JIT)
def group_pairs(
    ordered: U64,
    ids: Index,
    starts: Index,
    parts: Index,
    k: int,
    masks: U64,
    rotations: Index,
    local_bits: Index,
    prefix_masks: U64,
    in_plan: Index,
    first_permutation: Index,
    blocks: U64,
    window: int,
) -> tuple[Index, Index, Index]:
    """The pairs that the permutations of one group report first, among the given ``parts``.

    The permutations of a group lead with the same block, so one :func:`partition` by its leading
    ``part_bits`` serves them all; each part is then sorted by the next ``local_bits[t]`` bits of
    permutation ``t``'s key, and the pairs of each bucket checked: the whole prefix equal, within
    ``k``, and this permutation the first whose blocks the pair leaves intact (``first_permutation``
    names it for each set of intact blocks, ``in_plan`` gives each permutation's place in the plan).
    Permutation ``t``'s moves in ``masks[t]`` and ``rotations[t]`` (:func:`gather_into`) gather a
    fingerprint's bucket within its part. With ``window`` above 0 an id meets the next ``window``
    only.
    """
    size = 1024
    left, right = np.empty(size, np.int64), np.empty(size, np.int64)
    dist = np.empty(size, np.int64)
    found = 0
    limit = np.uint64(k)
    longest = 0
    for part in parts:
        longest = max(longest, starts[part + 1] - starts[part])
    values = np.empty(longest, np.uint64)  # the part's fingerprints in bucket order
    places = np.empty(longest, np.int64)  # where each of them is in ``ordered``
    bucket_of = np.empty(longest, np.uint64)
    for permutation in range(len(local_bits)):
        permutation_masks, permutation_rotations = masks[permutation], rotations[permutation]
        bits, prefix_mask = local_bits[permutation], prefix_masks[permutation]
        ends = np.zeros((1 << bits) + 1, np.int64)
        for part in parts:
            lo, hi = starts[part], starts[part + 1]
            if hi - lo < 2:
                continue
            ends[:] = 0
            # a counting sort of the part by the permutation's next bits
            gather_into(bucket_of[: hi - lo], ordered, lo, permutation_masks, permutation_rotations)
            for at in range(hi - lo):
                ends[np.int64(bucket_of[at]) + 1] += 1
            for bucket in range(1 << bits):
                ends[bucket + 1] += ends[bucket]
            for at in range(lo, hi):
                bucket = np.int64(bucket_of[at - lo])
                values[ends[bucket]] = ordered[at]
                places[ends[bucket]] = at
                ends[bucket] += 1
            begin = 0
            for bucket in range(1 << bits):
                end = ends[bucket]
                for first in range(begin, end - 1):
                    value = values[first]
                    stop = end if window <= 0 else min(end, first + 1 + window)
                    for second in range(first + 1, stop):
                        x = value ^ values[second]
                        if x & prefix_mask or _popcount(x) > limit:
                            continue
                        d = _popcount(x)
                        intact = 0
                        for block in range(len(blocks)):
                            if not (x & blocks[block]):
                                intact |= 1 << block
                        if first_permutation[intact] != in_plan[permutation]:
                            continue  # an earlier permutation reports it
                        if found == size:
                            size *= 2
                            left, right = _grown(left, size), _grown(right, size)
                            dist = _grown(dist, size)
                        left[found], right[found] = ids[places[first]], ids[places[second]]
                        dist[found] = np.int64(d)
                        found += 1
                begin = end
    return left[:found], right[:found], dist[:found]


@njit(**_JIT)
def _grown(array: Index, size: int) -> Index:
    bigger = np.empty(size, np.int64)
    bigger[: len(array)] = array
    return bigger


def gathered(fps: U64, masks: U64, rotations: Index) -> U64:
    """The bits the moves gather from every fingerprint (:func:`gather_into`), in numpy."""
    out = np.zeros(len(fps), np.uint64)
    for mask, turn in zip(masks.tolist(), rotations.tolist(), strict=True):
        part = fps & np.uint64(mask)
        out |= (part << np.uint64(turn)) | (part >> np.uint64((64 - turn) & 63))
    return out


def partition_numpy(fps: U64, masks: U64, rotations: Index, bits: int) -> tuple[U64, Index, Index]:
    """:func:`partition` in numpy, for the plain form."""
    part = gathered(fps, masks, rotations).astype(np.int64)
    ids = np.argsort(part, kind="stable")
    starts = np.zeros((1 << bits) + 1, np.int64)
    starts[1:] = np.cumsum(np.bincount(part, minlength=1 << bits))
    return fps[ids], ids.astype(np.int64), starts


def group_pairs_numpy(
    ordered: U64,
    ids: Index,
    starts: Index,
    parts: Index,
    k: int,
    masks: U64,
    rotations: Index,
    local_bits: Index,
    prefix_masks: U64,
    in_plan: Index,
    first_permutation: Index,
    blocks: U64,
    window: int,
) -> tuple[Index, Index, Index]:
    """:func:`group_pairs` in numpy (whole-array steps), for the plain form."""
    places = np.concatenate([np.arange(starts[p], starts[p + 1]) for p in parts.tolist()] or [[]])
    places = places.astype(np.int64)
    lefts, rights, dists = [], [], []
    for permutation in range(len(local_bits)):
        bits = int(local_bits[permutation])
        local = gathered(ordered[places], masks[permutation], rotations[permutation])
        part = np.searchsorted(starts, places, side="right") - 1
        bucket = part * (1 << bits) + local.astype(np.int64)
        order = np.argsort(bucket, kind="stable")
        at_sorted, bucket = places[order], bucket[order]
        at = np.flatnonzero(bucket[1:] == bucket[:-1])
        offset = 1
        while at.size and (window <= 0 or offset <= window):
            a, b = at_sorted[at], at_sorted[at + offset]
            x = ordered[a] ^ ordered[b]
            d = np.bitwise_count(x).astype(np.int64)
            ok = ((x & prefix_masks[permutation]) == 0) & (d <= k)
            intact = np.zeros(len(x), np.int64)
            for number, block in enumerate(blocks.tolist()):
                intact |= ((x & np.uint64(block)) == 0).astype(np.int64) << number
            ok &= first_permutation[intact] == in_plan[permutation]
            lefts.append(ids[a[ok]])
            rights.append(ids[b[ok]])
            dists.append(d[ok])
            offset += 1
            at = at[at + offset < len(bucket)]
            at = at[bucket[at + offset] == bucket[at]]
    if not lefts:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.int64)
    return np.concatenate(lefts), np.concatenate(rights), np.concatenate(dists)


PLAIN_FORMS = {  # used instead by the plain form
    "partition": partition_numpy,
    "group_pairs": group_pairs_numpy,
}
