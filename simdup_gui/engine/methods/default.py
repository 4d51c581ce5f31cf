"""``default``: simdup's own combination, the most accurate method measured (docs/methods.md).

A file's record holds the simhash fingerprint of its weighted words, the fingerprint of its
opening and a bottom-k sketch of its 5-character shingles (the simhash pipeline,
``fingerprint/pipeline.py``). Pairs are found by their fingerprints, openings and sketch bands
and confirmed by text similarity or containment (``match/default_measure.py``, imported when
a grouping needs it: naming this method costs nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from simdup_gui.engine.methods import WORDS, FingerprintMethod

if TYPE_CHECKING:
    from simdup_gui.engine.arrays import U64
    from simdup_gui.engine.match.exact import NodeTexts, Shingles
    from simdup_gui.engine.match.groups import Measure, Similarities
    from simdup_gui.engine.records import FileRecord


@dataclass(frozen=True)
class Default(FingerprintMethod):
    """Simhash candidates confirmed by the texts' shingles (similarity or containment)."""

    name: ClassVar[str] = "default"
    floor: ClassVar[float] = 0.4
    distances: ClassVar[bool] = True
    takes: ClassVar[frozenset[str]] = WORDS | {"k", "min_similarity"}
    words: ClassVar[bool] = True

    @property
    def read_settings(self) -> tuple[object, ...]:
        """Nothing beside the words' settings: the simhash pipeline's record."""
        return ()

    def describe(self, k: int, floor: float) -> str:
        """``k=8, text similarity >= 40%``."""
        return f"k={k}, text similarity >= {100 * floor:g}%"

    def note(self) -> str:
        """Nothing: a report says only what is not the default."""
        return ""

    def measure(
        self,
        records: Sequence[FileRecord],
        k: int,
        floor: float,
        cancel: Callable[[], bool],
        texts: NodeTexts | None = None,
        template: U64 | None = None,
    ) -> Measure:
        """Fingerprints, openings and sketch bands, confirmed by the texts."""
        from simdup_gui.engine.match.default_measure import default_measure

        return default_measure(records, k, floor, cancel, texts, template)

    def similarities(self, records: Sequence[FileRecord]) -> Similarities:
        """The estimated Jaccard similarity of the shingle sketches."""
        from simdup_gui.engine.fingerprint.shingles import jaccard_many, sketch_matrix

        rows = sketch_matrix([record.sketch for record in records])
        return lambda a, b: jaccard_many(rows, a, b)

    def likeness(
        self, files: Sequence[FileRecord], floor: float, shingles: Shingles | None = None
    ) -> Callable[[int, int], tuple[float, bool]]:
        """The text similarity (exact near the floor, where ``shingles`` tell) or containment."""
        from simdup_gui.engine.match.default_measure import likeness
        from simdup_gui.engine.match.exact import exact_similarity

        def like(a: int, b: int) -> tuple[float, bool]:
            exact = None if shingles is None else partial(exact_similarity, shingles, a, b)
            return likeness(files[a], files[b], floor, exact)

        return like


METHOD = Default
