from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine.output.cells import modified_ns, modified_text, safe_cell
from simdup_gui.engine.output.report import COLUMNS, write_report, write_rows
from simdup_gui.engine.scan import scan


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+cmd", "'+cmd"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("plain", "plain"),
        (3, "3"),
        (None, ""),
    ],
)
def test_formula_cells_are_escaped(value: object, written: str) -> None:
    assert safe_cell(value) == written


@pytest.fixture(params=["UTC", "Asia/Shanghai", "America/New_York", "Asia/Kolkata"])
def local_zone(request: pytest.FixtureRequest) -> Iterator[str]:
    """The process's local time zone set to each of a few (offsets of half hours, summer time,
    and, long ago, local mean times of seconds)."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = request.param
    time.tzset()
    yield request.param
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def _modified_by_datetime(mtime_ns: int) -> str:
    """The definition: the time as datetime writes it, local with its offset."""
    when = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=mtime_ns // 1000)
    return when.astimezone().isoformat(timespec="microseconds")


def test_modified_times_are_written_as_datetime_writes_them(local_zone: str) -> None:
    @settings(max_examples=200, deadline=None)
    @given(st.integers(-(2**61), 2**62) | st.integers(-(10**18), 4 * 10**18))
    def check(mtime_ns: int) -> None:
        written = modified_text(mtime_ns)
        assert written == _modified_by_datetime(mtime_ns)
        assert modified_ns(written) == mtime_ns // 1000 * 1000

    check()


def test_rows_are_written_as_csv_that_reads_back() -> None:
    rows = [[str(n), "duplicate", f"路径/{n}.txt", "a,b", 'say "hi"'] for n in range(10_000)]
    written = io.StringIO()
    write_rows(written, iter(rows))
    assert list(csv.reader(io.StringIO(written.getvalue(), newline=""))) == [
        list(COLUMNS),
        *rows,
    ]
    empty = io.StringIO()
    write_rows(empty, iter([]))
    assert empty.getvalue() == ",".join(COLUMNS) + "\r\n"


def test_report_is_utf8_with_bom_and_reads_back(tmp_path: Path) -> None:
    (tmp_path / "=cmd.txt").write_text("Formula-looking file name but real text. " * 20)
    (tmp_path / "copy.txt").write_text("Formula-looking file name but real text. " * 20)
    (tmp_path / "中文.txt").write_text("这是一篇测试文章，用来检查报告的编码是否正确。" * 10)
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / os.fsdecode(b"bad-\xff.txt")).write_bytes(b"Not UTF-8 in its name only.")
    out = tmp_path / "out" / "report.csv"
    out.parent.mkdir()
    result = scan(str(tmp_path))
    write_report(result, out)
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(raw.decode("utf-8-sig").splitlines()))
    assert tuple(rows[0]) == COLUMNS
    by_name = {Path(r["path"].lstrip("'")).name: r for r in rows}
    assert by_name["中文.txt"]["role"] == "unique"
    assert by_name["empty.txt"]["role"] == "error"
    assert by_name["empty.txt"]["error"] == "empty file"
    assert by_name["bad-\\xff.txt"]["role"] == "unique"  # the name's bytes shown escaped
    group = {by_name["=cmd.txt"]["group_id"], by_name["copy.txt"]["group_id"]}
    assert group == {"1"}
    fingerprint = by_name["copy.txt"]["fingerprint"]
    copy = next(f for f in result.files if f.path.endswith("copy.txt"))
    assert len(fingerprint) == 18  # 0x and 16 hex digits: a spreadsheet keeps it as text
    assert fingerprint.startswith("0x")
    assert int(fingerprint, 16) == copy.fingerprint
    assert by_name["copy.txt"]["similarity"] == "100.0%"
    assert [p.name for p in out.parent.iterdir()] == ["report.csv"]  # no temp file left
    assert out.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
