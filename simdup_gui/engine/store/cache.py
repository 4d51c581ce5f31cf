"""A persistent fingerprint cache in SQLite, so an unchanged folder rescans in a moment.

Rows are keyed by path, size, modification time (ns) and the version of the settings that
change a fingerprint (:attr:`TextSettings.version`), so an edited file or a changed setting is
never served a stale fingerprint. A folder's records are also kept whole (``snapshot.py``)
under a digest of its files, so that an unchanged folder is served in one piece. The database
lives in the user cache folder (``resources.user_folder``), or where ``SIMDUP_CACHE_DIR``
points. A corrupt database is moved aside and rebuilt; a locked or read-only one is bypassed.
Either way the scan goes on and says why in a warning.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
import threading
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import NamedTuple

from simdup_gui.engine.match.groups import Group
from simdup_gui.engine.records import FIELD_KINDS, FileRecord, Pairs
from simdup_gui.engine.resources import default_cache_path
from simdup_gui.engine.store.groupings import grouping_blobs, stored_groups
from simdup_gui.engine.store.kept_reports import (
    KEPT_REPORTS_TABLE,
    PUT_KEPT_REPORT,
    KeptReport,
    kept_report_row,
)
from simdup_gui.engine.store.rows import (
    COLUMNS,
    FILES_TABLE,
    PLACEHOLDERS,
    CachedFile,
    cached_file,
    file_row,
)
from simdup_gui.engine.store.snapshot import SNAPSHOT_LAYOUT, pack, unpack

log = logging.getLogger(__name__)
_META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
_SCHEMA = (
    FILES_TABLE
    + """
CREATE TABLE IF NOT EXISTS snapshots (
    folder TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    records BLOB NOT NULL,
    records_digest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS groupings (
    folder TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    pairs BLOB NOT NULL,
    members BLOB NOT NULL,
    sizes BLOB NOT NULL
);
"""
    + KEPT_REPORTS_TABLE
)

# The cache's version: a digest of its tables and of the record they store, so a change to
# either makes a new cache (the old one's tables are dropped) with no constant to bump.
SCHEMA_VERSION = hashlib.blake2b(
    repr((_SCHEMA, FIELD_KINDS, SNAPSHOT_LAYOUT)).encode(), digest_size=6
).hexdigest()


class Snapshot(NamedTuple):
    """A folder's records in one piece, and the digest of what grouping takes from them."""

    records: tuple[FileRecord, ...]
    records_digest: str


class FingerprintCache:
    """Look up and store fingerprints; every failure degrades to 'not cached' plus a warning."""

    def __init__(self, path: Path | None) -> None:
        """Open (or create) the database at ``path``; ``None`` gives a cache that stores nothing."""
        self.path = path
        self.warnings: list[str] = []
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if path is not None:
            self._db = self._open(path)

    @classmethod
    def default(cls) -> FingerprintCache:
        """The cache in the default folder."""
        return cls(default_cache_path())

    @classmethod
    def disabled(cls) -> FingerprintCache:
        """A cache that stores nothing (``--no-cache``)."""
        return cls(None)

    @property
    def enabled(self) -> bool:
        """Whether lookups can hit."""
        return self._db is not None

    def _open(self, path: Path) -> sqlite3.Connection | None:
        for attempt in range(2):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(path, timeout=2.0, check_same_thread=False)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute(_META)
                row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                if row is None or row[0] != str(SCHEMA_VERSION) or not _tables_fit(db):
                    # another version's tables (or ones it left half changed): start afresh
                    db.executescript(
                        "DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS groupings;"
                        " DROP TABLE IF EXISTS snapshots; DROP TABLE IF EXISTS kept_reports;"
                        " DROP TABLE IF EXISTS outcomes;"  # an older simdup's kept reports
                    )
                    db.execute(
                        "INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,)
                    )
                db.executescript(_SCHEMA)
                state = db.execute("SELECT value FROM meta WHERE key = 'open'").fetchone()
                if state is not None and state[0] != "0":  # the last run did not close it
                    check = db.execute("PRAGMA quick_check").fetchone()[0]
                    if check != "ok":
                        db.close()
                        raise sqlite3.DatabaseError(f"integrity check failed: {check}")
                db.execute("INSERT OR REPLACE INTO meta VALUES ('open', '1')")
                db.commit()
                return db
            except sqlite3.DatabaseError as exc:
                if attempt == 0 and _is_corrupt(exc) and self._move_aside(path, exc):
                    continue
                self._warn(f"fingerprint cache not used ({path}: {exc})")
                return None
            except OSError as exc:
                self._warn(f"fingerprint cache not used ({path}: {exc.strerror or exc})")
                return None
        return None

    def _warn(self, message: str) -> None:
        """Say what went wrong with the cache: in the scan's warnings, and in the log."""
        log.warning("%s", message)
        self.warnings.append(message)

    def _move_aside(self, path: Path, exc: Exception) -> bool:
        try:
            os.replace(path, path.with_name(path.name + ".corrupt"))
            for suffix in ("-wal", "-shm"):
                Path(str(path) + suffix).unlink(missing_ok=True)
        except OSError:
            return False
        self._warn(f"fingerprint cache was damaged ({exc}); rebuilt it")
        return True

    def load_folder(self, folder: str, settings: str) -> dict[str, tuple[int, int, CachedFile]]:
        """Every entry under ``folder`` (an absolute path) for these settings, in one query.

        Returns ``{path: (size, mtime_ns, entry)}``; the caller serves an entry only when the
        file's size and modification time still match.
        """
        low = folder.rstrip(os.sep) + os.sep
        high = low[:-1] + chr(ord(os.sep) + 1)
        rows = self._read(
            f"SELECT path, size, mtime_ns, {COLUMNS} FROM files"
            " WHERE settings = ? AND path >= ? AND path < ?",
            (settings, low, high),
        )
        found = {}
        damaged = 0
        for row in rows:
            try:
                found[row[0]] = (row[1], row[2], cached_file(*row[3:]))
            except (ValueError, TypeError):
                damaged += 1
        if damaged:
            self._warn(f"{damaged} damaged rows in the cache: those files read again")
        return found

    def put_many(self, entries: Iterable[tuple[str, int, int, str, CachedFile]]) -> None:
        """Store entries ``(path, size, mtime_ns, settings, cached)`` in one transaction."""
        if self.enabled:
            self._write(
                f"INSERT OR REPLACE INTO files (path, settings, size, mtime_ns, {COLUMNS})"
                f" VALUES ({PLACEHOLDERS})",
                [file_row(*entry) for entry in entries],
            )

    def load_groups(
        self, folder: str, digest: str, files: int
    ) -> tuple[Pairs, tuple[Group, ...]] | None:
        """The pairs and groups last stored for ``folder`` if they were made from ``digest``.

        Stored groups that do not fit a folder of ``files`` files are damage: a miss, with a
        warning.
        """
        rows = self._read(
            "SELECT pairs, members, sizes FROM groupings WHERE folder = ? AND digest = ?",
            (folder, digest),
        )
        if not rows:
            return None
        try:
            return stored_groups(*rows[0], files)  # type: ignore[arg-type]
        except (ValueError, TypeError) as exc:
            self._warn(f"damaged groups in the cache were made again: {exc}")
            return None

    def put_groups(self, folder: str, digest: str, pairs: Pairs, groups: tuple[Group, ...]) -> None:
        """Remember the pairs and groups of ``folder`` as made from ``digest``."""
        if not self.enabled:
            return
        row = (folder, digest, *grouping_blobs(pairs, groups))
        self._write("INSERT OR REPLACE INTO groupings VALUES (?, ?, ?, ?, ?)", [row])

    def load_snapshot(self, folder: str, digest: str) -> Snapshot | None:
        """The records last stored for ``folder`` if its files and settings made ``digest``."""
        rows = self._read(
            "SELECT records, records_digest FROM snapshots WHERE folder = ? AND digest = ?",
            (folder, digest),
        )
        if not rows:
            return None
        records, records_digest = rows[0]
        try:
            return Snapshot(unpack(records), str(records_digest))
        except ValueError as exc:
            self._warn(f"a damaged folder snapshot in the cache was ignored: {exc}")
            return None

    def put_snapshot(self, folder: str, digest: str, snapshot: Snapshot) -> None:
        """Remember the records of ``folder``, made from files and settings with ``digest``."""
        if self.enabled:
            row = (folder, digest, pack(snapshot.records), snapshot.records_digest)
            self._write("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?)", [row])

    def put_kept_report(self, folder: str, digest: str, outcome: KeptReport) -> None:
        """Keep the report of ``folder`` as made from ``digest`` (``kept_reports.py`` serves it)."""
        if self.enabled:
            self._write(PUT_KEPT_REPORT, [kept_report_row(folder, digest, outcome)])

    def _read(self, query: str, parameters: tuple[object, ...]) -> list[tuple[object, ...]]:
        """A query's rows; none when the cache is off or fails (it is then not used again)."""
        if self._db is None:
            return []
        try:
            with self._lock:
                return self._db.execute(query, parameters).fetchall()
        except sqlite3.Error as exc:
            self._fail(exc)
            return []

    def _write(self, statement: str, rows: list[tuple[object, ...]]) -> None:
        """Run ``statement`` for each row in one transaction; a failure stops the cache's use."""
        if self._db is None or not rows:
            return
        try:
            with self._lock, self._db:
                self._db.executemany(statement, rows)
        except sqlite3.Error as exc:
            self._fail(exc)

    def clear(self) -> int:
        """Forget every cached fingerprint; return how many there were.

        A database that cannot be used (damaged, another program's) is removed and made
        afresh, so a clear always ends with a clean cache.
        """
        if self.path is None:
            return 0
        try:
            if self._db is None:
                raise sqlite3.DatabaseError("not usable")
            with self._lock, self._db:
                count = self._db.execute("SELECT COUNT(*) FROM files").fetchone()[0]
                self._db.execute("DELETE FROM files")
                self._db.execute("DELETE FROM groupings")
                self._db.execute("DELETE FROM snapshots")
                self._db.execute("DELETE FROM kept_reports")
            self._db.execute("VACUUM")
            return int(count)
        except sqlite3.Error:
            self.close()
            for suffix in ("", "-wal", "-shm"):
                Path(str(self.path) + suffix).unlink(missing_ok=True)
            self.warnings.clear()
            self._db = self._open(self.path)
            return 0

    def close(self) -> None:
        """Close the database, marked as closed cleanly."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('open', '0')")
                self._db.commit()
            self._db.close()
            self._db = None

    def _fail(self, exc: sqlite3.Error) -> None:
        """Stop using a cache that failed mid-scan (locked, read-only, disk full)."""
        self._warn(f"fingerprint cache stopped being used: {exc}")
        self.close()


def _tables_fit(db: sqlite3.Connection) -> bool:
    """Whether the tables there, if any, have the columns this version writes."""
    for table, wanted in _columns(_SCHEMA).items():
        found = _columns_of(db, table)
        if found and found != wanted:
            return False
    return True


@cache
def _columns(schema: str) -> dict[str, frozenset[str]]:
    """Each table's columns as ``schema`` makes them."""
    db = sqlite3.connect(":memory:")
    db.executescript(schema)
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    found = {table: _columns_of(db, table) for table in tables}
    db.close()
    return found


def _columns_of(db: sqlite3.Connection, table: str) -> frozenset[str]:
    return frozenset(row[1] for row in db.execute(f"PRAGMA table_info({table})"))


def _is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    """Whether the database is damaged or not simdup's (then replaced), not just out of reach."""
    text = str(exc).lower()
    busy = ("locked", "busy", "readonly", "read-only", "unable to open", "permission", "disk i/o")
    return not any(word in text for word in busy)
