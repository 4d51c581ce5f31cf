"""The two halves of every shuffle on the cluster.

Rows are split by the reducer that takes them; each reducer gathers its piece from every task
that split.
"""

from __future__ import annotations

import operator
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from distributed import Client, Future


def split_rows(
    reducer: np.ndarray, count: int, *columns: np.ndarray
) -> list[tuple[np.ndarray, ...]]:
    """The rows of ``columns`` by ``reducer`` (0 to ``count - 1``), each piece in row order."""
    order = np.argsort(reducer, kind="stable")
    cuts = np.searchsorted(reducer[order], np.arange(count + 1))
    return [tuple(column[order[lo:hi]] for column in columns) for lo, hi in pairwise(cuts.tolist())]


def pieces_for(client: Client, split: list[Future], reducer: int) -> list[Future]:
    """Reducer ``reducer``'s piece of each split task's output."""
    return [client.submit(operator.getitem, s, reducer, pure=False) for s in split]
