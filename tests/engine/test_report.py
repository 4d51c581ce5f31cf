from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine.fingerprint.shingles import containment
from simdup_gui.engine.methods import method_named
from simdup_gui.engine.options import GroupOptions, ReadOptions, ScanOptions, TextSettings
from simdup_gui.engine.output.cells import (
    guarded,
    modified_ns,
    modified_text,
    modified_texts,
    safe_cell,
)
from simdup_gui.engine.output.report import (
    COLUMNS,
    held_note,
    report_duplicates,
    report_method,
    report_rows,
    write_report,
    write_rows,
)
from simdup_gui.engine.output.words import (
    Words,
    english_column,
    english_role,
    human_size,
    local_minute,
)
from simdup_gui.engine.read.walk import display_path, is_link
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.resources import resource
from simdup_gui.engine.results import ScanResult
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


@given(st.lists(st.text(alphabet="=+-@\t\r'a中 ", max_size=4)))
def test_a_column_is_guarded_as_each_cell(texts: list[str]) -> None:
    assert guarded(texts) == [safe_cell(text) for text in texts]


def test_modified_times_are_written_as_datetime_writes_them(local_zone: str) -> None:
    @settings(max_examples=200, deadline=None)
    @given(st.integers(-(2**61), 2**62) | st.integers(-(10**18), 4 * 10**18))
    def check(mtime_ns: int) -> None:
        written = modified_text(mtime_ns)
        assert written == _modified_by_datetime(mtime_ns)
        assert modified_ns(written) == mtime_ns // 1000 * 1000

    check()


def test_a_column_of_times_is_written_as_each_time(local_zone: str) -> None:
    """Times that share a second (a copied folder) share its text; 0 is an empty cell."""
    second = st.integers(-(2**33), 2**34)  # seconds from before 1700 to after 2500
    time_ns = st.builds(lambda s, ns: s * 1_000_000_000 + ns, second, st.integers(0, 10**9 - 1))

    @settings(max_examples=100, deadline=None)
    @given(st.lists(st.sampled_from([0, 2**62]) | time_ns, max_size=30), st.randoms())
    def check(times: list[int], random: object) -> None:
        times = times + [t + 1000 for t in times]  # the same seconds again
        random.shuffle(times)  # type: ignore[attr-defined]
        expected = [modified_text(t) if t else "" for t in times]
        assert modified_texts(times) == expected

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
    assert raw.count(b"\xef\xbb\xbf") == 1
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


def _reference_rows(result: ScanResult) -> list[list[str]]:
    """The definition of the report's rows: each file's cells made one by one from its record."""

    def row(
        group: object,
        role: str,
        record: FileRecord,
        distance: object = "",
        similarity: str = "",
        matched: str = "",
        contained: str = "",
    ) -> list[str]:
        notes = (
            "; ".join(filter(None, (matched, *record.notes)))
            if matched
            else "; ".join(record.notes)
        )
        return [
            str(group),
            role,
            "",  # marked: none outside the app
            safe_cell(display_path(record.path)),
            safe_cell(record.title),
            similarity,
            contained,
            human_size(record.size),
            local_minute(record.mtime_ns),
            safe_cell(record.encoding),
            safe_cell(record.error),
            safe_cell(notes),
            str(distance),
            "" if record.fingerprint is None else f"0x{record.fingerprint:016x}",
            str(record.size),
            modified_text(record.mtime_ns) if record.mtime_ns else "",
            str(record.chars or ""),
            str(record.features or ""),
            f"{100 * record.boilerplate:.0f}%" if record.boilerplate else "",
            safe_cell(record.encoding_method),
        ]

    named = result.options.method.note()
    rows, grouped = [], set()
    for group in result.groups:
        for n, member in enumerate(group.members):
            grouped.add(member.file)
            record = result.files[member.file]
            reference = result.files[group.reference]
            role = "reference" if n == 0 else "kept" if member.file in result.kept else "duplicate"
            held = held_note(record, reference) if member.contained else ""
            distance = member.distance if result.options.method.distances else ""
            matched = "; ".join(filter(None, (named, held)))
            share = f"{100 * member.similarity:.1f}%"
            small, large = sorted((record, reference), key=lambda r: r.chars)
            inside = containment(*(np.frombuffer(r.sketch, "<u8") for r in (small, large)))[0]
            contained = f"{100 * inside:.1f}%" if member.contained else ""
            rows.append(row(group.id, role, record, distance, share, matched, contained))
    rows += [
        row("", "unique", r, matched=named)
        for n, r in enumerate(result.files)
        if n not in grouped and not r.error
    ]
    rows += [row("", "link" if is_link(r.error) else "error", r) for r in result.files if r.error]
    return rows


@pytest.mark.parametrize("method", ["default", "minhash"])
def test_report_rows_are_each_files_cells_as_defined(tmp_path: Path, method: str) -> None:
    """Groups with a kept copy and a contained one, unique files, errors, a link, notes."""
    story = (resource("sample") / "zh" / "春运返乡.txt").read_text(encoding="utf-8")
    (tmp_path / "ref").mkdir()
    (tmp_path / "ref" / "=original.txt").write_text(story, encoding="utf-8")
    (tmp_path / "copy.txt").write_text(story + "转载请注明出处。", encoding="gbk")
    (tmp_path / "ref" / "kept.txt").write_text(story + "(完)", encoding="utf-8")
    (tmp_path / "part.txt").write_text(story[: len(story) // 3], encoding="utf-8")
    (tmp_path / "page.html").write_text(f"<html><body><p>{story}</p></body></html>")
    (tmp_path / "other.txt").write_text("A different article about the weather. " * 30)
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "link.txt").symlink_to(tmp_path / "other.txt")
    text = TextSettings(method=method_named(method))
    options = ScanOptions(
        read=ReadOptions(text=text), group=GroupOptions(reference_folders=(str(tmp_path / "ref"),))
    )
    result = scan(str(tmp_path), options)
    rows = list(report_rows(result))
    assert rows == _reference_rows(result)
    assert {row[1] for row in rows} == {"reference", "duplicate", "kept", "unique", "error", "link"}
    if method == "default":
        assert any("contained in the reference" in row[11] for row in rows)
    else:  # a method of its own: named in every row's notes, with no bit distance
        assert all(
            row[11].startswith(f"method: {method}")
            for row in rows
            if row[1] not in ("error", "link")
        )
        assert all(row[12] == "" for row in rows)


CHINESE_HEADER = (
    *("组号", "角色", "已标记", "路径", "标题", "相似度", "包含比例", "文件大小", "最后修改"),
    *("编码", "错误", "备注", "距离", "指纹", "大小（字节）", "修改时间", "字数", "特征数"),
    *("模板占比", "解码方式"),
)


def test_a_chinese_report_is_the_english_one_in_other_words_and_reads_back_the_same(
    tmp_path: Path,
) -> None:
    """Column names, roles and notes in Chinese; every other cell as the English report's."""
    story = "The harbour's lighthouse reopened after two years of careful repairs. " * 12
    (tmp_path / "story.txt").write_text(story, encoding="utf-8")
    (tmp_path / "repost.txt").write_text(story + "Reposted.", encoding="utf-8")
    (tmp_path / "other.txt").write_text("Another article about the weather. " * 9)
    (tmp_path / "empty.txt").write_bytes(b"")
    result = scan(
        str(tmp_path), ScanOptions(read=ReadOptions(TextSettings(method=method_named("minhash"))))
    )
    english, chinese = tmp_path / "en.csv", tmp_path / "zh.csv"
    write_report(result, english)
    write_report(result, chinese, Words("zh"))
    en = list(csv.reader(english.read_text(encoding="utf-8-sig").splitlines()))
    zh = list(csv.reader(chinese.read_text(encoding="utf-8-sig").splitlines()))
    assert en[0] == list(COLUMNS)
    assert zh[0] == list(CHINESE_HEADER)
    assert [english_column(name) for name in zh[0]] == en[0]
    role, notes, error = COLUMNS.index("role"), COLUMNS.index("notes"), COLUMNS.index("error")
    assert [row[role] for row in zh[1:]] == ["参照", "副本", "无重复", "错误"]
    assert [english_role(row[role]) for row in zh[1:]] == [row[role] for row in en[1:]]
    assert zh[1][notes] == "方法：minhash"
    assert en[1][notes] == "method: minhash"
    for en_row, zh_row in zip(en[1:], zh[1:], strict=True):
        same = [n for n in range(len(COLUMNS)) if n not in (role, notes, error)]
        assert [zh_row[n] for n in same] == [en_row[n] for n in same]
        assert zh_row[error] == Words("zh").reason(en_row[error])  # "空文件" for "empty file"
        assert zh_row[notes] == "; ".join(
            map(Words("zh").note, filter(None, en_row[notes].split("; ")))
        )
    assert report_duplicates(chinese) == report_duplicates(english)
    assert len(report_duplicates(chinese)) == 1
    assert report_method(chinese) == report_method(english) == method_named("minhash")


@pytest.mark.parametrize(
    ("note", "chinese"),
    [
        ("method: minhash", "方法：minhash"),
        ("method: sentences, 4 longest", "方法：sentences，最长 4 句"),
        ("contained in the reference", "包含于参照文件中"),
        ("contains the reference", "包含参照文件"),
        (
            "carries 3 short lines (41 characters) a copy lacks: check it",
            "带有副本没有的 3 个短行（41 字）：请核对",
        ),
        (
            "carries 1 short line (9 characters) a copy lacks: check it",
            "带有副本没有的 1 个短行（9 字）：请核对",
        ),
        ("file name is not valid UTF-8", "文件名不是有效的 UTF-8"),
        ("only the first 1048576 bytes read", "只读取了前 1048576 字节"),
        ("12 undecodable bytes replaced", "12 个无法解码的字节已替换"),
        (
            "page kept whole: what looked like site template was most of it",
            "整页保留：看似网站模板的内容占了大半",
        ),
        ("short text: 7 distinct words", "文本过短：7 个不同的词"),
        ("a note nobody translated", "a note nobody translated"),
    ],
)
def test_each_note_the_engine_writes_is_said_in_chinese_numbers_kept(
    note: str, chinese: str
) -> None:
    assert Words("zh").note(note) == chinese
    assert Words("en").note(note) == note
