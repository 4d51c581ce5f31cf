"""The CSV report: one row per file, grouped files first.

Files are written as UTF-8 with a byte-order mark, so Excel on a Chinese Windows opens them
right; cells that a spreadsheet would run as a formula are escaped, and fingerprints carry a
``0x`` so that no spreadsheet reads them as numbers; the file is written to a temporary name in
the same folder and renamed, so a reader never sees half a report.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from simdup_gui.engine.outputs import write_atomically
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.scan import ScanResult
from simdup_gui.engine.walk import display_path

COLUMNS = (
    "group_id",
    "role",
    "path",
    "distance",
    "similarity",
    "encoding",
    "size",
    "fingerprint",
    "error",
    "chars",
    "features",
    "boilerplate",
    "decoded_by",
    "notes",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    """The value as text, with a leading quote when a spreadsheet would read it as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def fingerprint_hex(fingerprint: int | None) -> str:
    """A fingerprint as ``0x`` and 16 hex digits, text to every spreadsheet (empty if none)."""
    return "" if fingerprint is None else f"0x{fingerprint:016x}"


def _row(
    group: int | str, role: str, record: FileRecord, distance: int | str, similarity: str = ""
) -> list[str]:
    values = (
        group,
        role,
        display_path(record.path),
        distance,
        similarity,
        record.encoding,
        record.size,
        fingerprint_hex(record.fingerprint),
        record.error,
        record.chars or "",
        record.features or "",
        f"{100 * record.boilerplate:.0f}%" if record.boilerplate else "",
        record.encoding_method,
        "; ".join(record.notes),
    )
    return [safe_cell(v) for v in values]


def report_rows(result: ScanResult) -> Iterator[list[str]]:
    """Rows for every file: groups (reference first), then files with no duplicate, then errors."""
    grouped = set()
    for group in result.groups:
        for n, member in enumerate(group.members):
            grouped.add(member.file)
            role = "reference" if n == 0 else "duplicate"
            share = f"{100 * member.similarity:.1f}%"
            yield _row(group.id, role, result.files[member.file], member.distance, share)
    for n, record in enumerate(result.files):
        if n not in grouped and not record.error:
            yield _row("", "unique", record, "")
    for record in result.files:
        if record.error:
            yield _row("", "error", record, "")


def write_rows(stream: TextIO, rows: Iterator[Sequence[str]]) -> None:
    """Write the header and rows as CSV."""
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)


def write_report(result: ScanResult, destination: str | os.PathLike[str]) -> Path:
    """Write the report atomically to ``destination`` (UTF-8 with BOM) and return its path."""
    return write_atomically(
        destination, lambda stream: write_rows(stream, report_rows(result)), "utf-8-sig"
    )


def report_text(result: ScanResult) -> str:
    """The report as a string (no BOM), e.g. for standard output."""
    buffer = io.StringIO()
    write_rows(buffer, report_rows(result))
    return buffer.getvalue()
