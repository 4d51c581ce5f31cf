"""The permutations of the index: which blocks of bits lead each, and how many there are.

See ``index.py`` for the method (Manku, Jain and Das Sarma, WWW 2007) and how the plan is
chosen; the end of this module readies a plan's permutations for the all-pairs kernels.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.match.coverings import coverings
from simdup_gui.engine.options import check_k

U64 = npt.NDArray[np.uint64]
BITS = 64
QUERY_BUCKET = 64
DEFAULT_MEMORY_BUDGET = 4 * 1024**3
BUCKET_BITS = 22  # at most this many leading key bits make an all-pairs permutation's buckets
MAX_BLOCKS = 16  # an all-pairs plan's blocks: its kernel looks up each set of intact ones
_PERMUTATION_COST = 20.0  # one fingerprint through one permutation's sort (measured against ...)
_PAIR_COST = 1.0  # ... checking one pair of a bucket


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
    """Which bit goes where in a permutation: the chosen blocks first, then the rest in order."""

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

    def gathering(self, start: int, count: int) -> tuple[tuple[int, int], ...]:
        """The moves that bring key bits ``start`` to ``start + count`` (from the top) down.

        Each move is (source mask, left rotation): rotating each masked part of a fingerprint
        and joining them gives those ``count`` key bits as the low bits of a word, and no
        other bit. A bucket needs only these, not the whole permuted key.
        """
        low = BITS - start - count  # where the window's lowest bit sits in the key
        window = ((1 << count) - 1) << low
        moves = []
        for mask, shift in self.moves:
            source = window >> shift if shift >= 0 else (window << -shift) & (2**BITS - 1)
            if mask & source:
                moves.append((mask & source, (shift - low) % BITS))
        return tuple(moves)

    def apply_int(self, fp: int) -> int:
        """Permute one fingerprint given as a Python int."""
        out = 0
        for mask, shift in self.moves:
            part = fp & mask
            out |= part << shift if shift >= 0 else part >> -shift
        return out & (2**BITS - 1)


@dataclass(frozen=True)
class PermutationPlan:
    """The blocks and permutations that make every pair within ``k`` share a prefix somewhere."""

    k: int
    r: int
    blocks: tuple[tuple[int, int], ...]
    permutations: tuple[Permutation, ...]

    @classmethod
    def build(cls, k: int, r: int) -> PermutationPlan:
        """64 bits in ``k + r`` near-equal blocks; one permutation per choice of ``r`` blocks."""
        check_k(k)
        if not 1 <= r <= BITS - k:
            raise ValueError(f"r must be from 1 to {BITS - k}, got {r}")
        blocks = _blocks(k + r)
        permutations = tuple(Permutation.leading(blocks, c) for c in combinations(range(k + r), r))
        return cls(k, r, blocks, permutations)

    @classmethod
    def covering(cls, k: int, r: int) -> PermutationPlan:
        """``k + 2r - 1`` blocks in two halves; a permutation per choice of ``r`` blocks in a half.

        A pair within ``k`` leaves at least ``2r - 1`` blocks intact, so ``r`` or more of them in
        one half: some permutation's blocks are all intact. Fewer permutations than :meth:`build`
        for prefixes of the same length (at ``k = 8``: 105 permutations of four 4-5 bit blocks,
        against 165 of three 5-6 bit blocks); :meth:`designed` takes smaller families found by
        search.
        """
        check_k(k)
        count = k + 2 * r - 1
        if r < 2 or k < 1 or count > BITS:
            raise ValueError(f"no covering plan for k = {k} with r = {r}")
        half = (count + 1) // 2
        chosen = [*combinations(range(half), r), *combinations(range(half, count), r)]
        blocks = _blocks(count)
        return cls(k, r, blocks, tuple(Permutation.leading(blocks, c) for c in chosen))

    @classmethod
    def designed(cls, k: int, count: int, family: Sequence[int]) -> PermutationPlan:
        """One permutation per member of ``family``, a covering found by search (``coverings.py``).

        Its members are sets of ``r`` of ``count`` blocks (bit ``b``: block ``b``) such that
        any ``k`` changed blocks leave one of them intact.
        """
        check_k(k)
        sizes = {member.bit_count() for member in family}
        if len(sizes) != 1 or not family or max(family) >> count:
            raise ValueError(f"not a family of equal sets of {count} blocks: {family!r}")
        blocks = _blocks(count)
        chosen = [[b for b in range(count) if member >> b & 1] for member in family]
        return cls(k, sizes.pop(), blocks, tuple(Permutation.leading(blocks, c) for c in chosen))

    @property
    def min_prefix_bits(self) -> int:
        """The shortest prefix over the permutations."""
        return min(t.prefix_bits for t in self.permutations)


def block_masks(plan: PermutationPlan) -> list[int]:
    """Each block's bits, in the fingerprint's own positions."""
    return [((1 << width) - 1) << (BITS - start - width) for start, width in plan.blocks]


def chosen_blocks(plan: PermutationPlan) -> list[int]:
    """Each permutation's blocks, as a bit set (bit ``b`` for block ``b``)."""
    masks = block_masks(plan)
    return [
        sum(1 << b for b, mask in enumerate(masks) if mask & permutation.prefix_mask == mask)
        for permutation in plan.permutations
    ]


def first_permutations(plan: PermutationPlan) -> np.ndarray:
    """For each set of intact blocks (a bit set), the first permutation whose blocks it holds.

    -1 where none: a pair is reported by that permutation only, so each pair once.
    """
    if len(plan.blocks) > MAX_BLOCKS:
        raise ValueError(f"at most {MAX_BLOCKS} blocks for all pairs, not {len(plan.blocks)}")
    intact = np.arange(1 << len(plan.blocks), dtype=np.int64)
    first = np.full(len(intact), -1, np.int64)
    for place, chosen in reversed(list(enumerate(chosen_blocks(plan)))):
        first[(intact & chosen) == chosen] = place
    return first


def _blocks(count: int) -> tuple[tuple[int, int], ...]:
    """64 bits split into ``count`` near-equal blocks (start, width), the wider ones first."""
    widths = [BITS // count + (1 if b < BITS % count else 0) for b in range(count)]
    starts = np.cumsum([0, *widths[:-1]]).tolist()
    return tuple(zip(starts, widths, strict=True))


def _permutations_for(k: int, r: int) -> int:
    return math.comb(k + r, r)


def _prefix_for(k: int, r: int) -> int:
    return (BITS * r) // (k + r)


def bucket_bits(prefix_bits: int, n: int) -> int:
    """How many leading key bits make an all-pairs permutation's buckets.

    At most its prefix; about log2(n) + 1 (a bucket or two per fingerprint); at most BUCKET_BITS.
    """
    return max(1, min(prefix_bits, n.bit_length() + 1, BUCKET_BITS))


def plan_for_pairs(k: int, n: int) -> PermutationPlan:
    """Choose the permutations for an all-pairs run over ``n`` fingerprints by estimated work.

    Per permutation: a counting sort of every fingerprint, and every pair within a bucket checked.
    """
    check_k(k)
    if k == 0:
        return PermutationPlan.build(0, 1)
    plans: list[tuple[int, int, int, Callable[[], PermutationPlan]]] = [
        (_permutations_for(k, r), k + r, r, partial(PermutationPlan.build, k, r))
        for r in range(1, 8)
    ]
    for r in range(2, 8):
        count = k + 2 * r - 1
        halves = math.comb((count + 1) // 2, r) + math.comb(count // 2, r)
        plans.append((halves, count, r, partial(PermutationPlan.covering, k, r)))
    for count, family in coverings(k).items():
        r = family[0].bit_count()
        plans.append((len(family), count, r, partial(PermutationPlan.designed, k, count, family)))
    best, best_cost = plans[0], math.inf
    for plan in plans:
        permutations, blocks, r, _ = plan
        if permutations > 1024 or blocks > MAX_BLOCKS:
            continue
        per_bucket = n / 2.0 ** bucket_bits((BITS * r) // blocks, n)
        cost = permutations * n * (_PERMUTATION_COST + _PAIR_COST * per_bucket / 2)
        if cost < best_cost:
            best, best_cost = plan, cost
    return best[3]()


def plan_for_queries(k: int, n: int, memory_budget: int = DEFAULT_MEMORY_BUDGET) -> PermutationPlan:
    """The stored permutations: buckets of at most QUERY_BUCKET keys, within the memory budget."""
    check_k(k)
    if k == 0:
        return PermutationPlan.build(0, 1)
    r = 1
    while (
        n / 2.0 ** _prefix_for(k, r) > QUERY_BUCKET
        and _permutations_for(k, r + 1) * 8 * n <= memory_budget
        and _permutations_for(k, r + 1) <= 256
    ):
        r += 1
    return PermutationPlan.build(k, r)


PART_BITS = 8  # at most this many leading bits split the fingerprints into parts


def move_arrays(moves: Sequence[Sequence[tuple[int, int]]]) -> tuple[np.ndarray, np.ndarray]:
    """Rows of (mask, left rotation) moves as the kernels take them.

    A mask array and a rotation array, each row padded with empty moves to the same multiple
    of 4 (an empty mask gathers nothing).
    """
    width = max([1, *map(len, moves)])
    width += -width % 4
    padded = [[*row, *[(0, 0)] * (width - len(row))] for row in moves]
    masks = np.array([[mask for mask, _ in row] for row in padded], np.uint64)
    rotations = np.array([[rotation for _, rotation in row] for row in padded], np.int64)
    return masks, rotations


@dataclass(frozen=True)
class PermutationGroup:
    """The permutations that lead with one block, as :func:`index_kernels.group_pairs` takes them.

    Moves are (mask, left rotation) pairs (:meth:`Permutation.gathering`) in arrays from
    :func:`move_arrays`: ``part_*`` give a fingerprint's part (its leading ``part_bits``),
    ``masks[t]`` and ``rotations[t]`` its bucket within the part in permutation ``t``.
    """

    part_masks: np.ndarray
    part_rotations: np.ndarray
    masks: np.ndarray  # (permutations, moves)
    rotations: np.ndarray
    local_bits: np.ndarray
    prefix_masks: np.ndarray
    in_plan: np.ndarray  # each permutation's place in the plan


def permutation_groups(plan: PermutationPlan, n: int) -> tuple[int, list[PermutationGroup]]:
    """The bits that split the fingerprints into parts, and the plan's permutations by first block.

    A permutation's buckets are its key's leading :func:`permutations.bucket_bits`: ``part_bits`` of
    them split the fingerprints into parts, the rest sort each part.
    """
    part_bits = min(bucket_bits(BITS, n), min(width for _, width in plan.blocks), PART_BITS)
    by_first: dict[int, list[tuple[Permutation, int]]] = {}
    for place, (permutation, chosen) in enumerate(
        zip(plan.permutations, chosen_blocks(plan), strict=True)
    ):
        lowest = (chosen & -chosen).bit_length() - 1
        by_first.setdefault(lowest, []).append((permutation, place))
    groups = []
    for members in by_first.values():
        local_bits = [max(0, bucket_bits(t.prefix_bits, n) - part_bits) for t, _ in members]
        gathers = [
            t.gathering(part_bits, bits) for (t, _), bits in zip(members, local_bits, strict=True)
        ]
        lead = members[0][0].gathering(0, part_bits)  # the permutations agree on the leading bits
        (part_masks,), (part_rotations,) = move_arrays([lead])
        groups.append(
            PermutationGroup(
                part_masks,
                part_rotations,
                *move_arrays(gathers),
                np.array(local_bits, np.int64),
                np.array([permutation.prefix_mask for permutation, _ in members], np.uint64),
                np.array([place for _, place in members], np.int64),
            )
        )
    return part_bits, groups
