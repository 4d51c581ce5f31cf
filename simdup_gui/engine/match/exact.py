"""Pairs just above the similarity floor, decided on the two texts' whole shingle sets.

A 128-hash bottom-k estimate of the Jaccard similarity is off by a few hundredths either way
(about 0.04 at 0.4): two different pages that share a site's header and footer, or a long
table, can estimate just above the floor. Before such a pair is called a copy, its whole
shingle sets (the files read again: ``fingerprint.files.TextShingles``) must say so too.

An estimate just below the floor stays apart: acting on a pair that is not a copy costs an
editor more than missing one that barely is (and on the labelled corpus, the pairs the whole
texts would lift over the floor are the English and Chinese pages of one manual, sharing a
long table of codes).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import numpy as np

from simdup_gui.engine.fingerprint.shingles import Sketch, exact_jaccard

log = logging.getLogger(__name__)

NEAR_FLOOR = 0.09  # about two standard errors of a 128-hash sketch's estimate at 0.4
EXACT_PAIRS = 1_000  # at most this many pairs a grouping are checked on their whole texts
Exact = Callable[[int, int], float | None]  # two texts' exact similarity, None if unknown
Shingles = Callable[[int], Sketch | None]  # a file's whole shingle set (by index), or None


def near(shares: np.ndarray | float, floor: float) -> np.ndarray | bool:
    """Whether estimates are too near above the floor to decide on (never without a floor)."""
    return (floor > 0) & (shares >= floor) & (shares <= floor + NEAR_FLOOR)


def near_floor_checked(
    shares: np.ndarray, left: Sequence[int], right: Sequence[int], floor: float, exact: Exact | None
) -> np.ndarray:
    """Estimates at most NEAR_FLOOR above the floor replaced by the ``exact`` similarity.

    Where it knows it: an unknown one (None) leaves the estimate.
    """
    if exact is None:
        return shares
    for at in np.flatnonzero(near(shares, floor)).tolist():
        value = exact(int(left[at]), int(right[at]))
        if value is not None:
            shares[at] = value
    return shares


def exact_similarity(shingles: Shingles, a: int, b: int) -> float | None:
    """Files ``a`` and ``b``'s exact text similarity from their ``shingles``, None if unknown."""
    x, y = shingles(a), shingles(b)
    return None if x is None or y is None else exact_jaccard(x, y)


class ExactPairs:
    """:func:`exact_similarity` of two of ``files`` by position, each pair worked out once.

    The first EXACT_PAIRS pairs asked about only: beyond, the estimate decides. A folder of one
    site's pages can put every pair near the floor (3,000 plain-text pages sharing a template:
    37,000 files read again, 23 s against 0.6 s for the estimates), where a usual folder has a
    few (11 pairs in the labelled corpus).
    """

    def __init__(self, shingles: Shingles, files: Sequence[int]) -> None:
        self._shingles, self._files = shingles, files
        self._known: dict[tuple[int, int], float | None] = {}
        self._told = False

    def __call__(self, x: int, y: int) -> float | None:
        """The pair's exact similarity, None when unknown or beyond EXACT_PAIRS."""
        key = (min(x, y), max(x, y))
        if key in self._known:
            return self._known[key]
        if len(self._known) >= EXACT_PAIRS:
            if not self._told:
                log.info("over %d pairs near the floor: their estimates decide", EXACT_PAIRS)
                self._told = True
            return None
        found = exact_similarity(self._shingles, self._files[x], self._files[y])
        self._known[key] = found
        return found
