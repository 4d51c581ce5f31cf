"""Typing slips and the lines copies share: which copy of a group was typed or laid out again."""

from __future__ import annotations

import multiprocessing
import os
import random
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdup_gui.engine.fingerprint.file_records import TextShingles
from simdup_gui.engine.fingerprint.lines import lines_of
from simdup_gui.engine.match import slips as slips_module
from simdup_gui.engine.match.groups import (
    Nodes,
    Padding,
    choose_reference,
    line_likeness,
    no_containments,
)
from simdup_gui.engine.match.slips import losses, may_slip, measure_ahead, retyped, slips
from simdup_gui.engine.options import RunOptions, ScanOptions
from simdup_gui.engine.run.workers import WorkerPool
from simdup_gui.engine.scan import scan
from simdup_gui.engine.text.tokens import Batch

ARTICLE = "\n\n".join(
    [
        "春运首日，铁路部门共发送旅客三百万人次，各地车站秩序井然。",
        "记者在北京西站看到，返乡旅客排队进站，工作人员引导有序。",
        "今年铁路部门新增就业岗位三千个，用于保障春运期间的客运服务。",
        "据介绍，春运期间全国铁路预计发送旅客超过四亿人次。",
        "铁路部门提醒旅客提前规划行程，错峰出行，注意安全。",
    ]
)
MANUAL = (
    "The coreutils package holds the basic file, shell and text tools.\n"
    "Run cat --help for a summary of its options.\n"
    "Report bugs in coreutils to the address given by the help text.\n"
)


def lines(text: str) -> bytes:
    (found,) = lines_of(Batch.normalized([text]))
    return found


def test_a_character_doubled_dropped_or_replaced_is_a_slip_of_the_copy_holding_it() -> None:
    doubled = ARTICLE.replace("就业岗位", "就业业岗位")
    assert slips(ARTICLE, doubled) == (0, 1)
    assert slips(doubled, ARTICLE) == (1, 0)
    replaced = MANUAL.replace("Report bugs in coreutils", "Report bugs in correutils")
    assert slips(MANUAL, replaced) == (0, 1)
    dropped = MANUAL.replace("Report bugs in coreutils", "Report bugs in coreutls")
    assert slips(dropped, MANUAL) == (1, 0)
    two = doubled.replace("秩序井然", "秩序井井然")
    assert slips(ARTICLE, two) == (0, 2)


def test_text_moved_cut_added_or_laid_out_again_is_no_slip() -> None:
    first, second, *rest = ARTICLE.split("\n\n")
    swapped = "\n\n".join([second, first, *rest])
    inside = ARTICLE.replace(
        "记者在北京西站看到，返乡旅客排队进站，", "返乡旅客排队进站，记者在北京西站看到，"
    )
    cut = ARTICLE.replace("各地车站秩序井然。", "")
    added = ARTICLE + "\n\n本文来源：新华网"
    rewrapped = ARTICLE.replace("，", "，\n", 3)
    rewritten = ARTICLE.replace("注意安全", "确保平安抵达")
    for copy in (swapped, inside, cut, added, rewrapped, rewritten, ARTICLE):
        assert slips(ARTICLE, copy) == (0, 0)


def test_only_lines_retyped_in_place_of_others_nearly_as_long_are_compared() -> None:
    doubled = ARTICLE.replace("就业岗位", "就业业岗位")
    assert may_slip(lines(ARTICLE), lines(doubled))
    assert not may_slip(lines(ARTICLE), lines(ARTICLE + "\n\n本文来源：新华网"))
    assert not may_slip(lines(ARTICLE), lines(ARTICLE.rsplit("\n\n", 1)[0]))
    assert not may_slip(lines(ARTICLE), lines(ARTICLE.replace("，", "，\n", 3)))


WORDS = st.text(alphabet="春运首日铁路旅客车站秩序井然abcdefgh", min_size=1, max_size=12)


@given(
    st.lists(WORDS, min_size=1, max_size=8),
    st.lists(st.tuples(st.integers(0, 7), st.integers(0, 3), WORDS), max_size=4),
)
def test_the_records_line_values_tell_what_the_texts_lines_tell(
    base: list[str], edits: list[tuple[int, int, str]]
) -> None:
    """Which lines were retyped, found from the line values, is found from the texts' lines.

    So a pair that :func:`may_slip` leaves unread has no slip to find.
    """
    copy = list(base)
    for at, how, word in edits:
        at %= len(copy) + 1
        if how == 0:
            copy.insert(at, word)  # a line added
        elif how == 1 and at < len(copy) and len(copy) > 1:
            del copy[at]  # a line cut
        elif at < len(copy):
            line = copy[at]
            copy[at] = line[: how - 1] + word[:1] + line[how - 1 :]  # a character slipped in
    a, b = "\n".join(base), "\n".join(copy)
    plain_a, plain_b = a.split("\n"), b.split("\n")
    from_texts = list(retyped(plain_a, plain_b, list(map(len, plain_a)), list(map(len, plain_b))))
    assert may_slip(lines(a), lines(b)) == bool(from_texts)
    if not from_texts:
        assert slips(a, b) == (0, 0)


def test_the_mean_likeness_of_lines_counts_exact_copies() -> None:
    distinct = Padding([lines("甲\n乙\n丙"), lines("甲\n乙\n丁"), lines("戊\n己")]).distinct
    found = line_likeness(distinct, np.array([1, 1, 1]))
    assert found.tolist() == [0.25, 0.25, 0.0]  # 2 of 4 lines alike: 0.5, halved
    weighed = line_likeness(distinct, np.array([2, 1, 1]))  # one has an exact copy
    assert weighed.tolist() == [(1 + 0.5 + 0) / 3, round((0.5 + 0.5 + 0) / 3, 9), 0.0]


def _reference(folder: Path, texts: dict[str, str], older: str) -> str:
    """The name of the reference of the one group of ``texts`` (``older`` dated first)."""
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    os.utime(folder / older, (1_000_000, 1_000_000))
    result = scan(str(folder), ScanOptions())
    (group,) = result.groups
    return Path(result.files[group.reference].path).name


def test_the_copy_without_slips_is_kept_though_longer_older_and_first(tmp_path: Path) -> None:
    texts = {"a.txt": ARTICLE.replace("就业岗位", "就业业岗位"), "b.txt": ARTICLE}
    assert _reference(tmp_path, texts, "a.txt") == "b.txt"


def _nodes(texts: list[str], mtimes: list[int]) -> Nodes:
    """Nodes of ``texts`` that tell nothing apart but their lines and times: equally alike."""
    count = len(texts)
    zeros = np.zeros(count, np.int64)
    return Nodes(
        fingerprints=np.zeros(count, np.uint64),
        weights=np.ones(count, np.int64),
        named_copies=np.zeros(count, bool),
        converted=zeros,
        notices=zeros,
        boilerplate=np.zeros(count),
        chars=np.full(count, 100),
        mtimes=np.array(mtimes),
        encodings=["utf-8"] * count,
        sizes=np.full(count, 300),
        paths=[f"{n}.txt" for n in range(count)],
        similarities=lambda a, b: np.where(a == b, 1.0, 0.9),
        containments=no_containments,
        kept=np.zeros(count, bool),
        lines=[lines(text) for text in texts],
    )


def test_of_copies_equally_alike_the_one_whose_lines_the_others_share_is_kept() -> None:
    """One copy's line split in two, another's line rewritten: the original shares the most."""
    paragraphs = ARTICLE.split("\n\n")
    split = ARTICLE.replace("春运首日，", "春运首日，\n")  # one short line beyond: no padding
    rewritten = ARTICLE.replace(paragraphs[-1], "铁路部门提醒旅客错峰出行。")
    nodes = _nodes([split, ARTICLE, rewritten], mtimes=[1, 2, 2])  # the split copy older
    assert choose_reference(np.arange(3), nodes)[0] == 1


def test_a_regroup_reads_no_text_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a pair's slips were is remembered by its files' versions: turning a knob reads none."""
    (tmp_path / "a.txt").write_text(ARTICLE.replace("就业岗位", "就业业岗位"), encoding="utf-8")
    (tmp_path / "b.txt").write_text(ARTICLE, encoding="utf-8")
    result = scan(str(tmp_path), ScanOptions())
    read: list[int] = []
    reading = TextShingles.reading
    monkeypatch.setattr(TextShingles, "reading", lambda self, n: read.append(n) or reading(self, n))
    again = result.regroup(replace(result.options.group, k=7))
    (group,) = again.groups
    assert Path(again.files[group.reference].path).name == "b.txt"
    assert read == []
    (tmp_path / "b.txt").write_text(ARTICLE + "\n", encoding="utf-8")  # another version: read
    changed = scan(str(tmp_path), ScanOptions())
    assert Path(changed.files[changed.groups[0].reference].path).name == "b.txt"
    assert read


class _Copies:
    """Texts by node, as a scan's ``Reread`` gives them; each read noted with its process."""

    def __init__(self, texts: list[str], reads: Path) -> None:
        self.texts, self.reads = texts, reads

    def reading(self, node: int) -> Callable[[], str | None]:
        return partial(_noted, self.texts[node], self.reads)

    def version(self, node: int) -> tuple[str, int]:
        return "copy", node


def _noted(text: str, reads: Path) -> str:
    """The text, its reading noted with the process that read it."""
    with reads.open("a") as noted:
        noted.write(f"{os.getpid()}\n")
    return text


def _retyped(text: str, copy: int) -> str:
    """The text with one character of line ``copy`` (of five or more) typed twice."""
    lines = text.split("\n")
    at = [n for n, line in enumerate(lines) if len(line) > 20][copy % 5]
    place = 12 + copy
    lines[at] = lines[at][:place] + lines[at][place] + lines[at][place:]
    return "\n".join(lines)


@pytest.mark.skipif(sys.platform != "linux" or not hasattr(os, "fork"), reason="forks on Linux")
def test_slips_measured_ahead_in_worker_processes_are_those_measured_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten ties of eight near copies (280 pairs): measured in forked workers, then remembered."""
    monkeypatch.setattr(threading, "active_count", lambda: 1)  # as the command line: it forks
    manual = "\n".join(
        f"{line} Line {n} of the manual." for n, line in enumerate(MANUAL.split("\n"))
    )
    stories = [ARTICLE.replace("\n\n", "\n") + f"\n第{n}篇。" for n in range(5)]
    sources = [*stories, *(manual * 2 + f"\nPart {n}." for n in range(5))]
    texts = [_retyped(source, copy) for source in sources for copy in range(8)]
    ties = [list(range(start, start + 8)) for start in range(0, len(texts), 8)]
    every_line = [lines(text) for text in texts]
    copies = _Copies(texts, tmp_path / "reads.txt")
    monkeypatch.setattr(slips_module, "_found", OrderedDict())
    measure_ahead(ties, every_line, copies, 2, lambda: False)
    ahead = dict(slips_module._found)
    readers = set((tmp_path / "reads.txt").read_text().split())
    assert readers
    assert str(os.getpid()) not in readers
    assert multiprocessing.active_children() == []  # none left
    monkeypatch.setattr(slips_module, "_found", OrderedDict())
    (tmp_path / "reads.txt").unlink()
    lost = [losses(tie, [every_line[n] for n in tie], copies) for tie in ties]  # measured here
    assert dict(slips_module._found) == ahead
    assert len(ahead) == 280
    assert any(sum(found) for found in ahead.values())
    assert any(lost)
    monkeypatch.setattr(slips_module, "_found", OrderedDict(ahead))
    (tmp_path / "reads.txt").unlink()
    assert [losses(tie, [every_line[n] for n in tie], copies) for tie in ties] == lost
    assert not (tmp_path / "reads.txt").exists()  # what was measured ahead: nothing read again


@pytest.mark.skipif(sys.platform != "linux" or not hasattr(os, "fork"), reason="forks on Linux")
def test_slips_measured_ahead_stop_at_a_cancel_and_leave_no_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    stories = [ARTICLE.replace("\n\n", "\n") + f"\n第{n}篇。" for n in range(10)]
    texts = [_retyped(story, copy) for story in stories for copy in range(8)]
    ties = [list(range(start, start + 8)) for start in range(0, len(texts), 8)]
    monkeypatch.setattr(slips_module, "_found", OrderedDict())
    copies = _Copies(texts, tmp_path / "reads.txt")
    measure_ahead(ties, [lines(text) for text in texts], copies, 2, lambda: True)
    assert len(slips_module._found) == 1  # the first outcome, then the cancel
    ended = time.monotonic() + 5  # the workers were told to end: they are gone at once
    while multiprocessing.active_children() and time.monotonic() < ended:
        time.sleep(0.01)
    assert multiprocessing.active_children() == []


def _stories(count: int) -> list[str]:
    """``count`` made-up stories, six lines of forty ideographs of GB 2312 each, none alike."""
    chars = "".join(filter(_in_gb2312, map(chr, range(0x4E00, 0x9FA6))))
    draw = random.Random(7)
    return [
        "\n".join("".join(draw.choices(chars, k=40)) + "。" for _ in range(6)) for _ in range(count)
    ]


def _in_gb2312(char: str) -> bool:
    try:
        char.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def test_the_apps_kept_workers_measure_a_folders_slips(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten stories in eight near copies each: the running workers measure their 280 pairs."""
    for story, text in enumerate(_stories(10)):
        for copy in range(8):
            (tmp_path / f"{story}-{copy}.txt").write_text(_retyped(text, copy), encoding="utf-8")
    measured_here: list[int] = []
    measure = slips_module._pair_slips
    monkeypatch.setattr(
        slips_module, "_pair_slips", lambda *given: measured_here.append(1) or measure(*given)
    )
    monkeypatch.setattr(slips_module, "_found", OrderedDict())
    monkeypatch.setattr(threading, "active_count", lambda: 2)  # as the app's: it forks none
    workers = WorkerPool()
    try:
        options = ScanOptions(run=RunOptions(jobs=2, processes=True))
        kept = scan(str(tmp_path), options, workers=workers)
        assert measured_here == []  # every pair in the workers
        assert len(slips_module._found) == 280
    finally:
        workers.shutdown()
    monkeypatch.setattr(slips_module, "_found", OrderedDict())
    alone = scan(str(tmp_path), replace(options, run=RunOptions(jobs=1)))
    assert len(measured_here) == 280  # measured here, one by one
    assert [(g.reference, g.members) for g in alone.groups] == [
        (g.reference, g.members) for g in kept.groups
    ]
    assert len(kept.groups) == 10
