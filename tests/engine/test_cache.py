"""The fingerprint cache: hits, invalidation, and damage that never breaks a scan."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdup_gui.engine import scan as scan_module
from simdup_gui.engine.fingerprint import file_records as fingerprinting
from simdup_gui.engine.match import matching
from simdup_gui.engine.options import GroupOptions, ReadOptions, ScanOptions, TextSettings
from simdup_gui.engine.records import (
    FIELD_KINDS,
    SIGNATURE_BYTES,
    SKETCH_BYTES,
    STORED_FIELDS,
    FileRecord,
)
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan
from simdup_gui.engine.store.cache import SCHEMA_VERSION, FingerprintCache
from simdup_gui.engine.store.rows import CachedFile, cached_file, file_row

SAMPLE = resource("sample")
TEXT = "The harbour lighthouse reopened after two years of careful repairs. " * 30


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "articles"
    root.mkdir()
    for n in range(6):
        (root / f"a{n}.txt").write_text(f"Article {n}. " * 5 + TEXT, encoding="utf-8")
    (root / "page.html").write_text(f"<html><body><p>{TEXT}</p></body></html>", encoding="utf-8")
    (root / "empty.txt").write_bytes(b"")
    return root


@pytest.fixture
def cache_path(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "fingerprints.sqlite3"


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    reads: list[str] = []
    real = fingerprinting.read_prefix

    def spy(path: str, max_bytes: int, refuse: Callable[[bytes], str | None]) -> tuple[bytes, bool]:
        reads.append(Path(path).name)
        return real(path, max_bytes, refuse)

    monkeypatch.setattr(fingerprinting, "read_prefix", spy)
    return reads


def test_rescan_of_unchanged_folder_reads_nothing(
    folder: Path, cache_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = scan(str(folder), cache=FingerprintCache(cache_path))
    reads = count_reads(monkeypatch)
    second = scan(str(folder), cache=FingerprintCache(cache_path))
    assert reads == ["empty.txt"]  # errors are not cached: they may be passing
    assert second.cached == 7
    assert first.cached == 0
    assert second.files == first.files
    assert [g.members for g in second.groups] == [g.members for g in first.groups]


@pytest.mark.parametrize("spelling", ["articles", "articles/", "./articles/.", "x/../articles"])
def test_a_folder_is_the_same_cache_entry_however_it_is_written(
    folder: Path, cache_path: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    scan(str(folder), cache=FingerprintCache(cache_path))
    (folder.parent / "x").mkdir()
    monkeypatch.chdir(folder.parent)
    reads = count_reads(monkeypatch)
    again = scan(spelling, cache=FingerprintCache(cache_path))
    assert reads == ["empty.txt"]
    assert again.cached == 7
    assert all(f.path.startswith(spelling) for f in again.files)  # shown as the user wrote it


def test_changed_file_and_changed_settings_are_fingerprinted_again(
    folder: Path, cache_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scan(str(folder), cache=FingerprintCache(cache_path))
    target = folder / "a1.txt"
    target.write_text("Completely different words now. " * 40, encoding="utf-8")
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 10**9))
    reads = count_reads(monkeypatch)
    result = scan(str(folder), cache=FingerprintCache(cache_path))
    assert sorted(reads) == ["a1.txt", "empty.txt"]
    fresh = scan(str(folder))
    assert result.files == fresh.files
    reads.clear()
    options = ScanOptions(read=ReadOptions(text=TextSettings(stopwords=False)))
    scan(str(folder), options, cache=FingerprintCache(cache_path))
    assert len(reads) == 8


def test_tfidf_features_come_back_from_the_cache(folder: Path, cache_path: Path) -> None:
    options = ScanOptions(read=ReadOptions(text=TextSettings(weighting="tfidf")))
    first = scan(str(folder), options, cache=FingerprintCache(cache_path))
    second = scan(str(folder), options, cache=FingerprintCache(cache_path))
    assert second.cached == 7
    assert [f.fingerprint for f in second.files] == [f.fingerprint for f in first.files]


@pytest.mark.parametrize("schema", ["4", str(SCHEMA_VERSION)])  # the current one: left half changed
def test_a_cache_made_by_another_version_is_replaced(
    folder: Path, cache_path: Path, schema: str
) -> None:
    cache_path.parent.mkdir(parents=True)
    old = sqlite3.connect(cache_path)
    old.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        f"INSERT INTO meta VALUES ('schema', '{schema}');"
        "CREATE TABLE files (settings TEXT, path TEXT, size INTEGER, mtime_ns INTEGER,"
        " fingerprint INTEGER, info TEXT, PRIMARY KEY (settings, path));"
        "INSERT INTO files VALUES ('x', '/a', 1, 1, 1, '{}');"
    )
    old.commit()
    old.close()
    first = scan(str(folder), cache=FingerprintCache(cache_path))
    second = scan(str(folder), cache=FingerprintCache(cache_path))
    assert first.warnings == second.warnings == ()
    assert second.cached == 7
    assert second.files == first.files


def test_corrupt_cache_is_rebuilt_with_a_warning(folder: Path, cache_path: Path) -> None:
    cache_path.parent.mkdir(parents=True)
    cache_path.write_bytes(b"this is not an sqlite database at all" * 100)
    cache = FingerprintCache(cache_path)
    result = scan(str(folder), cache=cache)
    assert any("damaged" in w for w in result.warnings)
    assert cache.enabled
    assert result.files == scan(str(folder)).files
    assert cache_path.with_name(cache_path.name + ".corrupt").exists()
    assert scan(str(folder), cache=FingerprintCache(cache_path)).cached == 7


def test_unusable_cache_is_bypassed(folder: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x")
    cache = FingerprintCache(blocker / "fingerprints.sqlite3")
    result = scan(str(folder), cache=cache)
    assert not cache.enabled
    assert result.warnings
    assert "not used" in result.warnings[0]
    assert len(result.groups) == 1
    assert result.cached == 0


def test_locked_cache_is_bypassed_mid_scan(folder: Path, cache_path: Path) -> None:
    cache = FingerprintCache(cache_path)
    holder = sqlite3.connect(cache_path, timeout=0)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        cache._db.execute("PRAGMA busy_timeout = 50")  # type: ignore[union-attr]
        result = scan(str(folder), cache=cache)
    finally:
        holder.rollback()
        holder.close()
    assert any("stopped being used" in w for w in result.warnings)
    assert len(result.groups) == 1
    assert not result.errors[1:]


def test_clear(folder: Path, cache_path: Path) -> None:
    scan(str(folder), cache=FingerprintCache(cache_path))
    assert FingerprintCache(cache_path).clear() == 7
    assert scan(str(folder), cache=FingerprintCache(cache_path)).cached == 0


def test_groups_of_an_unchanged_folder_come_from_the_cache(
    folder: Path, cache_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = scan(str(folder), cache=FingerprintCache(cache_path))
    assert first.groups
    expected_strict = scan(str(folder), ScanOptions(group=GroupOptions(k=2))).groups
    calls: list[int] = []
    real = matching.group_here

    def spy(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(matching, "group_here", spy)
    again = scan(str(folder), cache=FingerprintCache(cache_path))
    assert calls == []
    assert again.groups == first.groups
    assert [p.tolist() for p in (again.pairs.i, again.pairs.j, again.pairs.distance)] == [
        p.tolist() for p in (first.pairs.i, first.pairs.j, first.pairs.distance)
    ]
    stricter = scan(
        str(folder), ScanOptions(group=GroupOptions(k=2)), cache=FingerprintCache(cache_path)
    )
    assert calls == [1]  # other options: grouped again
    assert stricter.groups == expected_strict
    (folder / "a5.txt").write_text("Now about something else entirely. " * 40, encoding="utf-8")
    changed = scan(str(folder), cache=FingerprintCache(cache_path))
    assert calls == [1, 1]  # a changed file: grouped again
    assert changed.groups == scan(str(folder)).groups


def test_unchanged_folder_comes_back_in_one_piece(
    folder: Path, cache_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = scan(str(folder), cache=FingerprintCache(cache_path))

    def no_rows(*args: object) -> None:
        raise AssertionError("the folder's rows were read one by one")

    monkeypatch.setattr(FingerprintCache, "load_folder", no_rows)
    again = scan(str(folder), cache=FingerprintCache(cache_path))
    assert again.files == first.files
    assert again.cached == 7
    monkeypatch.undo()
    (folder / "new.txt").write_text("A new article about the river. " * 30, encoding="utf-8")
    monkeypatch.setattr(FingerprintCache, "load_folder", no_rows)
    with pytest.raises(AssertionError):  # another folder now: rows, not the snapshot
        scan(str(folder), cache=FingerprintCache(cache_path))


def test_an_unchanged_folder_that_all_reads_is_taken_as_it_is(
    folder: Path, cache_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (folder / "empty.txt").unlink()  # a file that fails is tried again on every rescan
    first = scan(str(folder), cache=FingerprintCache(cache_path))

    def not_again(*args: object) -> None:
        raise AssertionError("the records were gone over again")

    monkeypatch.setattr(scan_module, "_fingerprinted_files", not_again)
    monkeypatch.setattr(scan_module, "_records_digest", not_again)  # the snapshot holds it
    again = scan(str(folder), cache=FingerprintCache(cache_path))
    assert again.files == first.files
    assert again.groups == first.groups
    assert again.cached == len(first.files) == 7


def test_a_damaged_snapshot_is_ignored_with_a_warning(folder: Path, cache_path: Path) -> None:
    first = scan(str(folder), cache=FingerprintCache(cache_path))
    with sqlite3.connect(cache_path) as db:
        assert db.execute("UPDATE snapshots SET records = x'93'").rowcount == 1
    again = scan(str(folder), cache=FingerprintCache(cache_path))
    assert again.files == first.files
    assert again.cached == 7
    assert any("snapshot" in w for w in again.warnings)


def test_a_file_that_failed_is_read_again_on_a_rescan(
    folder: Path, cache_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = fingerprinting.read_prefix

    def failing(
        path: str, max_bytes: int, refuse: Callable[[bytes], str | None]
    ) -> tuple[bytes, bool]:
        if path.endswith("a2.txt"):
            raise fingerprinting.ReadError("permission denied")
        return real(path, max_bytes, refuse)

    monkeypatch.setattr(fingerprinting, "read_prefix", failing)
    first = scan(str(folder), cache=FingerprintCache(cache_path))
    assert [f.error for f in first.files if f.path.endswith("a2.txt")] == ["permission denied"]
    monkeypatch.undo()
    again = scan(str(folder), cache=FingerprintCache(cache_path))
    assert again.files == scan(str(folder)).files


def test_a_second_scan_of_a_folder_without_duplicates(tmp_path: Path) -> None:
    """Regression: no groups stored made every later scan crash (zip of unequal lengths)."""
    folder = tmp_path / "three"
    folder.mkdir()
    for name, text in (
        ("a", "今天天气很好，我们去公园散步吧。"),
        ("b", "The quick brown fox."),
        ("c", "股市"),
    ):
        (folder / f"{name}.txt").write_text(text * 5, encoding="utf-8")
    cache = FingerprintCache(tmp_path / "cache.db")
    first = scan(str(folder), cache=cache)
    again = scan(str(folder), cache=cache)
    assert first.groups == again.groups == ()
    assert len(again.files) == 3
    assert not again.warnings


def test_stored_groups_that_do_not_fit_the_folder_are_made_again(tmp_path: Path) -> None:
    cache = FingerprintCache(tmp_path / "cache.db")
    first = scan(str(SAMPLE), cache=cache)
    assert first.groups
    with sqlite3.connect(tmp_path / "cache.db") as db:
        members = np.array(
            [(10**6, 0, 1.0), (1, 0, 1.0)],
            dtype=[("file", "<i8"), ("distance", "<i8"), ("similarity", "<f8")],
        )
        db.execute(
            "UPDATE groupings SET members = ?, sizes = ?",
            (members.tobytes(), np.array([2], "<i8").tobytes()),
        )
    again = scan(str(SAMPLE), cache=FingerprintCache(tmp_path / "cache.db"))
    assert again.groups == first.groups
    assert any("damaged groups" in w for w in again.warnings)


def _report(folder: Path, cache: FingerprintCache | None = None) -> str:
    from simdup_gui.engine.output.report import report_text

    result = scan(str(folder), cache=cache or FingerprintCache.disabled())
    if cache is not None:
        cache.close()
    return report_text(result)


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE files SET features = -3",
        "UPDATE files SET sketch = x'0102'",
        "UPDATE files SET boilerplate = 7.5",
        "UPDATE files SET chars = 'many'",
        "UPDATE files SET hashes = x'01', counts = NULL",
    ],
)
def test_impossible_values_in_the_cache_are_misses(
    folder: Path, cache_path: Path, damage: str
) -> None:
    clean = _report(folder)
    _report(folder, FingerprintCache(cache_path))
    db = sqlite3.connect(cache_path)
    db.execute(damage)
    db.execute("DELETE FROM snapshots")  # so the rows are what the rescan reads
    db.commit()
    db.close()
    cache = FingerprintCache(cache_path)
    result = scan(str(folder), cache=cache)
    cache.close()
    assert result.cached == 0
    assert any("damaged rows" in w for w in result.warnings)
    assert _report(folder, FingerprintCache(cache_path)) == clean


def test_a_snapshot_with_impossible_records_is_ignored(folder: Path, cache_path: Path) -> None:
    from simdup_gui.engine.store.snapshot import pack, unpack

    clean = _report(folder)
    _report(folder, FingerprintCache(cache_path))
    db = sqlite3.connect(cache_path)
    (blob,) = db.execute("SELECT records FROM snapshots").fetchone()
    records = [r._replace(sketch=r.sketch[:-3]) for r in unpack(blob)]
    db.execute("UPDATE snapshots SET records = ?", (pack(records),))
    db.commit()
    db.close()
    cache = FingerprintCache(cache_path)
    result = scan(str(folder), cache=cache)
    cache.close()
    assert any("snapshot" in w for w in result.warnings)
    assert _report(folder, FingerprintCache(cache_path)) == clean


def test_another_programs_database_is_replaced_and_clear_always_cleans(
    folder: Path, cache_path: Path
) -> None:
    clean = _report(folder)
    cache_path.parent.mkdir(parents=True)
    other = sqlite3.connect(cache_path)
    other.executescript("CREATE TABLE meta (name TEXT, owner TEXT); CREATE TABLE files (x);")
    other.commit()
    other.close()
    cache = FingerprintCache(cache_path)
    assert cache.enabled
    assert any("damaged" in w for w in cache.warnings)
    assert _report(folder, cache) == clean
    cache_path.write_bytes(b"\x00garbage" * 1000)
    for _ in range(2):
        cache = FingerprintCache(cache_path)
        cache.clear()
        cache.close()
        fresh = FingerprintCache(cache_path)
        assert fresh.enabled
        assert fresh.warnings == []
        fresh.close()


def test_a_cache_left_open_is_checked_and_a_damaged_one_rebuilt(
    folder: Path, cache_path: Path
) -> None:
    clean = _report(folder)
    cache = FingerprintCache(cache_path)
    scan(str(folder), cache=cache)
    cache._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # type: ignore[union-attr]
    # killed: never closed, so the next open checks the database
    data = bytearray(cache_path.read_bytes())
    data[4096 * 2 : 4096 * 2 + 512] = os.urandom(512)  # a damaged page
    cache_path.write_bytes(bytes(data))
    cache = FingerprintCache(cache_path)
    assert _report(folder, cache) == clean
    assert FingerprintCache(cache_path).enabled


def test_a_byte_name_and_its_escaped_spelling_never_share_a_cache_row(
    tmp_path: Path, cache_path: Path
) -> None:
    folder = tmp_path / "names"
    folder.mkdir()
    raw = os.fsencode(folder) + b"/\xff.txt"
    with open(raw, "wb") as handle:
        handle.write(("First article about the harbour. " * 40).encode())
    (folder / "\\xff.txt").write_text("Second article, on rain and tea! " * 40, encoding="utf-8")
    when = 1_700_000_000_000_000_000
    for path in (raw, os.fsencode(folder / "\\xff.txt")):
        os.utime(path, ns=(when, when))
    clean = _report(folder)
    _report(folder, FingerprintCache(cache_path))
    db = sqlite3.connect(cache_path)
    db.execute("DELETE FROM snapshots")
    db.commit()
    db.close()
    assert _report(folder, FingerprintCache(cache_path)) == clean


def test_the_files_table_is_the_records_fields(cache_path: Path) -> None:
    from simdup_gui.engine.records import STORED_FIELDS

    FingerprintCache(cache_path).close()
    db = sqlite3.connect(cache_path)
    columns = [row[1] for row in db.execute("PRAGMA table_info(files)")]
    db.close()
    assert columns == ["settings", "path", "size", "mtime_ns", *STORED_FIELDS, "hashes", "counts"]


def test_several_folders_rescan_from_the_cache(tmp_path: Path) -> None:
    import shutil

    first, second = tmp_path / "a", tmp_path / "b"
    shutil.copytree(SAMPLE / "zh", first)
    shutil.copytree(SAMPLE / "en", second)
    shutil.copy2(first / "茶园春茶.txt", second / "tea.txt")
    cache_path = tmp_path / "cache.sqlite3"
    one = scan([str(first), str(second)], cache=FingerprintCache(cache_path))
    again = scan([str(first), str(second)], cache=FingerprintCache(cache_path))
    assert again.cached == len(again.files) == len(one.files) == 14
    assert again.files == one.files
    assert again.groups == one.groups
    assert again.roots == (str(first), str(second))
    assert again.root == str(tmp_path)
    alone = scan(str(first), cache=FingerprintCache(cache_path))  # each folder's own snapshot
    assert alone.cached == len(alone.files) == 7
    assert alone.roots == ()


_FIELD_VALUES = {  # a value a scan could store, by the field's kind
    "int": st.integers(0, 2**40),
    "float": st.floats(0.0, 1.0),
    "int | None": st.none()
    | st.sampled_from((0, 2**63 - 1, 2**63, 2**64 - 1))
    | st.integers(0, 2**64 - 1),
    "str": st.text(max_size=8),
    "tuple[str, ...]": st.lists(st.text("ab; ", min_size=1, max_size=5), max_size=3).map(tuple),
}
_BYTES_VALUES = {
    "sketch": st.integers(0, SKETCH_BYTES // 8).map(lambda n: b"s" * 8 * n),
    "signature": st.integers(0, SIGNATURE_BYTES // 4).map(lambda n: b"g" * 4 * n),
    "lines": st.integers(0, 64).map(lambda n: b"l" * 8 * n),
    "passages": st.integers(0, 64).map(lambda n: b"p" * 4 * n),
    "terms": st.integers(0, 64).map(lambda n: b"t" * 4 * n),
}


@st.composite
def _stored_records(draw: st.DrawFn) -> FileRecord:
    return FileRecord(
        "",
        **{
            name: draw(_BYTES_VALUES[name] if name in _BYTES_VALUES else _FIELD_VALUES[kind])
            for name, kind in ((n, FIELD_KINDS[n]) for n in STORED_FIELDS)
        },
    )


@given(_stored_records())
def test_a_files_row_is_each_field_as_sqlite_takes_it(record: FileRecord) -> None:
    """The row against its definition, field by field; and it reads back as the record."""

    def as_sqlite(name: str, value: object) -> object:
        if FIELD_KINDS[name] == "int | None" and value is not None:
            return value - 2**64 if value >= 2**63 else value  # signed 64-bit
        return "\n".join(value) if FIELD_KINDS[name] == "tuple[str, ...]" else value

    row = file_row("/a/b.txt", 5, 6, "v1", CachedFile(record))
    stored = [as_sqlite(name, getattr(record, name)) for name in STORED_FIELDS]
    assert row == ("/a/b.txt", "v1", 5, 6, *stored, None, None)
    assert cached_file(*row[4:]) == CachedFile(record)
