"""``sentences``: the hashes of a text's N longest sentences; pairs share at least M of them.

Sentences are split after Chinese and English sentence punctuation, only their letters and
digits kept. Every ``shared``-subset of a file's hashes is a key; the similarity of two files
is ``shared hashes / sentences``.

>>> a = LongestSentences().signatures(["今天天气很好。我们去公园散步吧！公园里的花都开了。"])[0]
>>> len(a.signature) // 8, a.items
(3, 3)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.fingerprint.codes import PAD
from simdup_gui.engine.match.groups import Measure, Similarities, Thresholds
from simdup_gui.engine.methods import FingerprintMethod, Signed
from simdup_gui.engine.methods.keys import (
    chain,
    chunked,
    digest,
    linked,
    signature_rows,
    signed_texts,
)
from simdup_gui.engine.records import FileRecord

if TYPE_CHECKING:
    from simdup_gui.engine.arrays import U64
    from simdup_gui.engine.match.exact import NodeTexts

_SENTENCE_END = re.compile(r"(?<=[。！？!?；;…])|(?<=\.)(?=\s)|\n")
_NOT_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class LongestSentences(FingerprintMethod):
    """The ``sentences`` longest sentences; a pair shares at least ``shared`` of them."""

    name: ClassVar[str] = "sentences"
    floor: ClassVar[float] = 0.0
    takes: ClassVar[frozenset[str]] = frozenset()  # no floor: ``shared`` says how alike

    sentences: int = 3
    shared: int = 2

    def __post_init__(self) -> None:
        """Refuse settings that cannot work."""
        if not 1 <= self.sentences <= 64:
            raise ValueError(f"sentences must be 1 to 64, got {self.sentences}")
        if not 1 <= self.shared <= self.sentences:
            raise ValueError(f"shared sentences must be 1 to {self.sentences}, got {self.shared}")

    @property
    def read_settings(self) -> tuple[object, ...]:
        """How many sentences are hashed (not how many two files must share)."""
        return self.name, self.sentences

    def describe(self, k: int, floor: float) -> str:
        """``method sentences: 2 of the 3 longest shared``."""
        return f"method sentences: {self.shared} of the {self.sentences} longest shared"

    def note(self) -> str:
        """``method: sentences, 3 longest``."""
        return f"method: {self.name}, {self.sentences} longest"

    def signatures(self, texts: list[str]) -> list[Signed]:
        """Each text's longest sentences' hashes, sorted."""
        return signed_texts(texts, partial(longest_sentences, count=self.sentences))

    def measure(
        self,
        records: Sequence[FileRecord],
        k: int,
        floor: float,
        cancel: Callable[[], bool],
        texts: NodeTexts | None = None,
        template: U64 | None = None,
    ) -> Measure:
        """Files sharing at least ``shared`` of their longest sentences."""
        rows = signature_rows(records, "<u8", self.sentences)
        owner, keys = subset_keys(rows, self.shared)
        found = linked(owner, keys, len(records))
        least = (self.shared - 0.5) / self.sentences  # at least ``shared`` in common
        none = np.zeros(len(records), np.uint64)
        alike = self.similarities(records)
        return Measure.confirmed(none, found, alike, Thresholds(64, least, loose=False))

    def similarities(self, records: Sequence[FileRecord]) -> Similarities:
        """The share of the longest sentences two files share."""
        rows = signature_rows(records, "<u8", self.sentences)
        return chunked(lambda a, b: shared_values(rows[a], rows[b]) / self.sentences)


def sentences(text: str) -> list[str]:
    r"""A text's sentences with only their letters and digits, empty ones left out.

    >>> sentences("First one. Second, here!\n第三句。")
    ['Firstone', 'Secondhere', '第三句']
    """
    pieces = (_NOT_WORD.sub("", piece) for piece in _SENTENCE_END.split(text))
    return [piece for piece in pieces if piece]


def longest_sentences(text: str, count: int) -> tuple[npt.NDArray[np.uint64], int]:
    """The sorted hashes of a text's ``count`` longest distinct sentences, and how many.

    The longest first, the earlier of equally long ones.
    """
    found = list(dict.fromkeys(sentences(text)))  # distinct, in order
    longest = sorted(range(len(found)), key=lambda n: (-len(found[n]), n))[:count]
    hashes = np.array(sorted(digest(found[n].encode()) for n in longest), dtype="<u8")
    return hashes, len(hashes)


def shared_values(a: np.ndarray, b: np.ndarray) -> npt.NDArray[np.int64]:
    """How many values each row of ``a`` shares with the same row of ``b`` (PAD not counted)."""
    same = (a[:, :, None] == b[:, None, :]) & (a[:, :, None] != PAD)
    return same.sum(axis=(1, 2))


def subset_keys(rows: np.ndarray, shared: int) -> tuple[np.ndarray, np.ndarray]:
    """A key for every ``shared``-subset of each row's hashes (rows sorted, PAD last)."""
    owners, keys = [], []
    for columns in combinations(range(rows.shape[1]), shared):
        valid = (rows[:, list(columns)] != PAD).all(axis=1)
        owners.append(np.flatnonzero(valid))
        keys.append(chain([rows[valid, c] for c in columns], 0))
    if not owners:
        return np.empty(0, np.int64), np.empty(0, np.uint64)
    return np.concatenate(owners), np.concatenate(keys)


METHOD = LongestSentences
