"""What the signature methods share: their signatures as rows, keys of rows, and keyed pairs.

A method keys each signature (a band of MinHash values, a subset of sentence hashes, a cell of
projections) and every two owners of one key are a candidate pair: :func:`linked` checks each
key against the RUN_WINDOW keys after it in its sorted run, as the permuted tables do, so that
many copies of one text cost linear work.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import distinct, mix
from simdup_gui.engine.fingerprint.codes import PAD, SHINGLE, SHINGLE_BASE
from simdup_gui.engine.match.groups import Similarities
from simdup_gui.engine.methods import Signed
from simdup_gui.engine.records import FileRecord, Pairs
from simdup_gui.engine.text.normalize import normalize

RUN_WINDOW = 32  # each key is checked against this many after it in its sorted run
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_CHUNK = 1 << 16  # pairs measured at once (bounds the memory of a large part's voting)
_U64 = np.uint64


def signed_texts(texts: list[str], make: Callable[[str], tuple[np.ndarray, int]]) -> list[Signed]:
    """Each normalised text's signature by ``make`` (its values and item count), with its digest.

    The digest is the record's fingerprint: the same text, the same value (exact copies are
    found by it, and a file is re-checked by it).
    """
    out = []
    for text in texts:
        values, items = make(normalize(text).strip())
        data = values.tobytes()
        out.append(Signed(data, digest(data), items))
    return out


def digest(data: bytes) -> int:
    """A 64-bit digest of some bytes."""
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def all_shingles(text: str, size: int = SHINGLE) -> npt.NDArray[np.uint64]:
    """The distinct hashes of a text's runs of ``size`` characters (``shingles.shingle_hashes``).

    >>> from simdup_gui.engine.fingerprint.shingles import shingle_hashes
    >>> text = "the quick brown fox"
    >>> all_shingles(text).tolist() == sorted(set(shingle_hashes(text)))
    True
    """
    codes = np.frombuffer(" ".join(text.split()).encode("utf-32-le"), "<u4").astype(np.uint64)
    if len(codes) < size:
        return mix(codes[:1])
    runs = len(codes) - size + 1
    value = np.zeros(runs, np.uint64)
    with np.errstate(over="ignore"):
        for at in range(size):
            value = value * _U64(SHINGLE_BASE) + codes[at : at + runs]
    return distinct(mix(value))


def signature_rows(records: Sequence[FileRecord], dtype: str, width: int) -> np.ndarray:
    """The records' signatures as rows of ``width`` values (short ones padded with PAD or 0)."""
    kind = np.dtype(dtype)
    pad = PAD if kind.kind == "u" and kind.itemsize == 8 else 0
    rows = np.full((len(records), width), pad, dtype=kind.newbyteorder("="))
    for n, record in enumerate(records):
        values = np.frombuffer(record.signature, dtype=kind)[:width]
        rows[n, : len(values)] = values
    return rows


def chunked(measure: Similarities) -> Similarities:
    """``measure`` over at most _CHUNK pairs at a time."""

    def chunked(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out = np.empty(len(a), np.float64)
        for lo in range(0, len(a), _CHUNK):
            out[lo : lo + _CHUNK] = measure(a[lo : lo + _CHUNK], b[lo : lo + _CHUNK])
        return out

    return chunked


def chain(columns: list[npt.NDArray[np.uint64]], salt: int) -> npt.NDArray[np.uint64]:
    """One 64-bit key for each row of these columns (and a salt: the table or band)."""
    with np.errstate(over="ignore"):
        key = np.full(len(columns[0]) if columns else 0, np.uint64(salt) * _GOLDEN, np.uint64)
        for column in columns:
            key = mix(key ^ column.astype(np.uint64)) + _GOLDEN
    return key


def linked(owner: np.ndarray, keys: np.ndarray, n: int, window: int = RUN_WINDOW) -> Pairs:
    """The pairs of owners (``i < j``, each once) within ``window`` places in a run of one key."""
    order = np.lexsort((owner, keys))
    owner, keys = owner[order], keys[order]
    found = []
    for step in range(1, window + 1):
        same = np.flatnonzero(keys[step:] == keys[:-step])
        if not len(same):
            break  # no run is longer than ``step``
        a, b = owner[same], owner[same + step]
        found.append(np.minimum(a, b) * n + np.maximum(a, b))
        found[-1] = found[-1][a != b]
    codes = distinct(np.concatenate(found)) if found else np.empty(0, np.int64)
    return Pairs(codes // max(n, 1), codes % max(n, 1), np.zeros(len(codes), np.uint8))
