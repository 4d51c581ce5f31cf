"""A folder's file records packed into one blob of numpy columns, for the cache.

An unchanged folder's rescan loads its records in one piece instead of one cache row per file.
The blob is a run of ``.npy`` arrays (read with ``allow_pickle=False``, so a damaged or
foreign blob raises ``ValueError`` and can never run code); strings are joined with NUL,
which no path or note holds.

>>> record = FileRecord("a.txt", 3, 4, "utf-8", "bom", 5, 6, 7, 0.5, ("n",), "", b"8 bytes.", None)
>>> unpack(pack([record])) == (record,)
True
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import partial
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.records import FileRecord

_SEPARATOR = "\0"
_NUMBERS = 6  # size, mtime_ns, features, chars, converted_chars, notice_chars
_HEADERS = {  # .npy header readers by format version
    (1, 0): np.lib.format.read_array_header_1_0,
    (2, 0): np.lib.format.read_array_header_2_0,
}


def _strings(values: Sequence[str]) -> npt.NDArray[np.uint8]:
    return np.frombuffer(_SEPARATOR.join(values).encode("utf-8", "surrogatepass"), np.uint8)


def _optional(values: Sequence[int | None]) -> npt.NDArray[np.uint64]:
    return np.array([0 if v is None else v for v in values], dtype="<u8")


def pack(files: Sequence[FileRecord]) -> bytes:
    """The records as one blob."""
    sketches = [f.sketch for f in files]
    columns = [
        np.array([len(files)], dtype="<i8"),
        np.array(
            [
                (f.size, f.mtime_ns, f.features, f.chars, f.converted_chars, f.notice_chars)
                for f in files
            ],
            "<i8",
        ).reshape(-1, _NUMBERS),
        np.array([f.boilerplate for f in files], dtype="<f8"),
        _optional([f.fingerprint for f in files]),
        np.array([f.fingerprint is not None for f in files], dtype=bool),
        _optional([f.lead for f in files]),
        np.array([f.lead is not None for f in files], dtype=bool),
        _strings([f.path for f in files]),
        _strings([f.encoding for f in files]),
        _strings([f.encoding_method for f in files]),
        _strings([f.error for f in files]),
        _strings(["\n".join(f.notes) for f in files]),
        np.array([len(s) for s in sketches], dtype="<i8"),
        np.frombuffer(b"".join(sketches), np.uint8),
    ]
    out = io.BytesIO()
    for column in columns:
        np.save(out, column, allow_pickle=False)
    return out.getvalue()


def unpack(data: bytes) -> tuple[FileRecord, ...]:
    """The records of a blob made by :func:`pack`.

    Raises:
        ValueError: the blob is not one (damaged, or of another layout).
    """
    try:
        return _unpack(data)
    except (ValueError, OSError, EOFError, UnicodeDecodeError, IndexError) as exc:
        raise ValueError(f"not a snapshot: {exc}") from exc


def _unpack(data: bytes) -> tuple[FileRecord, ...]:
    stream = io.BytesIO(data)

    def column() -> npt.NDArray[np.generic]:
        return np.load(stream, allow_pickle=False)

    def strings() -> list[str]:
        values = column().tobytes().decode("utf-8", "surrogatepass").split(_SEPARATOR)
        if len(values) != max(count, 1):
            raise ValueError("a string column does not fit the records")
        return values[:count]

    def bytes_column() -> tuple[int, int]:
        """Where the next column, an array of bytes, lies in ``data`` (skipped, not copied)."""
        version = np.lib.format.read_magic(stream)
        if version not in _HEADERS:
            raise ValueError(f"unknown .npy version {version}")
        shape, _, dtype = _HEADERS[version](stream)
        start = stream.tell()
        stop = start + int(np.prod(shape))
        if dtype != np.uint8 or len(shape) != 1 or stop > len(data):
            raise ValueError("a column is not a run of bytes")
        stream.seek(stop)
        return start, stop

    def optional() -> list[int | None]:
        values, present = column().tolist(), column().tolist()
        return [v if p else None for v, p in zip(values, present, strict=True)]

    count = int(column()[0])
    numbers, boilerplate = column(), column().tolist()
    fingerprints, leads = optional(), optional()
    paths, encodings, methods, errors, notes = (strings() for _ in range(5))
    ends = np.cumsum(column()).tolist()
    start, stop = bytes_column()  # the sketches: cut from ``data`` with no other copy
    if (
        numbers.shape != (count, _NUMBERS)
        or len(ends) != count
        or (ends and ends[-1] != stop - start)
    ):
        raise ValueError("the columns do not fit the records")
    cuts = [start, *(start + end for end in ends)]
    sketches = [data[lo:hi] for lo, hi in pairwise(cuts)]
    sizes, mtimes, features, chars, converted, notices = (
        numbers[:, n].tolist() for n in range(_NUMBERS)
    )
    records = tuple(
        map(
            partial(tuple.__new__, FileRecord),  # FileRecord._make without a Python call
            zip(
                paths,
                sizes,
                mtimes,
                encodings,
                methods,
                fingerprints,
                features,
                chars,
                boilerplate,
                [tuple(n.split("\n")) if n else () for n in notes],
                errors,
                sketches,
                leads,
                converted,
                notices,
                strict=True,
            ),
        )
    )
    for record in records:
        why = record.impossible()
        if why:
            raise ValueError(f"{why} in the record of {record.path!r}")
    return records
