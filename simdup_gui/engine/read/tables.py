r"""Articles held in tables: the rows of Parquet or JSON Lines files, read in batches.

Each row gives an id (the ``id`` column, or the file's name and the row's number), a text and
the encoding it came in (a binary cell is decoded as a file's bytes are). Ids are checked: a
row without one, or an id given twice, is refused in one line; control characters in an id
are escaped (\xNN), so a report's cell never holds them raw.
Parquet is read a row group at a time and JSON Lines a block of lines at a time, so a table
larger than memory streams through. Reading needs pyarrow (the ``simdup[dask]`` extra) for
Parquet; JSON Lines needs nothing.
"""

from __future__ import annotations

import glob
import json
import os
import re
from collections.abc import Iterator

from simdup_gui.engine.read.decode import DecodeError, decode_bytes

TABLE_SUFFIXES = (".parquet", ".pq", ".jsonl", ".ndjson", ".json")
ROWS_PER_BATCH = 512
Row = tuple[str, str, str]  # (id, text, the encoding the text came in)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class TableError(Exception):
    """A table that cannot be read as asked (one line): no such file, column, or rows."""


def table_files(patterns: list[str]) -> list[str]:
    """The files the arguments name (a glob names every file it matches), each once, in order."""
    found: list[str] = []
    for pattern in patterns:
        matched = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not matched:
            raise TableError(f"{pattern}: no file matches")
        for path in matched:
            if not os.path.isfile(path):
                raise TableError(f"{path}: not a file")
            if not path.lower().endswith(TABLE_SUFFIXES):
                raise TableError(f"{path}: not a Parquet or JSON Lines file (by its name)")
            if path not in found:
                found.append(path)
    return found


def table_rows(
    paths: list[str], text_column: str, id_column: str | None = None
) -> Iterator[list[Row]]:
    """The tables' rows as (id, text, encoding), in batches of at most ROWS_PER_BATCH.

    A null text is the empty text (the row's record says so); a binary one is decoded as a
    file's bytes are. Raises TableError for a file that is not a table of its kind, a missing
    column, a row without an id or an id given twice (``id_column``), or no rows at all.
    """
    rows = 0
    seen: set[str] = set()  # the ids given so far (only an id column can repeat one)
    for path in paths:
        read = _parquet_rows if path.lower().endswith((".parquet", ".pq")) else _json_rows
        for batch in read(path, text_column, id_column):
            if id_column is not None:
                for key, _, _ in batch:
                    if key in seen:
                        raise TableError(f"{path}: the id {key!r} is given to two rows")
                    seen.add(key)
            rows += len(batch)
            yield batch
    if not rows:
        raise TableError(f"{', '.join(paths)}: no rows")


def _text(value: object) -> tuple[str, str]:
    """A cell as text and its encoding: bytes are decoded as a file's are (GBK, UTF-8, ...).

    None is the empty text; bytes that are no text give the empty text too (the row's record
    says "no text").
    """
    if value is None:
        return "", ""
    if isinstance(value, bytes):
        try:
            decoded = decode_bytes(value)
        except DecodeError:
            return "", ""
        return decoded.text, decoded.encoding
    return str(value), "utf-8"


def _row_id(path: str, number: int) -> str:
    return f"{os.path.basename(path)}#{number}"


def _id(path: str, where: str, value: object) -> str:
    """A row's id from its id cell: one is needed; control characters are escaped."""
    if value is None or value == "":
        raise TableError(f"{path}: {where} has no id")
    key = value.decode("utf-8", "backslashreplace") if isinstance(value, bytes) else str(value)
    return _CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}", key)


def _parquet_rows(path: str, text_column: str, id_column: str | None) -> Iterator[list[Row]]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise TableError("reading Parquet needs pyarrow: pip install 'simdup[dask]'") from None
    try:
        table = pq.ParquetFile(path)
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        raise TableError(f"{path}: not a Parquet file ({exc})") from None
    names = table.schema_arrow.names
    for column in (text_column, id_column):
        if column is not None and column not in names:
            raise TableError(f"{path}: no column {column!r} (it has {', '.join(names)})")
    columns = [text_column] + ([id_column] if id_column else [])
    number = 0
    for batch in table.iter_batches(batch_size=ROWS_PER_BATCH, columns=columns):
        texts = batch.column(text_column).to_pylist()
        ids = batch.column(id_column).to_pylist() if id_column else None
        yield [
            (
                _id(path, f"row {number + n + 1}", ids[n])
                if ids is not None
                else _row_id(path, number + n),
                *_text(text),
            )
            for n, text in enumerate(texts)
        ]
        number += len(texts)


def _json_rows(path: str, text_column: str, id_column: str | None) -> Iterator[list[Row]]:
    batch: list[Row] = []
    try:
        with open(path, encoding="utf-8-sig") as stream:  # a BOM first is allowed
            for number, line in enumerate(stream):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except ValueError:
                    raise TableError(f"{path}: line {number + 1} is not JSON") from None
                if not isinstance(row, dict):
                    raise TableError(f"{path}: line {number + 1} is not a JSON object")
                for column in (text_column, id_column):
                    if column is not None and column not in row:
                        raise TableError(f"{path}: line {number + 1} has no {column!r}")
                where = f"line {number + 1}"
                key = _id(path, where, row[id_column]) if id_column else _row_id(path, number)
                batch.append((key, *_text(row[text_column])))
                if len(batch) >= ROWS_PER_BATCH:
                    yield batch
                    batch = []
    except UnicodeDecodeError:
        raise TableError(f"{path}: not UTF-8 text, so not JSON Lines") from None
    except OSError as exc:
        raise TableError(f"{path}: {exc.strerror or exc}") from None
    if batch:
        yield batch
