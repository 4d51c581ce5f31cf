"""The CSV report: one row per file, grouped files first.

Files are written as UTF-8 with a byte-order mark, so Excel on a Chinese Windows opens them
right; cells that a spreadsheet would run as a formula are escaped, and fingerprints carry a
``0x`` so that no spreadsheet reads them as numbers; the file is written to a temporary name in
the same folder and renamed, so a reader never sees half a report. Its column names, roles and
notes are in the report's language (``words``: English by default, or Chinese); reading a
report back takes either.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from simdup_gui.engine.match.default_measure import containment_share
from simdup_gui.engine.match.groups import Extra, reference_extra
from simdup_gui.engine.methods import FingerprintMethod, method_named
from simdup_gui.engine.output.actions import Seen
from simdup_gui.engine.output.cells import (
    fingerprint_hex,
    guarded,
    modified_ns,
    modified_texts,
    safe_cell,
    unsafe_cell,
)
from simdup_gui.engine.output.outputs import write_atomically
from simdup_gui.engine.output.words import (
    ENGLISH,
    Words,
    counted,
    english_column,
    english_role,
    human_size,
    local_minute,
)
from simdup_gui.engine.read.walk import display_path, is_link
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.results import ScanResult

COLUMNS = (  # what an editor reads first; then what a program or an engineer reads
    "group_id",
    "role",
    "marked",  # marked in the app to be moved or trashed (the app's export)
    "path",
    "title",
    "similarity",
    "contained",  # for a member matched as one text inside the other: the share inside
    "file_size",  # 1.2 KB
    "last_modified",  # local time, to the minute
    "encoding",
    "error",
    "notes",
    "distance",
    "fingerprint",
    "size",  # bytes: what `simdup apply` checks a file against
    "modified",  # to the microsecond, with the UTC offset: likewise
    "chars",
    "features",
    "boilerplate",
    "decoded_by",
)


def _file_cells(files: Sequence[FileRecord], words: Words) -> list[tuple[str, ...]]:
    """Each file's own cells of :data:`COLUMNS` as text, in their order.

    ``path``, ``title``, then ``file_size`` to ``error``, then ``fingerprint`` to
    ``decoded_by`` (``error`` in the language of ``words``).

    Made column by column from the records' fields (``zip(*files)``: no attribute lookup per
    cell), since a report writes one row per file. Only texts can start like a formula
    (numbers, the ``0x`` fingerprint and the ISO time cannot), so only they are guarded.
    """
    if not files:
        return []
    field = dict(zip(FileRecord._fields, zip(*files, strict=True), strict=True))
    minutes: dict[int, str] = {}
    columns = (
        guarded(map(display_path, field["path"])),
        guarded(field["title"]),
        [human_size(size) for size in field["size"]],
        [_minute(minutes, mtime_ns) for mtime_ns in field["mtime_ns"]],
        guarded(field["encoding"]),
        guarded(words.reason(error) if error else "" for error in field["error"]),
        map(fingerprint_hex, field["fingerprint"]),
        map(str, field["size"]),
        modified_texts(field["mtime_ns"]),
        [str(chars) if chars else "" for chars in field["chars"]],
        [str(features) if features else "" for features in field["features"]],
        [f"{100 * share:.0f}%" if share else "" for share in field["boilerplate"]],
        guarded(field["encoding_method"]),
    )
    return list(zip(*columns, strict=True))


def _minute(known: dict[int, str], mtime_ns: int) -> str:
    """:func:`local_minute`, made once a minute (a folder's files share few)."""
    minute = mtime_ns // 60_000_000_000
    if minute not in known:
        known[minute] = local_minute(mtime_ns)
    return known[minute]


def _row(
    group: str,
    role: str,
    marked: str,
    cells: tuple[str, ...],
    distance: str,
    similarity: str,
    contained: str,
    notes: str,
) -> list[str]:
    """A row of the report: a file's own cells, and what its place in the results adds."""
    path, title, file_size, modified, encoding, error, *own = cells
    said = [group, role, marked, path, title, similarity, contained, file_size, modified]
    return [*said, encoding, error, safe_cell(notes), distance, *own]


def _notes(matched: tuple[str, ...], record: FileRecord, words: Words) -> str:
    """A row's notes: what the file matched by (if anything said), then the record's own."""
    return "; ".join(words.note(note) for note in (*matched, *record.notes) if note)


def held_note(record: FileRecord, other: FileRecord, named: str = "the reference") -> str:
    """What a file matched ``other`` (``named`` so) by when one text holds the other."""
    if record.chars <= other.chars:
        return f"contained in {named}"
    return f"contains {named}"


def extra_note(extra: Extra) -> str:
    """What a reference row says of the short lines it adds to a copy ("" if none)."""
    if not extra.lines:
        return ""
    lines = counted(extra.lines, "short line")
    return f"carries {lines} ({extra.chars} characters) a copy lacks: check it"


def report_rows(
    result: ScanResult, words: Words = ENGLISH, marked: Collection[int] = ()
) -> Iterator[list[str]]:
    """Rows for every file: groups (reference first), then files with no duplicate, then errors.

    Roles, notes and reasons in the language of ``words``; the files ``marked`` (in the app)
    say so.
    """
    grouped = set()
    files = result.files
    cells = _file_cells(files, words)
    method = result.options.method
    named = method.note()
    yes = words("yes")
    for group in result.groups:
        group_id = str(group.id)
        for n, member in enumerate(group.members):
            grouped.add(member.file)
            role = "reference" if n == 0 else "kept" if member.file in result.kept else "duplicate"
            record = files[member.file]
            reference = files[group.reference]
            held = held_note(record, reference) if member.contained else ""
            extra = extra_note(reference_extra(group, files)) if n == 0 else ""
            notes = _notes((named, held, extra), record, words)
            distance = str(member.distance) if method.distances else ""
            share = f"{100 * member.similarity:.1f}%"
            inside = f"{100 * containment_share(record, reference):.1f}%" if held else ""
            said, mark = words.role(role), yes if member.file in marked else ""
            yield _row(group_id, said, mark, cells[member.file], distance, share, inside, notes)
    for n, record in enumerate(files):
        if n not in grouped and not record.error:
            notes = _notes((named,), record, words)
            yield _row("", words.role("unique"), "", cells[n], "", "", "", notes)
    for n, record in enumerate(files):
        if record.error:
            role = "link" if is_link(record.error) else "error"
            yield _row("", words.role(role), "", cells[n], "", "", "", _notes((), record, words))


def write_rows(stream: TextIO, rows: Iterator[Sequence[str]], words: Words = ENGLISH) -> None:
    """Write the header (in the language of ``words``) and rows as CSV."""
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow([words.column(name) for name in COLUMNS])
    writer.writerows(rows)


def write_report(
    result: ScanResult,
    destination: str | os.PathLike[str],
    words: Words = ENGLISH,
    marked: Collection[int] = (),
) -> Path:
    """Write the report atomically to ``destination`` (UTF-8 with BOM) and return its path."""
    return write_atomically(
        destination,
        lambda stream: write_rows(stream, report_rows(result, words, marked), words),
        "utf-8-sig",
    )


def report_text(result: ScanResult, words: Words = ENGLISH) -> str:
    """The report as a string (no BOM), e.g. for standard output."""
    buffer = io.StringIO()
    write_rows(buffer, report_rows(result, words), words)
    return buffer.getvalue()


class ReportError(ValueError):
    """A file that is not a simdup report, or a row of it that cannot be read."""


def _existing_path(shown: str) -> str:
    r"""The path a report's cell names: as written, or with ``\xNN`` bytes put back."""
    if os.path.lexists(shown) or "\\x" not in shown:
        return shown
    raw = re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m[1], 16)]), shown.encode())
    path = os.fsdecode(raw)
    return path if os.path.lexists(path) else shown


# FingerprintMethod.note(), in English or Chinese (words.py)
_METHOD_NOTE = re.compile(r"(?:method: |方法：)(\w+)(?:(?:, |，最长 )(\d+)(?: longest| 句))?")


def _english(row: dict[str | None, str | None]) -> dict[str, str]:
    """A report's row by its English column names (a Chinese report's too), cells as read."""
    return {english_column(name): cell or "" for name, cell in row.items() if name is not None}


def report_method(path: str | os.PathLike[str]) -> FingerprintMethod:
    """The method a report was made with, as its rows' notes say (the default if they don't).

    Raises:
        ReportError: the report cannot be read.
    """
    try:
        with open(path, encoding="utf-8-sig", newline="") as stream:
            first = next(csv.DictReader(stream), None)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ReportError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    found = _METHOD_NOTE.match(_english(first or {}).get("notes", ""))
    if not found:
        return method_named("default")
    try:
        return method_named(found[1], **({"sentences": int(found[2])} if found[2] else {}))
    except ValueError as exc:
        raise ReportError(f"{path}: {exc}") from None


def report_duplicates(path: str | os.PathLike[str]) -> list[Seen]:
    """Each duplicate row of a report (never a reference), with its group's reference.

    Raises:
        ReportError: not a report, or a row that cannot be read.
    """
    try:
        with open(path, encoding="utf-8-sig", newline="") as stream:
            rows = [_english(row) for row in csv.DictReader(stream)]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ReportError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    if not rows or not {"group_id", "role", "path", "size"} <= rows[0].keys():
        raise ReportError(f"{path}: not a simdup report (no group_id, role, path, size columns)")
    references: dict[str, str] = {}
    duplicates: list[tuple[str, Seen]] = []
    for line, row in enumerate(rows, 2):
        role = english_role(unsafe_cell(row["role"]))
        file = _existing_path(unsafe_cell(row["path"]))
        if role == "reference":
            references[row["group_id"]] = file
        if role != "duplicate":
            continue
        try:
            modified = unsafe_cell(row.get("modified", ""))
            fingerprint = unsafe_cell(row.get("fingerprint", ""))
            seen = Seen(
                file,
                int(row["size"]),
                modified_ns(modified) if modified else None,
                int(fingerprint, 16) if fingerprint else None,
            )
        except (TypeError, ValueError) as exc:
            raise ReportError(f"{path}: line {line}: {exc}") from None
        duplicates.append((row["group_id"], seen))
    missing = [group for group, _ in duplicates if group not in references]
    if missing:
        raise ReportError(f"{path}: group {missing[0]} has duplicates but no reference")
    return [seen._replace(reference=references[group]) for group, seen in duplicates]
