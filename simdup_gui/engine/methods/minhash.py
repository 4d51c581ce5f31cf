"""``minhash``: Broder's MinHash of 5-character shingles, paired by LSH bands (datasketch's way).

For each of NUM_PERM hash functions ``(a * x + b) mod 2**64`` (top 32 bits), the smallest value
over the text's distinct shingles; the share of equal values estimates the Jaccard similarity.
Candidates share all ``rows`` values of one of ``bands`` bands (derived from the floor as
datasketch's ``MinHashLSH`` does unless given), confirmed by the estimate at least the floor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.match.groups import Measure, Similarities, Thresholds
from simdup_gui.engine.methods import NUM_PERM, FingerprintMethod, Signed
from simdup_gui.engine.methods.keys import (
    all_shingles,
    chain,
    chunked,
    linked,
    signature_rows,
    signed_texts,
)
from simdup_gui.engine.records import FileRecord

if TYPE_CHECKING:
    from simdup_gui.engine.arrays import U64
    from simdup_gui.engine.match.exact import NodeTexts

_U64 = np.uint64


@dataclass(frozen=True)
class MinHash(FingerprintMethod):
    """MinHash with LSH bands: ``bands`` of ``rows`` values (both 0: derived from the floor)."""

    name: ClassVar[str] = "minhash"
    floor: ClassVar[float] = 0.4

    bands: int = 0
    rows: int = 0

    def __post_init__(self) -> None:
        """Refuse bands without rows (or the other way round), and more than NUM_PERM values."""
        if (self.bands > 0) != (self.rows > 0) or self.bands < 0 or self.rows < 0:
            raise ValueError("bands and rows are given together, both positive")
        if self.bands * self.rows > NUM_PERM:
            used = self.bands * self.rows
            raise ValueError(f"bands x rows must be at most {NUM_PERM}, got {used}")

    @property
    def read_settings(self) -> tuple[object, ...]:
        """The signature is the same whatever the bands."""
        return (self.name,)

    def signatures(self, texts: list[str]) -> list[Signed]:
        """Each text's NUM_PERM minimum values (little-endian uint32s)."""
        return signed_texts(texts, minhash)

    def measure(
        self,
        records: Sequence[FileRecord],
        k: int,
        floor: float,
        cancel: Callable[[], bool],
        texts: NodeTexts | None = None,
        template: U64 | None = None,
    ) -> Measure:
        """Rows that agree on a band, at least ``floor`` alike."""
        bands, per_band = (self.bands, self.rows) if self.bands else lsh_bands(floor)
        owner, keys = band_keys(signature_rows(records, "<u4", NUM_PERM), bands, per_band)
        found = linked(owner, keys, len(records))
        none = np.zeros(len(records), np.uint64)
        alike = self.similarities(records)
        return Measure.confirmed(none, found, alike, Thresholds(64, floor, loose=False))

    def similarities(self, records: Sequence[FileRecord]) -> Similarities:
        """The share of equal values."""
        rows = signature_rows(records, "<u4", NUM_PERM)
        return chunked(lambda a, b: (rows[a] == rows[b]).mean(axis=1))


@cache
def _permutations() -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """NUM_PERM hash functions ``(a * x + b) mod 2**64``, top 32 bits (a odd), fixed for good."""
    rng = np.random.default_rng(20240521)
    a = rng.integers(0, 2**63, NUM_PERM, dtype=np.uint64) * _U64(2) + _U64(1)
    b = rng.integers(0, 2**63, NUM_PERM, dtype=np.uint64)
    return a, b


def minhash(text: str) -> tuple[npt.NDArray[np.uint32], int]:
    """A text's MinHash signature (NUM_PERM little-endian uint32s) and its shingle count."""
    shingles = all_shingles(text)
    a, b = _permutations()
    low = np.full(NUM_PERM, 2**32 - 1, np.uint64)
    with np.errstate(over="ignore"):
        for lo in range(0, len(shingles), 4096):  # in slices: 4096 x NUM_PERM values at once
            values = (shingles[lo : lo + 4096, None] * a + b) >> _U64(32)
            low = np.minimum(low, values.min(axis=0))
    return low.astype("<u4"), len(shingles)


def band_keys(rows: np.ndarray, bands: int, per_band: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's key in each MinHash band (owners, keys)."""
    keys = [
        chain([rows[:, c] for c in range(b * per_band, (b + 1) * per_band)], b)
        for b in range(bands)
    ]
    owner = np.tile(np.arange(len(rows), dtype=np.int64), bands)
    return owner, np.concatenate(keys) if keys else np.empty(0, np.uint64)


@cache
def lsh_bands(threshold: float, num_perm: int = NUM_PERM) -> tuple[int, int]:
    """The bands and rows whose S-curve best cuts at ``threshold`` (datasketch's choice).

    They minimise the area of false positives below the threshold plus that of false
    negatives above it, equally weighted, over ``bands * rows <= num_perm``.
    """
    best, chosen = np.inf, (1, 1)
    below = np.linspace(0.0, threshold, 401)
    above = np.linspace(threshold, 1.0, 401)
    for bands in range(1, num_perm + 1):
        for rows in range(1, num_perm // bands + 1):
            false_positive = np.trapezoid(1 - (1 - below**rows) ** bands, below)
            false_negative = np.trapezoid((1 - above**rows) ** bands, above)
            if false_positive + false_negative < best:
                best, chosen = false_positive + false_negative, (bands, rows)
    return chosen


METHOD = MinHash
