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

from simdup_gui.engine.records import (
    FIELD_KINDS,
    LINES_BYTES,
    PASSAGES_BYTES,
    SIGNATURE_BYTES,
    SKETCH_BYTES,
    TERMS_BYTES,
    FileRecord,
)

_SEPARATOR = "\0"
_HEADERS = {  # .npy header readers by format version
    (1, 0): np.lib.format.read_array_header_1_0,
    (2, 0): np.lib.format.read_array_header_2_0,
}
# The record's fields by kind, in field order: each kind is packed its own way (below), so a
# field added to FileRecord is packed with no change here. Fields added since the first layout
# (_LATER) come last, in the order they were added: a blob written before one ends where it
# would begin, and its records have none (empty).
_KINDS = ("int", "float", "int | None", "str", "tuple[str, ...]", "bytes")
_LATER = ("lines", "passages", "title", "terms")
_FIELDS = {kind: [n for n in FileRecord._fields if FIELD_KINDS[n] == kind] for kind in _KINDS}
assert sum(map(len, _FIELDS.values())) == len(FileRecord._fields), "a field of an unknown kind"
assert all(FIELD_KINDS[n] in ("bytes", "str") for n in _LATER), "a later field of another kind"
_EARLIER = {kind: [n for n in names if n not in _LATER] for kind, names in _FIELDS.items()}
_BYTES_LIMITS = {  # each bytes field's step and most
    "sketch": (8, SKETCH_BYTES),
    "signature": (4, SIGNATURE_BYTES),
    "lines": (8, LINES_BYTES),
    "passages": (4, PASSAGES_BYTES),
    "terms": (4, TERMS_BYTES),
}
assert set(_BYTES_LIMITS) == set(_FIELDS["bytes"]), "a bytes field without its limits"
SNAPSHOT_LAYOUT = repr(_FIELDS)  # what the blob's columns hold, in order (part of the version)
READABLE_LAYOUTS = frozenset(
    repr({k: [n for n in v if n not in _LATER[later:]] for k, v in _FIELDS.items()})
    for later in range(len(_LATER) + 1)
)


def _strings(values: Sequence[str]) -> npt.NDArray[np.uint8]:
    return np.frombuffer(_SEPARATOR.join(values).encode("utf-8", "surrogatepass"), np.uint8)


def pack(files: Sequence[FileRecord]) -> bytes:
    """The records as one blob."""
    columns: list[np.ndarray] = [np.array([len(files)], dtype="<i8")]
    for kind, dtype in (("int", "<i8"), ("float", "<f8")):
        names = _FIELDS[kind]
        rows = [[getattr(f, n) for n in names] for f in files]
        columns.append(np.array(rows, dtype=dtype).reshape(-1, len(names)))
    for name in _FIELDS["int | None"]:
        values = [getattr(f, name) for f in files]
        columns.append(np.array([0 if v is None else v for v in values], dtype="<u8"))
        columns.append(np.array([v is not None for v in values], dtype=bool))
    columns += [_strings([getattr(f, n) for f in files]) for n in _EARLIER["str"]]
    columns += [
        _strings(["\n".join(getattr(f, n)) for f in files]) for n in _FIELDS["tuple[str, ...]"]
    ]
    for name in (*_EARLIER["bytes"], *_LATER):
        if FIELD_KINDS[name] == "str":
            columns.append(_strings([getattr(f, name) for f in files]))
            continue
        blobs = [getattr(f, name) for f in files]
        columns.append(np.array([len(b) for b in blobs], dtype="<i8"))
        columns.append(np.frombuffer(b"".join(blobs), np.uint8))
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
    except Exception as exc:  # numpy's header parser raises what Python's tokenizer raises
        first = (str(exc).strip().splitlines() or [""])[0]  # numpy's may run to several lines
        raise ValueError(f"not a snapshot: {type(exc).__name__}: {first}") from exc


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

    count = int(column()[0])
    values: dict[str, list[object]] = {}
    for kind in ("int", "float"):
        table = column()
        if table.shape != (count, len(_FIELDS[kind])):
            raise ValueError("the columns do not fit the records")
        values.update((n, table[:, at].tolist()) for at, n in enumerate(_FIELDS[kind]))
    for name in _FIELDS["int | None"]:
        numbers, present = column().tolist(), column().tolist()
        values[name] = [v if p else None for v, p in zip(numbers, present, strict=True)]
    values.update((n, strings()) for n in _EARLIER["str"])
    for name in _FIELDS["tuple[str, ...]"]:
        values[name] = [tuple(v.split("\n")) if v else () for v in strings()]
    for name in (*_EARLIER["bytes"], *_LATER):
        text = FIELD_KINDS[name] == "str"
        if name in _LATER and stream.tell() == len(data):
            values[name] = [""] * count if text else [b""] * count
            continue
        if text:
            values[name] = strings()
            continue
        ends = np.cumsum(column()).tolist()
        start, stop = bytes_column()  # cut from ``data`` with no other copy
        if len(ends) != count or (ends and ends[-1] != stop - start):
            raise ValueError("the columns do not fit the records")
        cuts = [start, *(start + end for end in ends)]
        values[name] = [data[lo:hi] for lo, hi in pairwise(cuts)]
    records = tuple(
        map(
            partial(tuple.__new__, FileRecord),  # FileRecord._make without a Python call
            zip(*(values[n] for n in FileRecord._fields), strict=True),
        )
    )
    if _maybe_impossible(values, count):  # then find the record, and say why
        for record in records:
            why = record.impossible()
            if why:
                raise ValueError(f"{why} in the record of {record.path!r}")
    return records


def _maybe_impossible(values: dict[str, list[object]], count: int) -> bool:
    """Whether a record may be impossible (``FileRecord.impossible``), judged column by column.

    Never False where a record is: a count below 0, a share outside 0-1 (or NaN), bytes of a
    length no scan writes. Fingerprints are read as unsigned 64-bit, so they always fit.
    """
    if not count:
        return False
    counts = np.array([values[n] for n in _FIELDS["int"]], np.int64)
    shares = np.array([values[n] for n in _FIELDS["float"]], np.float64)
    if counts.min() < 0 or not ((shares >= 0.0) & (shares <= 1.0)).all():
        return True
    for name, (step, longest) in _BYTES_LIMITS.items():
        lengths = np.fromiter(map(len, values[name]), np.int64, count)
        if (lengths % step).any() or lengths.max() > longest:
            return True
    return False
