"""``simhash``: Charikar's fingerprint alone, pairs within ``k`` bits (the permuted tables).

The same 64-bit fingerprint as the default's (the words of the simhash pipeline, weighted),
with nothing else: its similarity is ``1 - distance / 64``, with a floor on it only when one
is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from simdup_gui.engine.match.groups import Measure, Similarities, Thresholds
from simdup_gui.engine.match.index import all_pairs
from simdup_gui.engine.methods import WORDS, FingerprintMethod
from simdup_gui.engine.methods.keys import RUN_WINDOW
from simdup_gui.engine.records import FileRecord

if TYPE_CHECKING:
    from simdup_gui.engine.arrays import U64
    from simdup_gui.engine.match.exact import NodeTexts


@dataclass(frozen=True)
class SimHash(FingerprintMethod):
    """Simhash alone: within ``k`` bits, no text similarity unless a floor is given."""

    name: ClassVar[str] = "simhash"
    floor: ClassVar[float] = 0.0
    distances: ClassVar[bool] = True
    takes: ClassVar[frozenset[str]] = WORDS | {"k", "min_similarity"}
    words: ClassVar[bool] = True

    def measure(
        self,
        records: Sequence[FileRecord],
        k: int,
        floor: float,
        cancel: Callable[[], bool],
        texts: NodeTexts | None = None,
        template: U64 | None = None,
    ) -> Measure:
        """Pairs within ``k`` bits (at least ``floor`` alike, if given)."""
        fps = np.array([r.fingerprint for r in records], dtype=np.uint64)
        found = all_pairs(fps, k, cancel=cancel, window=RUN_WINDOW)
        alike = self.similarities(records)
        return Measure.confirmed(fps, found, alike, Thresholds(k, floor, loose=False))

    def similarities(self, records: Sequence[FileRecord]) -> Similarities:
        """``1 - distance / 64``."""
        fps = np.array([r.fingerprint or 0 for r in records], dtype=np.uint64)
        return lambda a, b: 1.0 - np.bitwise_count(fps[a] ^ fps[b]) / 64.0


METHOD = SimHash
