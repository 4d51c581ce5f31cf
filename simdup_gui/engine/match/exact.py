"""Pairs just above the similarity floor, decided on the two texts' whole shingle sets.

A 128-hash bottom-k estimate of the Jaccard similarity is off by a few hundredths either way
(about 0.04 at 0.4): two different pages that share a site's header and footer, or a long
table, can estimate just above the floor. Before such a pair is called a copy, its whole
shingle sets (the files read again: ``fingerprint.file_records.TextShingles``) must say so too.

An estimate just below the floor stays apart: acting on a pair that is not a copy costs an
editor more than missing one that barely is (and on the labelled corpus, the pairs the whole
texts would lift over the floor are the English and Chinese pages of one manual, sharing a
long table of codes).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.fingerprint.shingles import Sketch, exact_jaccard

if TYPE_CHECKING:
    from simdup_gui.engine.fingerprint.file_records import OwnText

log = logging.getLogger(__name__)

NEAR_FLOOR = 0.09  # about two standard errors of a 128-hash sketch's estimate at 0.4
EXACT_PAIRS = 1_000  # at most this many pairs a grouping are checked on their whole texts
Exact = Callable[[int, int], float | None]  # two texts' exact similarity, None if unknown
Shingles = Callable[[int], Sketch | None]  # a file's whole shingle set (by index), or None


class Texts(Protocol):
    """Files' texts read again (``fingerprint.file_records.TextShingles``), by index."""

    def __call__(self, file: int) -> Sketch | None:
        """The file's whole shingle set, or None."""

    def own(self, file: int, template: npt.NDArray[np.uint64]) -> OwnText | None:
        """The file's own shingles, its ``template`` lines left out, or None."""

    def reading(self, file: int) -> Callable[[], str | None] | None:
        """How to read the file's text again as the scan read it (a picklable call), or None."""

    def version(self, file: int) -> Hashable:
        """What tells the file's text: the file's version and how it is read."""


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


class NodeTexts:
    """The texts of grouping's nodes (``files``: each node's file) read again, when they can be.

    :meth:`similarity`, a pair's exact similarity, is asked of the first EXACT_PAIRS pairs only:
    beyond, the estimate decides. A folder of one site's pages can put every pair near the
    floor (3,000 plain-text pages sharing a template: 37,000 files read again, 23 s against
    0.6 s for the estimates), where a usual folder has a few (11 pairs in the labelled corpus).
    :meth:`own` gives a node's own shingles, its template lines left out; once asked, a node is
    measured by them (its exact similarity too).
    """

    def __init__(self, texts: Texts, files: Sequence[int]) -> None:
        self._texts, self._files = texts, files
        self._known: dict[tuple[int, int], float | None] = {}
        self._own: dict[int, OwnText | None] = {}
        self._told = False

    def own(self, node: int, template: npt.NDArray[np.uint64]) -> OwnText | None:
        """The node's own shingles without the ``template`` lines (None: it cannot be read)."""
        if node not in self._own:
            self._own[node] = self._texts.own(self._files[node], template)
            self._known = {k: v for k, v in self._known.items() if node not in k}
        return self._own[node]

    def reading(self, node: int) -> Callable[[], str | None] | None:
        """How to read the node's text again as the scan read it (a picklable call), or None."""
        return self._texts.reading(self._files[node])

    def version(self, node: int) -> Hashable:
        """What tells the node's text: its file's version and how it is read."""
        return self._texts.version(self._files[node])

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
        a, b = self._shingles(x), self._shingles(y)
        found = None if a is None or b is None else exact_jaccard(a, b)
        self._known[key] = found
        return found

    def _shingles(self, node: int) -> Sketch | None:
        """The node's whole shingle set, or its own when it is measured by its own lines."""
        if node not in self._own:
            return self._texts(self._files[node])
        own = self._own[node]
        return own.shingles if own is not None and own.whole else None
