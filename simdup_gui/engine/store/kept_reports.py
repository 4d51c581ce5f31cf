"""A folder's last report, kept whole under a digest of everything it was made from.

Scanning a folder whose files and options are as they were gives the same report, so the
``simdup`` command keeps each folder's last CSV report (up to :data:`MOST_FILES` files) with
its counts, and an unchanged rescan serves it without loading the records, the groups or
numpy: the walk, one query and the writing (docs/speed.md). The table lives in the
fingerprint cache's database (``cache.py`` creates it, writes it and clears it); this module
reads it on a connection of its own and imports nothing heavy. A kept report whose bytes or
counts no longer match their checksum is a miss, so a damaged one is made again, never served.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from simdup_gui.engine.folders import Walked, folder_state
from simdup_gui.engine.options import REPORT_VERSION, ScanOptions

KEPT_REPORTS_TABLE = """
CREATE TABLE IF NOT EXISTS kept_reports (
    folder TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    report BLOB NOT NULL,
    report_digest TEXT NOT NULL,  -- the report's and counts' checksum (_check)
    groups INTEGER NOT NULL,
    duplicates INTEGER NOT NULL
);
"""
PUT_KEPT_REPORT = "INSERT OR REPLACE INTO kept_reports VALUES (?, ?, ?, ?, ?, ?)"
MOST_FILES = 100_000  # a larger folder's report (tens of megabytes) is not kept


class KeptReport(NamedTuple):
    """A scan's report (its CSV text, without the byte-order mark) and what it counts."""

    report: str
    groups: int
    duplicates: int


def kept_report_digest(walked: Sequence[Walked], options: ScanOptions, language: str) -> str:
    """A digest of everything a scan's report is made from: the same digest, the same report.

    Each folder's state (its files and the options that make their records), what makes the
    groups (:attr:`ScanOptions.grouping_key`), the report's version and ``language``, and the
    local time zone the modification times are written in.
    """
    states = [folder_state(part, options) for part in walked]
    zone = (os.environ.get("TZ"), time.tzname, time.timezone, time.altzone, _zone_file())
    text = repr((REPORT_VERSION, language, states, options.grouping_key, zone))
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def _zone_file() -> str:
    """Where the system's local time zone comes from (the rules behind ``time.tzname``)."""
    try:
        return os.path.realpath("/etc/localtime") + str(os.stat("/etc/localtime").st_mtime_ns)
    except OSError:
        return ""


def _check(data: bytes, groups: object, duplicates: object) -> str:
    """The checksum a kept report's bytes and counts are checked against when read.

    A CRC-32 finds accidental damage; a digest would add nothing against a writer, who could
    rewrite both. It takes a sixth of blake2b's time: 0.3 ms against 2 ms for a 1.4 MB report.
    """
    counts = f"\0{groups}\0{duplicates}".encode()
    return f"{zlib.crc32(counts, zlib.crc32(data)):08x}"


def kept_report_row(folder: str, digest: str, outcome: KeptReport) -> tuple[object, ...]:
    """The table's row for ``outcome``: the report's bytes and counts, with their checksum."""
    data = outcome.report.encode("utf-8", "surrogatepass")
    check = _check(data, outcome.groups, outcome.duplicates)
    return folder, digest, data, check, outcome.groups, outcome.duplicates


def load_kept_report(database: Path, folder: str, digest: str) -> KeptReport | None:
    """The report kept for ``folder`` if it was made from ``digest``, else None.

    The database is opened if it exists (never made here); a database that cannot be read,
    has no such table or holds a damaged report gives None: the scan then runs in full, and
    the fingerprint cache says what is wrong.
    """
    if not database.is_file():
        return None
    try:
        db = sqlite3.connect(f"{database.absolute().as_uri()}?mode=rw", uri=True, timeout=2.0)
    except sqlite3.Error:
        return None
    try:
        row = db.execute(
            "SELECT report, report_digest, groups, duplicates FROM kept_reports"
            " WHERE folder = ? AND digest = ?",
            (folder, digest),
        ).fetchone()
    except sqlite3.Error:
        return None
    finally:
        db.close()
    if row is None:
        return None
    data, check, groups, duplicates = row
    if not isinstance(data, bytes) or _check(data, groups, duplicates) != check:
        return None
    return KeptReport(data.decode("utf-8", "surrogatepass"), int(groups), int(duplicates))
