"""The compiled kernels' own helpers, against numpy."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simdup_gui.engine.kernels import _radix_sort


@given(st.lists(st.integers(0, 2**64 - 1), max_size=300), st.integers(1, 64))
def test_radix_sort_sorts_like_numpy(values: list[int], bits: int) -> None:
    array = np.array(values, dtype=np.uint64) >> np.uint64(64 - bits)  # high bytes shared
    expected = np.sort(array)
    _radix_sort(array, np.empty(len(array) + 1, dtype=np.uint64))
    assert array.tolist() == expected.tolist()
