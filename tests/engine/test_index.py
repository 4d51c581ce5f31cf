"""The permutation index must give exactly the brute-force answer."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine.kernels import kernel_module, plain_kernels
from simdup_gui.engine.match.coverings import coverings
from simdup_gui.engine.match.index import (
    MAX_K,
    FingerprintIndex,
    Pairs,
    Permutation,
    PermutationPlan,
    all_pairs,
    brute_force_pairs,
    brute_force_query,
    plan_for_pairs,
    plan_for_queries,
)
from simdup_gui.engine.match.permutations import block_masks, first_permutations, move_arrays

U64 = st.integers(min_value=0, max_value=2**64 - 1)
SPECIAL = st.sampled_from([0, 2**64 - 1, 1, 2**63, 0xDEADBEEFDEADBEEF])


@st.composite
def fingerprint_sets(draw: st.DrawFn) -> np.ndarray:
    """Random fingerprints plus planted near neighbours, exact copies and extreme values."""
    base = draw(st.lists(st.one_of(U64, SPECIAL), min_size=0, max_size=40))
    values = list(base)
    for _ in range(draw(st.integers(0, 30))):
        if not values:
            break
        source = values[draw(st.integers(0, len(values) - 1))]
        flips = draw(st.lists(st.integers(0, 63), max_size=MAX_K + 2))
        for bit in flips:
            source ^= 1 << bit
        values.append(source)
    order = draw(st.permutations(range(len(values))))
    return np.array([values[i] for i in order], dtype=np.uint64)


def as_tuples(pairs: Pairs) -> list[tuple[int, int, int]]:
    return list(zip(pairs.i.tolist(), pairs.j.tolist(), pairs.distance.tolist(), strict=True))


@settings(max_examples=300, deadline=None)
@given(fps=fingerprint_sets(), k=st.integers(0, MAX_K))
def test_all_pairs_equals_brute_force(fps: np.ndarray, k: int) -> None:
    assert as_tuples(all_pairs(fps, k)) == as_tuples(brute_force_pairs(fps, k))


PLAN_KINDS = st.sampled_from(["every", "halves", "found"])


def a_plan(k: int, r: int, kind: str) -> PermutationPlan:
    """Every choice of ``r`` of ``k + r`` blocks, the halves' covering (from k = 1), or a
    covering found by search (those for k = 8 serve any k below too)."""
    if kind == "found":
        count, family = sorted(coverings(MAX_K).items())[r % 2]
        return PermutationPlan.designed(MAX_K, count, family)
    return (
        PermutationPlan.covering(k, r)
        if kind == "halves" and k and r > 1
        else PermutationPlan.build(k, r)
    )


@settings(max_examples=200, deadline=None)
@given(fps=fingerprint_sets(), k=st.integers(0, MAX_K), r=st.integers(1, 4), kind=PLAN_KINDS)
def test_the_plain_form_equals_brute_force(fps: np.ndarray, k: int, r: int, kind: str) -> None:
    """The numpy twin of the permutation scan, which small scans run (``engine/kernels.py``)."""
    with plain_kernels():
        found = all_pairs(fps, k, plan=a_plan(k, r, kind))
    assert as_tuples(found) == as_tuples(brute_force_pairs(fps, k))


@settings(max_examples=100, deadline=None)
@given(fps=fingerprint_sets(), k=st.integers(0, MAX_K), window=st.integers(1, 4))
def test_a_window_gives_the_same_pairs_in_both_forms(fps: np.ndarray, k: int, window: int) -> None:
    copies = np.concatenate([fps, fps, fps])  # long runs of one prefix
    compiled = as_tuples(all_pairs(copies, k, window=window))
    with plain_kernels():
        assert as_tuples(all_pairs(copies, k, window=window)) == compiled
    assert set(compiled) <= set(as_tuples(brute_force_pairs(copies, k)))


@settings(max_examples=150, deadline=None)
@given(fps=fingerprint_sets(), k=st.integers(0, MAX_K), r=st.integers(1, 4), kind=PLAN_KINDS)
def test_every_permutation_plan_is_exact(fps: np.ndarray, k: int, r: int, kind: str) -> None:
    plan = a_plan(k, r, kind)
    assert as_tuples(all_pairs(fps, k, plan=plan)) == as_tuples(brute_force_pairs(fps, k))


@pytest.mark.parametrize("k", range(1, MAX_K + 1))
@pytest.mark.parametrize("r", [2, 3, 4])
def test_a_covering_plan_leaves_some_permutation_intact_whatever_k_blocks_change(
    k: int, r: int
) -> None:
    plan = PermutationPlan.covering(k, r)
    count = len(plan.blocks)
    assert count == k + 2 * r - 1
    assert len(plan.permutations) < math.comb(count, r)  # fewer than every choice of r blocks
    assert_every_change_leaves_a_permutation(plan, k)


FOUND = [(k, count) for k in range(1, MAX_K + 1) for count in coverings(k)]


@pytest.mark.parametrize(("k", "count"), FOUND)
def test_a_covering_found_by_search_leaves_some_permutation_intact_whatever_k_blocks_change(
    k: int, count: int
) -> None:
    family = coverings(k)[count]
    plan = PermutationPlan.designed(k, count, family)
    assert len(plan.blocks) == count
    assert len(set(family)) == len(family)
    halves = PermutationPlan.covering(k, plan.r)
    assert len(plan.permutations) < len(halves.permutations)  # fewer permutations than the halves
    assert_every_change_leaves_a_permutation(plan, k)


def assert_every_change_leaves_a_permutation(plan: PermutationPlan, k: int) -> None:
    """Every way k flipped bits can touch k blocks leaves some permutation's blocks intact, and that
    set of intact blocks names its first permutation (each pair reported once)."""
    count = len(plan.blocks)
    assert sum(width for _, width in plan.blocks) == 64
    first = first_permutations(plan)
    every = (1 << count) - 1
    for touched in combinations(range(count), min(k, count)):
        intact = every & ~sum(1 << b for b in touched)
        assert first[intact] >= 0
        permutation = plan.permutations[first[intact]]
        assert all(
            permutation.prefix_mask & mask == 0 or intact >> b & 1
            for b, mask in enumerate(block_masks(plan))
        )


def test_at_the_default_k_the_cost_picks_a_covering_found_by_search() -> None:
    """At k = 8: 71 permutations of 16-bit prefixes over 10^6 fingerprints, 86 of 17-18 bits over
    10^7, where the halves took 105 and every choice of three blocks 165 (docs/speed.md)."""
    found = {len(family) for family in coverings(8).values()}
    for n in (10**6, 10**7):
        chosen = plan_for_pairs(8, n)
        assert len(chosen.permutations) in found
        assert min(t.prefix_bits for t in chosen.permutations) >= 16
        assert len(chosen.permutations) < len(PermutationPlan.covering(8, 4).permutations)


@settings(max_examples=200, deadline=None)
@given(
    fps=fingerprint_sets(),
    k=st.integers(0, MAX_K),
    query=st.one_of(U64, SPECIAL),
    data=st.data(),
)
def test_query_equals_brute_force(fps: np.ndarray, k: int, query: int, data: st.DataObject) -> None:
    index = FingerprintIndex(fps, k)
    asked = data.draw(st.integers(0, k))
    if len(fps) and data.draw(st.booleans()):
        query = int(fps[data.draw(st.integers(0, len(fps) - 1))]) ^ (
            1 << data.draw(st.integers(0, 63))
        )
    ids, dist = index.query(query, asked)
    want_ids, want_dist = brute_force_query(fps, query, asked)
    assert ids.tolist() == want_ids.tolist()
    assert dist.tolist() == want_dist.tolist()


@settings(max_examples=50, deadline=None)
@given(fps=fingerprint_sets(), k=st.integers(0, MAX_K))
def test_index_pairs_equal_brute_force(fps: np.ndarray, k: int) -> None:
    assert as_tuples(FingerprintIndex(fps, k).pairs()) == as_tuples(brute_force_pairs(fps, k))


@pytest.mark.parametrize("n", [0, 1, 2])
def test_tiny_sets(n: int) -> None:
    fps = np.array([0, 2**64 - 1][:n], dtype=np.uint64)
    assert len(all_pairs(fps, 8)) == 0
    if n:
        assert FingerprintIndex(fps, 3).query(0, 3)[0].tolist() == [0]


def test_identical_fingerprints_are_pairs_at_distance_zero() -> None:
    fps = np.array([7, 7, 7, 2**64 - 1], dtype=np.uint64)
    assert as_tuples(all_pairs(fps, 0)) == [(0, 1, 0), (0, 2, 0), (1, 2, 0)]
    assert FingerprintIndex(fps, 0).query(7)[0].tolist() == [0, 1, 2]


def test_larger_random_set_with_planted_neighbours() -> None:
    rng = np.random.default_rng(7)
    fps = rng.integers(0, 2**64, size=20_000, dtype=np.uint64, endpoint=False)
    planted = fps[:2000] ^ (np.uint64(1) << rng.integers(0, 64, 2000).astype(np.uint64))
    fps = np.concatenate([fps, planted, fps[:50]])
    for k in (2, 3):
        assert as_tuples(all_pairs(fps, k)) == as_tuples(brute_force_pairs(fps, k))


@given(st.integers(0, MAX_K), st.integers(1, 3))
def test_plan_guarantees_an_intact_prefix(k: int, r: int) -> None:
    """Pigeonhole: any k flipped bits leave some permutation's prefix blocks untouched."""
    plan = PermutationPlan.build(k, r)
    assert sum(width for _, width in plan.blocks) == 64
    assert len(plan.permutations) == len({t.prefix_mask for t in plan.permutations})
    rng = np.random.default_rng(k * 10 + r)
    for _ in range(200):
        diff = sum(1 << int(b) for b in rng.choice(64, size=k, replace=False))
        assert any(diff & t.prefix_mask == 0 for t in plan.permutations)


@given(st.lists(U64, min_size=1, max_size=20, unique=True), st.integers(0, 4), st.integers(1, 3))
def test_permutations_are_bijections_keeping_popcount(values: list[int], k: int, r: int) -> None:
    for permutation in PermutationPlan.build(k, r).permutations:
        permuted = [permutation.apply_int(v) for v in values]
        assert len(set(permuted)) == len(values)
        array = permutation.apply(np.array(values, dtype=np.uint64))
        assert array.tolist() == permuted
        assert [p.bit_count() for p in permuted] == [v.bit_count() for v in values]


@settings(max_examples=100, deadline=None)
@given(
    values=st.lists(st.one_of(U64, SPECIAL), min_size=1, max_size=20),
    k=st.integers(0, MAX_K),
    r=st.integers(1, 4),
    kind=PLAN_KINDS,
    window=st.tuples(st.integers(0, 64), st.integers(0, 64)),
)
def test_gathering_gives_the_permuted_keys_bits(
    values: list[int], k: int, r: int, kind: str, window: tuple[int, int]
) -> None:
    """A permutation's bucket bits come straight from the fingerprint, in both forms."""
    start, count = min(window), max(window) - min(window)
    fps = np.array(values, dtype=np.uint64)
    compiled = kernel_module("simdup_gui.engine.match.index_kernels")
    permutations = a_plan(k, r, kind).permutations
    gathers = [permutation.gathering(start, count) for permutation in permutations]
    masks, rotations = move_arrays(gathers)  # padded to a multiple of 4, as the kernels take
    assert masks.shape[1] % 4 == 0
    out = np.empty(len(fps), np.uint64)
    for permutation, row_masks, row_rotations in zip(permutations, masks, rotations, strict=True):
        wanted = [
            (permutation.apply_int(v) << start) % 2**64 >> (64 - count) if count else 0
            for v in values
        ]
        assert compiled.gathered(fps, row_masks, row_rotations).tolist() == wanted
        compiled.gather_into(out, fps, 0, row_masks, row_rotations)
        assert out.tolist() == wanted
        compiled.gather_into(out[1:], fps, 1, row_masks, row_rotations)  # from an offset
        assert out[1:].tolist() == wanted[1:]


def test_permutation_puts_chosen_blocks_first() -> None:
    perm = Permutation.leading(((0, 16), (16, 16), (32, 16), (48, 16)), [2])
    assert perm.apply_int(0x0000_0000_ABCD_0000) == 0xABCD_0000_0000_0000


def test_more_permutations_for_more_fingerprints() -> None:
    small, large = plan_for_pairs(3, 1_000), plan_for_pairs(3, 100_000_000)
    assert len(small.permutations) < len(large.permutations)
    assert len(plan_for_queries(3, 10_000_000).permutations) > len(
        plan_for_queries(3, 1_000).permutations
    )
    budget = plan_for_queries(3, 100_000_000)
    assert len(budget.permutations) * 8 * 100_000_000 <= 4 * 1024**3


@pytest.mark.parametrize("bad", [-1, 9, 3.5, "3", True])
def test_k_out_of_range_is_rejected(bad: object) -> None:
    with pytest.raises(ValueError, match="k must be"):
        all_pairs(np.zeros(3, dtype=np.uint64), bad)  # type: ignore[arg-type]


def test_query_above_index_k_is_rejected() -> None:
    with pytest.raises(ValueError, match="answers k <= 2"):
        FingerprintIndex(np.zeros(3, dtype=np.uint64), 2).query(0, 3)
