"""Every article's title: a page's <title> or first heading, a text's first line with words."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdup_gui.cli import main
from simdup_gui.engine.fingerprint.titles import MAX_TITLE, clean_title, text_title
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan
from simdup_gui.engine.store.snapshot import pack, unpack


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("春运首日铁路发送旅客三百万人次\n\n本报讯……", "春运首日铁路发送旅客三百万人次"),
        ("\n\n   \n# Harbor   Lighthouse\nText.", "Harbor Lighthouse"),
        ("Harbor Lighthouse\n=================\nText.", "Harbor Lighthouse"),
        (
            "本文转载自《城市晚报》，版权归原作者所有。\n高山茶园迎来春茶采摘季\n正文",
            "高山茶园迎来春茶采摘季",
        ),
        (
            '---\nlayout: post\ntitle: "A Front Matter Title"\n---\n# Heading\n',
            "A Front Matter Title",
        ),
        ("---\nlayout: post\n---\nFirst line after it\n", "First line after it"),
        ("----\n====\n", ""),
        ("", ""),
    ],
)
def test_a_texts_title(text: str, title: str) -> None:
    assert text_title(text) == title


@given(st.text())
def test_a_title_is_one_clean_line_of_at_most_max_title_characters(text: str) -> None:
    title = clean_title(text)
    assert len(title) <= MAX_TITLE
    assert "\n" not in title
    assert "\x00" not in title
    assert title == title.strip()
    assert clean_title(title) == title


def test_the_samples_titles_reach_the_records_the_csv_and_the_html(tmp_path: Path) -> None:
    sample = resource("sample")
    titles = {Path(r.path).name: r.title for r in scan(str(sample), ScanOptions()).files}
    assert titles["春运返乡-镜像.html"] == "新闻中心 - 春运首日铁路发送旅客三百万人次"  # <title>
    assert titles["春运返乡-转载.txt"] == "春运首日铁路发送旅客三百万人次"  # past the notice
    assert titles["harbor-lighthouse-edited.md"].lower().startswith("harbor lighthouse")
    out, err = io.StringIO(), io.StringIO()
    page = tmp_path / "report.html"
    code = main(["scan", str(sample), "--no-cache", "--html", str(page), "--lang", "zh"], out, err)
    assert code == 0, err.getvalue()
    rows = list(csv.DictReader(out.getvalue().splitlines()))
    assert list(rows[0])[:5] == ["组号", "角色", "已标记", "路径", "标题"]  # the report's language
    assert {Path(r["路径"]).name: r["标题"] for r in rows} == titles
    html = page.read_text(encoding="utf-8")
    assert '<html lang="zh">' in html
    assert "第 3 组 · 2 个文件 — 高山茶园迎来春茶采摘季" in html
    assert "<details open>" in html
    assert " KB</td>" in html


def test_a_record_written_before_titles_reads_with_none() -> None:
    """A cache, saved result or library written before the title field: read, titles empty."""
    records = scan(str(resource("sample")), ScanOptions()).files
    assert any(r.title for r in records)
    assert unpack(pack(records)) == records
    older = [r._replace(title="", terms=b"") for r in records]
    blob = pack(older)
    starts = [at for at in range(len(blob)) if blob.startswith(b"\x93NUMPY", at)]
    cut = blob[: starts[-3]]  # the title column and the terms' two (lengths, bytes) left off
    assert unpack(cut) == tuple(older)
