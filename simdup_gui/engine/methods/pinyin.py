"""``pinyin``: how often each letter starts the pinyin of a text's characters, as a unit vector.

pypinyin's reading of each Chinese character gives its initial letter; a Latin letter counts as
itself, a digit as itself: 36 counts scaled to length one (float32). Pairs of vectors whose
cosine similarity is at least the floor are found by the p-stable LSH of Datar et al. (2004):
each table keys a vector by PROJECTIONS random projections cut into cells WIDTH times the
distance the floor allows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.match.groups import Measure, Similarities, Thresholds
from simdup_gui.engine.methods import FingerprintMethod, Signed
from simdup_gui.engine.methods.keys import chain, chunked, linked, signature_rows, signed_texts
from simdup_gui.engine.records import FileRecord

if TYPE_CHECKING:
    from simdup_gui.engine.arrays import U64
    from simdup_gui.engine.match.exact import NodeTexts

LETTERS = 36  # a-z, then 0-9
TABLES, PROJECTIONS, WIDTH = 32, 8, 4.0  # the LSH: tables, projections each, cell width


@dataclass(frozen=True)
class PinyinLetters(FingerprintMethod):
    """Pinyin-initial frequencies, at least the floor alike by cosine similarity."""

    name: ClassVar[str] = "pinyin"
    floor: ClassVar[float] = 0.995

    def signatures(self, texts: list[str]) -> list[Signed]:
        """Each text's 36 letter frequencies at length one."""
        return signed_texts(texts, letter_vector)

    def measure(
        self,
        records: Sequence[FileRecord],
        k: int,
        floor: float,
        cancel: Callable[[], bool],
        texts: NodeTexts | None = None,
        template: U64 | None = None,
    ) -> Measure:
        """Vectors sharing a cell in a table, at least ``floor`` alike."""
        owner, keys = cell_keys(signature_rows(records, "<f4", LETTERS), floor)
        found = linked(owner, keys, len(records))
        none = np.zeros(len(records), np.uint64)
        alike = self.similarities(records)
        return Measure.confirmed(none, found, alike, Thresholds(64, floor, loose=False))

    def similarities(self, records: Sequence[FileRecord]) -> Similarities:
        """Cosine similarity of the letter vectors."""
        vectors = signature_rows(records, "<f4", LETTERS).astype(np.float64)
        return chunked(lambda a, b: np.einsum("ij,ij->i", vectors[a], vectors[b]))


@cache
def _letter_slots() -> npt.NDArray[np.int8]:
    """For each code point up to pypinyin's last: its letter's slot (0-35), or -1."""
    from pypinyin import Style  # imported here: only this method needs it
    from pypinyin.pinyin_dict import pinyin_dict
    from pypinyin.style import convert

    slots = np.full(max(pinyin_dict) + 1, -1, np.int8)
    for code, readings in pinyin_dict.items():
        initial = convert(readings.split(",")[0], Style.FIRST_LETTER, strict=False)[:1].lower()
        if "a" <= initial <= "z":
            slots[code] = ord(initial) - ord("a")
    for letter in range(26):
        slots[ord("a") + letter] = slots[ord("A") + letter] = letter
    for digit in range(10):
        slots[ord("0") + digit] = 26 + digit
    return slots


def letter_vector(text: str) -> tuple[npt.NDArray[np.float32], int]:
    """The text's 36 letter counts (pinyin initials, Latin letters, digits) at length one."""
    slots = _letter_slots()
    codes = np.frombuffer(text.encode("utf-32-le"), "<u4")
    found = slots[codes[codes < len(slots)]]
    counts = np.bincount(found[found >= 0], minlength=LETTERS).astype(np.float64)
    norm = float(np.sqrt(counts @ counts))
    return (counts / norm if norm else counts).astype("<f4"), int(counts.sum())


def cell_keys(vectors: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """Each vector's cell in each of TABLES p-stable LSH tables (owners, keys).

    Unit vectors at least ``floor`` alike (cosine) are at most ``sqrt(2 - 2 floor)`` apart;
    cells WIDTH times that wide hold both in most tables.
    """
    rng = np.random.default_rng(20040608)
    directions = rng.standard_normal((TABLES * PROJECTIONS, vectors.shape[1]))
    width = WIDTH * max(np.sqrt(max(2.0 - 2.0 * floor, 0.0)), 1e-3)
    offsets = rng.uniform(0.0, width, TABLES * PROJECTIONS)
    cells = np.floor((vectors @ directions.T + offsets) / width).astype(np.int64)
    keys = [
        chain([cells[:, c] for c in range(t * PROJECTIONS, (t + 1) * PROJECTIONS)], t)
        for t in range(TABLES)
    ]
    owner = np.tile(np.arange(len(vectors), dtype=np.int64), TABLES)
    return owner, np.concatenate(keys)


METHOD = PinyinLetters
