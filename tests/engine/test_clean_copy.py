"""The copy kept: the cleanest — never one padded with a header, footer or notice."""

from __future__ import annotations

from simdup_gui.engine.fingerprint.lines import lines_of
from simdup_gui.engine.match.groups import padded_copies
from simdup_gui.engine.options import GroupOptions, ScanOptions
from simdup_gui.engine.scan import scan
from simdup_gui.engine.text.tokens import Batch

STORY = "\n\n".join(
    f"第{n}段：春运首日，铁路部门共发送旅客三百万人次，各地车站秩序井然，旅客陆续返乡。"
    for n in range(8)
)


def lines(*texts: str) -> list[bytes]:
    return list(lines_of(Batch.normalized(list(texts))))


def test_short_lines_added_are_padding_a_paragraph_lost_is_not() -> None:
    header = "新闻中心\n首页 | 国内 | 国际\n"
    footer = "\n责任编辑：张三\n本文来源：某某网"
    padded, cut, same = STORY + footer, STORY.rsplit("\n\n", 1)[0], STORY
    assert padded_copies(lines(STORY, header + STORY + footer)) == {1}
    assert padded_copies(lines(STORY, padded, same)) == {1}
    assert padded_copies(lines(STORY, cut)) == set()  # a long paragraph: it decides nothing
    assert padded_copies(lines(STORY, same)) == set()
    assert padded_copies(lines(STORY)) == set()


def test_the_clean_copy_is_kept_whatever_the_names_and_times(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The padded copy is older, its path shorter: the clean one is still the reference."""
    import os

    (tmp_path / "a.txt").write_text("Morning Edition\nPage 3\n" + STORY, encoding="utf-8")
    (tmp_path / "zz-original.txt").write_text(STORY, encoding="utf-8")
    os.utime(tmp_path / "a.txt", (1_000_000, 1_000_000))
    result = scan(str(tmp_path), ScanOptions(group=GroupOptions()))
    (group,) = result.groups
    assert result.files[group.reference].path.endswith("zz-original.txt")
