"""The cache's per-file rows, derived from the record's fields: stored, and checked when read.

The ``files`` table has a column for each field of
:data:`~simdup_gui.engine.records.STORED_FIELDS`, typed by the field's annotation, so a field
added to :class:`~simdup_gui.engine.records.FileRecord` is cached with no change here (and the
schema's digest, the cache's version, changes with it).
"""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

import numpy as np

from simdup_gui.engine.fingerprint.simhash import Features
from simdup_gui.engine.records import FIELD_KINDS, STORED_FIELDS, FileRecord

_SQL = {
    "int": "INTEGER NOT NULL",
    "int | None": "INTEGER",  # 64-bit unsigned values, stored signed
    "float": "REAL NOT NULL",
    "str": "TEXT NOT NULL",
    "bytes": "BLOB NOT NULL",
    "tuple[str, ...]": "TEXT NOT NULL",  # lines joined
}
_PYTHON = {"int": int, "float": float, "str": str, "bytes": bytes}
FILES_TABLE = (
    "CREATE TABLE IF NOT EXISTS files (\n    settings TEXT NOT NULL,\n    path TEXT NOT NULL,\n"
    "    size INTEGER NOT NULL,\n    mtime_ns INTEGER NOT NULL,\n"
    + "".join(f"    {name} {_SQL[FIELD_KINDS[name]]},\n" for name in STORED_FIELDS)
    + "    hashes BLOB,\n    counts BLOB,\n    PRIMARY KEY (settings, path)\n);\n"
)
COLUMNS = ", ".join((*STORED_FIELDS, "hashes", "counts"))
PLACEHOLDERS = ", ".join("?" * (4 + len(STORED_FIELDS) + 2))


class CachedFile(NamedTuple):
    """What the cache holds for one file version.

    Its record (the key fields left empty) and, with TF-IDF weighting, its features.
    """

    record: FileRecord
    tfidf_features: Features | None = None


def _to_signed(value: int | None) -> int | None:
    """SQLite integers are signed 64-bit."""
    return None if value is None else value - (1 << 64) if value >= 1 << 63 else value


def _to_unsigned(value: int | None) -> int | None:
    return None if value is None else value + (1 << 64) if value < 0 else value


_STORED = itemgetter(*(FileRecord._fields.index(name) for name in STORED_FIELDS))
_CONVERTED = [  # the stored fields SQLite takes otherwise, by place: (place, conversion)
    (at, _to_signed if FIELD_KINDS[name] == "int | None" else "\n".join)
    for at, name in enumerate(STORED_FIELDS)
    if FIELD_KINDS[name] in ("int | None", "tuple[str, ...]")
]


def _from_sql(name: str, value: object) -> object:
    kind = FIELD_KINDS[name]
    if kind == "int | None":
        if value is not None and not isinstance(value, int):
            raise ValueError(f"{name} is not an integer")
        return _to_unsigned(value)
    if kind == "tuple[str, ...]":
        if not isinstance(value, str):
            raise ValueError(f"{name} is not text")
        return tuple(value.split("\n")) if value else ()
    wanted = _PYTHON[kind]
    if wanted is float and isinstance(value, int):
        value = float(value)
    if not isinstance(value, wanted) or isinstance(value, bool):
        raise ValueError(f"{name} is not {kind}")
    return value


def file_row(
    path: str, size: int, mtime_ns: int, settings: str, cached: CachedFile
) -> tuple[object, ...]:
    """The ``files`` table's row for an entry (``path, settings, size, mtime_ns``, COLUMNS)."""
    features = cached.tfidf_features
    stored = list(_STORED(cached.record))  # a scan stores one per file: no lookup per field
    for at, conversion in _CONVERTED:
        stored[at] = conversion(stored[at])
    return (
        path,
        settings,
        size,
        mtime_ns,
        *stored,
        None if features is None else features.hashes.astype("<u8").tobytes(),
        None if features is None else features.counts.astype("<f8").tobytes(),
    )


def cached_file(*values: object) -> CachedFile:
    """A row's COLUMNS as a :class:`CachedFile` (ValueError: values no scan could store)."""
    *stored, hashes, counts = values
    record = FileRecord(
        "", **{n: _from_sql(n, v) for n, v in zip(STORED_FIELDS, stored, strict=True)}
    )
    why = record.impossible()
    if why:
        raise ValueError(why)
    if (hashes is None) != (counts is None):
        raise ValueError("features of the wrong length")
    tfidf = None
    if isinstance(hashes, bytes) and isinstance(counts, bytes):
        if len(hashes) % 8 or len(hashes) != len(counts):
            raise ValueError("features of the wrong length")
        tfidf = Features(
            np.frombuffer(hashes, dtype="<u8").astype(np.uint64),
            np.frombuffer(counts, dtype="<f8").astype(np.float64),
        )
    elif hashes is not None:
        raise ValueError("features that are not bytes")
    return CachedFile(record, tfidf)
