"""The compiled kernels' own helpers, and the array helpers, against numpy."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simdup_gui.engine.arrays import distinct
from simdup_gui.engine.text.token_kernels import sort_hashes


def sorted_in_place(array: np.ndarray, room: int = 0) -> list[int]:
    """``array`` sorted by ``sort_hashes``, with room for ``room`` buckets (or enough)."""
    counts = np.empty(room or 2 * len(array) + 2, np.int64)
    sort_hashes(array, np.empty(len(array) + 1, np.uint64), counts)
    return array.tolist()


@given(st.lists(st.integers(0, 2**64 - 1), max_size=300), st.integers(1, 64))
def test_hashes_sort_like_numpy(values: list[int], bits: int) -> None:
    array = np.array(values, dtype=np.uint64) >> np.uint64(64 - bits)  # leading bits shared
    assert sorted_in_place(array) == sorted(array.tolist())


def test_hashes_that_are_not_uniform_sort_too() -> None:
    rng = np.random.default_rng(7)
    for size in (2, 100, 5000):
        uniform = rng.integers(0, 2**64, size, dtype=np.uint64)
        assert sorted_in_place(uniform.copy()) == sorted(uniform.tolist())
        assert sorted_in_place(uniform.copy(), room=1) == sorted(uniform.tolist())
        crowded = uniform >> np.uint64(40)  # all in the first bucket: the comparison sort ends
        assert sorted_in_place(crowded.copy()) == sorted(crowded.tolist())
        descending = np.sort(uniform)[::-1].copy()
        assert sorted_in_place(descending) == sorted(uniform.tolist())


@given(
    st.one_of(
        st.lists(st.integers(-(2**63), 2**63 - 1)).map(lambda v: np.array(v, np.int64)),
        st.lists(st.integers(0, 2**64 - 1)).map(lambda v: np.array(v, np.uint64)),
        st.lists(st.integers(0, 5), max_size=40).map(lambda v: np.array(v, np.int64)),
    )
)
def test_distinct_is_numpy_unique(values: np.ndarray) -> None:
    found = distinct(values)
    assert found.dtype == values.dtype
    assert found.tolist() == np.unique(values).tolist()
