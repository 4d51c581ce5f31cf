"""64-bit Charikar simhash over weighted features.

Each feature (a token) is hashed to 64 bits (see ``tokens.py``: stable across runs and
machines, unlike Python's ``hash()``). For every bit position the weights of the features whose
hash has a 1 there are added and those with a 0 subtracted; the fingerprint has a 1 where the
sum is positive.
Similar feature sets give fingerprints a small Hamming distance apart (Charikar, STOC 2002).

>>> hex(simhash(np.array([0xDEADBEEFDEADBEEF], dtype=np.uint64), np.array([1.0])))
'0xdeadbeefdeadbeef'
>>> simhash(np.array([0xDEADBEEFDEADBEEF, 0x2152411021524110], dtype=np.uint64), np.ones(2))
0
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.text.tokens import token_hash

MIN_FEATURES = 8  # fewer distinct features than this and a text is flagged as short


@dataclass(frozen=True)
class Features:
    """A document's distinct feature hashes and how often each occurs."""

    hashes: npt.NDArray[np.uint64]
    counts: npt.NDArray[np.float64]

    @classmethod
    def from_tokens(cls, tokens: Iterable[str]) -> Features:
        """Count the tokens and hash each distinct one."""
        return cls.from_counts(Counter(tokens))

    @classmethod
    def from_counts(cls, counted: Mapping[str, int]) -> Features:
        """Hash each distinct token of a token → count mapping."""
        hashes = np.fromiter((token_hash(t) for t in counted), dtype=np.uint64, count=len(counted))
        counts = np.fromiter(counted.values(), dtype=np.float64, count=len(counted))
        return cls(hashes, counts)

    def __len__(self) -> int:
        return len(self.hashes)

    @property
    def is_short(self) -> bool:
        """Too few features for a reliable fingerprint."""
        return len(self.hashes) < MIN_FEATURES


def simhash(hashes: npt.NDArray[np.uint64], weights: npt.NDArray[np.float64]) -> int:
    """Charikar's simhash of features given as 64-bit hashes and their weights."""
    return int(simhash_many(hashes, weights, np.zeros(len(hashes), dtype=np.int64), 1)[0])


def simhash_many(
    hashes: npt.NDArray[np.uint64],
    weights: npt.NDArray[np.float64],
    texts: npt.NDArray[np.int64],
    count: int,
) -> npt.NDArray[np.uint64]:
    """The simhash of each of ``count`` texts, from all their features at once (compiled).

    ``texts`` says which text each feature belongs to, in ascending order. A text's bit sums
    are added up in the same order whatever else is in the batch, so its fingerprint does not
    depend on the batch.
    """
    kernels = kernel_module("simdup_gui.engine.fingerprint.kernels")

    return kernels.simhash_many(
        hashes.astype(np.uint64), weights.astype(np.float64), texts.astype(np.int64), count
    )


def tf_fingerprint(features: Features, power: float = 1.0) -> int:
    """Simhash with term-frequency weights, raised to ``power``.

    A power above 1 lets a text's frequent words carry its fingerprint, so the words an edit
    adds or drops (usually rare ones) flip fewer bits.
    """
    weights = features.counts if power == 1.0 else features.counts**power
    return simhash(features.hashes, weights)


def idf_table(documents: Iterable[Features]) -> tuple[dict[int, float], float]:
    """Inverse document frequencies of every feature hash, and the IDF of an unseen feature."""
    frequency: Counter[int] = Counter()
    total = 0
    for doc in documents:
        frequency.update(doc.hashes.tolist())
        total += 1
    idf = {h: math.log((1 + total) / (1 + df)) + 1.0 for h, df in frequency.items()}
    return idf, math.log(1 + total) + 1.0


def tfidf_fingerprint(features: Features, idf: Mapping[int, float], unseen: float) -> int:
    """Simhash with TF-IDF weights."""
    weights = np.fromiter(
        (idf.get(h, unseen) for h in features.hashes.tolist()),
        dtype=np.float64,
        count=len(features),
    )
    return simhash(features.hashes, features.counts * weights)


def with_tfidf(records: list[FileRecord], features: list[Features | None]) -> list[FileRecord]:
    """The records with TF-IDF fingerprints, weighted by the documents' ``features`` together."""
    idf, unseen = idf_table(f for f in features if f is not None)
    return [
        r._replace(fingerprint=tfidf_fingerprint(f, idf, unseen)) if f is not None else r
        for r, f in zip(records, features, strict=True)
    ]
