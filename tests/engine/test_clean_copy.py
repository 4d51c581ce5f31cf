"""The copy kept: the cleanest — never one padded with a header, footer or notice."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from simdup_gui.engine.fingerprint.lines import lines_of
from simdup_gui.engine.match.groups import Extra, Group, Padding, padded_copies, reference_extra
from simdup_gui.engine.options import GroupOptions, ScanOptions
from simdup_gui.engine.output.html_report import html_lines
from simdup_gui.engine.output.report import COLUMNS, report_rows
from simdup_gui.engine.output.words import Words
from simdup_gui.engine.results import ScanResult
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
    retyped = header + STORY.replace("秩序井然", "秩序并然")  # edited too: holds not every line
    assert padded_copies(lines(STORY, retyped)) == {1}
    assert padded_copies(lines(STORY.replace("井然", "并然"), cut)) == set()
    assert padded_copies(lines(STORY, same)) == set()
    assert padded_copies(lines(STORY)) == set()


def test_one_short_line_beyond_an_edited_copy_is_no_padding_two_are() -> None:
    """Where both copies differ, a single short line one has is as likely a heading the other
    lost as one added; two or more short lines beyond it (a header, a notice) are padding."""
    edited = STORY.replace("秩序井然", "秩序并然")
    assert padded_copies(lines(STORY, "新闻中心\n" + edited)) == set()
    assert padded_copies(lines("第二章\n" + STORY, edited)) == set()  # the heading lost
    assert padded_copies(lines(STORY, "新闻中心\n首页 | 国内\n" + edited)) == {1}


def test_the_clean_copy_is_kept_whatever_the_names_and_times(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The padded copy is older, its path shorter: the clean one is still the reference."""
    import os

    (tmp_path / "a.txt").write_text("Morning Edition\nPage 3\n" + STORY, encoding="utf-8")
    (tmp_path / "zz-original.txt").write_text(STORY, encoding="utf-8")
    os.utime(tmp_path / "a.txt", (1_000_000, 1_000_000))
    result = scan(str(tmp_path), ScanOptions(group=GroupOptions()))
    (group,) = result.groups
    assert result.files[group.reference].path.endswith("zz-original.txt")


def _kept(folder: Path, texts: dict[str, str], kept: str) -> tuple[ScanResult, Group]:
    """The one group of ``texts`` scanned, kept around the file named ``kept``."""
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    result = scan(str(folder), ScanOptions())
    (group,) = result.groups
    (file,) = (m.file for m in group.members if result.files[m.file].path.endswith(kept))
    group = result.with_reference(group, file)
    return replace(result, groups=(group,)), group


def test_a_reference_that_adds_short_lines_to_a_copy_is_flagged_with_their_count(
    tmp_path: Path,
) -> None:
    header = "新闻中心\n首页 | 国内 | 国际\n"
    footer = "\n责任编辑：张三\n本文来源：某某网"
    result, group = _kept(
        tmp_path, {"padded.txt": header + STORY + footer, "clean.txt": STORY}, "padded.txt"
    )
    added = header.split("\n")[:2] + footer.split("\n")[1:]
    chars = sum(len("".join(line.split())) for line in added)  # as lines count: no spaces
    assert reference_extra(group, result.files) == Extra(4, chars)
    notes = next(row for row in report_rows(result) if row[1] == "reference")[
        COLUMNS.index("notes")
    ]
    assert "carries 4 short lines" in notes
    page = "".join(html_lines(result, Words("zh")))
    assert "⚑ 保留的版本有副本没有的短行（4 行" in page


def test_a_clean_reference_a_noisy_one_and_a_fuller_one_are_not_flagged(tmp_path: Path) -> None:
    noisy = STORY.replace("秩序井然", "秩序并然").replace("三百万", "三白万")
    cut = STORY.rsplit("\n\n", 2)[0]
    for texts, kept in (
        ({"padded.txt": "首页 | 国内\n" + STORY, "clean.txt": STORY}, "clean.txt"),
        ({"noisy.txt": noisy, "clean.txt": STORY}, "noisy.txt"),  # lines edited: none added
        ({"full.txt": STORY, "cut.txt": cut}, "full.txt"),  # long lines: may have been cut
    ):
        folder = tmp_path / kept
        folder.mkdir()
        result, group = _kept(folder, texts, kept)
        assert reference_extra(group, result.files) == Extra()
        assert "check it" not in "".join(map(str, report_rows(result)))
        assert "⚑" not in "".join(html_lines(result))


@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(0, 3), st.booleans(), st.booleans()),
        min_size=2,
        max_size=8,
    ),
    st.randoms(use_true_random=False),
)
def test_asking_the_best_texts_first_chooses_as_asking_every_text(
    copies: list[tuple[bool, int, bool, bool]], rng: random.Random
) -> None:
    """``choose_reference`` asks the best text, then the next, until one is not padded: the
    same choice as every text asked about first (``padded_copies``, the plain definition)."""
    paragraphs = STORY.split("\n\n")
    texts = []
    for header, retyped, cut, footer in copies:
        text = list(paragraphs)
        for k in range(retyped):
            text[k] = text[k].replace("井然", "并然")
        text = text[:-1] if cut else text
        texts.append(
            ("新闻中心\n" if header else "")
            + "\n\n".join(text)
            + ("\n编辑：张三" if footer else "")
        )
    found = lines(*texts)
    order = list(range(len(texts)))
    rng.shuffle(order)
    padded = padded_copies(found)
    plain = min(order, key=lambda n: (n in padded, order.index(n)))
    padding = Padding(found)
    asked = next((n for n in order if not padding.padded(n)), order[0])
    assert asked == plain
