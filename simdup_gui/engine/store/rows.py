"""The cache's per-file rows: what is stored for one file version, checked when read back."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simdup_gui.engine.fingerprint.simhash import Features
from simdup_gui.engine.records import impossible_values

COLUMNS = (
    "fingerprint, lead, encoding, encoding_method, features, chars, boilerplate, converted_chars,"
    " notice_chars, notes, sketch, hashes, counts"
)


class CachedFile(NamedTuple):
    """What the cache holds for one file version.

    A :class:`~simdup_gui.engine.records.FileRecord`'s computed fields and, with TF-IDF
    weighting, the features.
    """

    fingerprint: int | None
    lead: int | None
    encoding: str
    encoding_method: str
    features: int
    chars: int
    boilerplate: float
    converted_chars: int
    notice_chars: int
    notes: tuple[str, ...]
    sketch: bytes
    tfidf_features: Features | None = None


def _to_signed(value: int | None) -> int | None:
    """SQLite integers are signed 64-bit."""
    return None if value is None else value - (1 << 64) if value >= 1 << 63 else value


def _to_unsigned(value: int | None) -> int | None:
    return None if value is None else value + (1 << 64) if value < 0 else value


def _to_signed(value: int | None) -> int | None:
    """SQLite integers are signed 64-bit."""
    return None if value is None else value - (1 << 64) if value >= 1 << 63 else value


def _to_unsigned(value: int | None) -> int | None:
    return None if value is None else value + (1 << 64) if value < 0 else value


def file_row(
    path: str, size: int, mtime_ns: int, settings: str, cached: CachedFile
) -> tuple[object, ...]:
    """The ``files`` table's row for an entry (``path, settings, size, mtime_ns`` and COLUMNS)."""
    features = cached.tfidf_features
    return (
        path,
        settings,
        size,
        mtime_ns,
        _to_signed(cached.fingerprint),
        _to_signed(cached.lead),
        cached.encoding,
        cached.encoding_method,
        cached.features,
        cached.chars,
        cached.boilerplate,
        cached.converted_chars,
        cached.notice_chars,
        "\n".join(cached.notes),
        cached.sketch,
        None if features is None else features.hashes.astype("<u8").tobytes(),
        None if features is None else features.counts.astype("<f8").tobytes(),
    )


def cached_file(
    fingerprint: int | None,
    lead: int | None,
    encoding: str,
    encoding_method: str,
    features: int,
    chars: int,
    boilerplate: float,
    converted_chars: int,
    notice_chars: int,
    notes: str,
    sketch: bytes,
    hashes: bytes | None,
    counts: bytes | None,
) -> CachedFile:
    """A ``files`` row as a :class:`CachedFile` (ValueError: values no scan could store)."""
    why = impossible_values(
        features,
        chars,
        converted_chars,
        notice_chars,
        boilerplate=boilerplate,
        fingerprints=(_to_unsigned(fingerprint), _to_unsigned(lead)),
        sketch=sketch,
    )
    if why or not isinstance(encoding, str) or not isinstance(notes, str):
        raise ValueError(why or "a text column that is not text")
    if (hashes is None) != (counts is None) or (
        hashes is not None and (len(hashes) % 8 or len(hashes) != len(counts or b""))
    ):
        raise ValueError("features of the wrong length")
    tfidf = None
    if hashes is not None and counts is not None:
        tfidf = Features(
            np.frombuffer(hashes, dtype="<u8").astype(np.uint64),
            np.frombuffer(counts, dtype="<f8").astype(np.float64),
        )
    return CachedFile(
        _to_unsigned(fingerprint),
        _to_unsigned(lead),
        encoding,
        encoding_method,
        features,
        chars,
        boilerplate,
        converted_chars,
        notice_chars,
        tuple(notes.split("\n")) if notes else (),
        sketch,
        tfidf,
    )
