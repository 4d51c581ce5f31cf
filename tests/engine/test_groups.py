from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simdup_gui.engine.groups import components
from simdup_gui.engine.index import Pairs


def reference_components(n: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    """Components by breadth-first search, smallest node first."""
    neighbours: dict[int, set[int]] = {}
    for a, b in edges:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    seen: set[int] = set()
    found = []
    for start in sorted(neighbours):
        if start in seen:
            continue
        part, queue = {start}, [start]
        while queue:
            for other in neighbours[queue.pop()]:
                if other not in part:
                    part.add(other)
                    queue.append(other)
        seen |= part
        found.append(sorted(part))
    return found


@given(
    st.integers(1, 40).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=60),
        )
    )
)
def test_components_equal_a_breadth_first_search(case: tuple[int, list[tuple[int, int]]]) -> None:
    n, edges = case
    edges = [(a, b) for a, b in edges if a != b]
    pairs = Pairs(
        np.array([a for a, _ in edges], dtype=np.int64),
        np.array([b for _, b in edges], dtype=np.int64),
        np.zeros(len(edges), dtype=np.uint8),
    )
    assert components(n, pairs) == reference_components(n, edges)


def test_a_long_chain_is_one_component() -> None:
    n = 1000
    order = np.random.default_rng(1).permutation(n)
    pairs = Pairs(order[:-1], order[1:], np.zeros(n - 1, dtype=np.uint8))
    assert components(n, pairs) == [list(range(n))]
