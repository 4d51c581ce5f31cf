"""Load fingerprints from a file: ``.npy`` arrays of uint64, or text with one per line.

A text line is 16 hex digits (``0x`` optional) or 64 characters of 0 and 1. Blank lines and
lines starting with ``#`` are skipped, so line numbers in errors are the file's own.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import numpy as np

from simdup_gui.engine.errors import InputError
from simdup_gui.engine.match.index import U64, as_fingerprints

_HEX = re.compile(r"(?:0[xX])?([0-9a-fA-F]{16})")
_BITS = re.compile(r"[01]{64}")


class FingerprintFileError(InputError):
    """A fingerprint file that cannot be read; the message names the file and line."""


def parse_fingerprint(text: str) -> int:
    """One fingerprint from 16 hex digits or 64 binary digits.

    >>> hex(parse_fingerprint("deadbeefdeadbeef")), parse_fingerprint("0" * 63 + "1")
    ('0xdeadbeefdeadbeef', 1)
    """
    text = text.strip()
    if _BITS.fullmatch(text):
        return int(text, 2)
    match = _HEX.fullmatch(text)
    if match:
        return int(match.group(1), 16)
    raise ValueError(f"not a fingerprint (16 hex digits or 64 binary digits): {text[:70]!r}")


def _fast_hex(data: bytes) -> U64 | None:
    """Vectorised parse of a file of exactly ``16 hex digits + newline`` lines, else None."""
    if not data or len(data) % 17 or data[16:17] != b"\n":
        return None
    rows = np.frombuffer(data, dtype=np.uint8).reshape(-1, 17)
    if not (rows[:, 16] == 10).all():
        return None
    digits = rows[:, :16]
    lookup = np.full(256, 255, dtype=np.uint8)
    for value, char in enumerate(b"0123456789abcdef"):
        lookup[char] = value
    for value, char in enumerate(b"ABCDEF", start=10):
        lookup[char] = value
    nibbles = lookup[digits]
    if (nibbles == 255).any():
        return None
    out = np.zeros(len(rows), dtype=np.uint64)
    for column in range(16):
        out = (out << np.uint64(4)) | nibbles[:, column].astype(np.uint64)
    return out


def load_fingerprints(path: str | Path) -> U64:
    """Read a fingerprint file.

    Raises:
        FingerprintFileError: missing or unreadable file, or a line that is not a fingerprint.
    """
    path = Path(path)
    try:
        kind = os.stat(path).st_mode
        if stat.S_ISCHR(kind) or stat.S_ISBLK(kind) or stat.S_ISDIR(kind):
            raise FingerprintFileError(f"{path}: not a file of fingerprints (a device or folder)")
        if path.suffix.lower() == ".npy":
            array = np.load(path, allow_pickle=False, mmap_mode="r")
            try:
                return as_fingerprints(np.asarray(array))
            except ValueError as exc:
                raise FingerprintFileError(f"{path}: {exc}") from exc
        data = path.read_bytes()
    except FingerprintFileError:
        raise
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise FingerprintFileError(f"{path}: cannot read: {reason}") from exc
    fast = _fast_hex(data)
    if fast is not None:
        return fast
    values = []
    for number, raw in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            values.append(parse_fingerprint(line))
        except ValueError as exc:
            raise FingerprintFileError(f"{path}:{number}: {exc}") from None
    return np.array(values, dtype=np.uint64)


def load_parquet_fingerprints(path: str | Path) -> tuple[U64, list[str]]:
    """The ``fingerprint`` and ``id`` columns of a Parquet file (pyarrow, loaded on first use).

    Fingerprints may be integers (uint64 or int64, read as 64 bits) or text of 16 hex digits.

    Raises:
        FingerprintFileError: no pyarrow, not Parquet, or a column missing or not fingerprints.
    """
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise FingerprintFileError(
            f"{path}: reading Parquet needs pyarrow (pip install pyarrow)"
        ) from None
    try:
        names = pq.read_schema(path).names
        missing = [name for name in ("id", "fingerprint") if name not in names]
        if missing:
            raise FingerprintFileError(
                f"{path}: no column {missing[0]!r}: need id and fingerprint"
                f" (it has {', '.join(names) or 'none'})"
            )
        table = pq.read_table(path, columns=["id", "fingerprint"])
    except FingerprintFileError:
        raise
    except Exception as exc:  # pyarrow's own errors (not Parquet, damaged): their first line
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise FingerprintFileError(f"{path}: cannot read as Parquet: {first}") from None
    ids = [str(v) for v in table.column("id").to_pylist()]
    column = table.column("fingerprint")
    try:
        if column.type in ("string", "large_string") or str(column.type).endswith("string"):
            values = [parse_fingerprint(v) for v in column.to_pylist()]
            return np.array(values, dtype=np.uint64), ids
        raw = column.to_numpy()
        if raw.dtype.kind not in "iu":
            raise ValueError(f"a column of {column.type}")
        return raw.astype(np.int64).view(np.uint64).astype(np.uint64), ids
    except (ValueError, TypeError) as exc:
        raise FingerprintFileError(f"{path}: fingerprint: {exc}") from None
