"""A copy of bytes read before takes their outcome: the same as reading it, without the work."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine.fingerprint import file_records
from simdup_gui.engine.fingerprint.repeats import Known, Repeats, content_key
from simdup_gui.engine.methods import method_named
from simdup_gui.engine.options import ReadOptions, TextSettings
from simdup_gui.engine.read.walk import Entry
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.resources import resource

SAMPLE = Path(resource("sample"))
STORY = (SAMPLE / "zh" / "茶园春茶.txt").read_text(encoding="utf-8")
PAGE = (SAMPLE / "zh" / "春运返乡-镜像.html").read_bytes()
CONTENTS = [
    STORY.encode("utf-8"),
    STORY.encode("gbk"),  # the same text, other bytes
    (STORY + "\n本文转自某网站。").encode("utf-8"),  # the same first bytes when cut short
    STORY.encode("utf-8")[:400],  # those bytes whole: the same text, though nothing was cut
    PAGE,  # a page: stripped when named .html, and when its content says so
    (SAMPLE / "en" / "harbor-lighthouse.txt").read_bytes(),
    b"A short note.",
    b"   \n\t ",  # no text
    bytes(range(256)) * 8,  # binary: not text
    "caf\xe9 ol\xe9 \xe7a".encode("latin-1") + b"\xff\xfe\x00",  # undecodable bytes replaced
    STORY.encode("utf-8")[:90] + b"\xe9\x93" + STORY.encode("utf-8")[90:],  # UTF-8, a note
]
NAMES = ["a.txt", "b.html", "c.md", os.fsdecode(b"d-\xff.txt")]  # the last one not UTF-8
SETTINGS = [
    TextSettings(),
    TextSettings(weighting="tfidf"),  # features come back with the record
    TextSettings(tokenizer="chars", boilerplate=False),
    TextSettings(method=method_named("minhash")),
]


@contextmanager
def _repeats(keep: int) -> Iterator[Repeats]:
    """This process's outcomes by their bytes, fresh and keeping ``keep``, for the block."""
    kept, file_records.REPEATS = file_records.REPEATS, Repeats(keep)
    try:
        yield file_records.REPEATS
    finally:
        file_records.REPEATS = kept


def _comparable(outcome: file_records.Fingerprinted) -> tuple[object, ...]:
    record, features = outcome
    if features is None:
        return record, None
    return record, features.hashes.tolist(), features.counts.tolist()


def _entries(folder: Path, layout: list[tuple[int, int]]) -> list[Entry]:
    entries = []
    for n, (content, name) in enumerate(layout):
        path = folder / f"{n}-{NAMES[name]}"
        path.write_bytes(CONTENTS[content])
        os.utime(path, ns=(10**18 + n, 10**18 + n))  # each copy its own time
        info = path.stat()
        entries.append(Entry(str(path), info.st_size, info.st_mtime_ns))
    return entries


@settings(max_examples=40)
@given(
    layout=st.lists(
        st.tuples(st.integers(0, len(CONTENTS) - 1), st.integers(0, len(NAMES) - 1)),
        min_size=1,
        max_size=12,
    ),
    cuts=st.lists(st.integers(1, 12), max_size=4),
    keep=st.integers(0, 6),
    texts=st.lists(st.sampled_from(SETTINGS), min_size=1, max_size=3),
    max_bytes=st.sampled_from([16 << 20, 400]),
)
def test_outcomes_of_copies_are_those_of_reading_each_file_alone(
    layout: list[tuple[int, int]],
    cuts: list[int],
    keep: int,
    texts: list[TextSettings],
    max_bytes: int,
) -> None:
    with tempfile.TemporaryDirectory() as folder, _repeats(keep):  # kept across the settings
        entries = _entries(Path(folder), layout)
        for text in texts:
            options = ReadOptions(text=text, max_bytes=max_bytes)
            with _repeats(0):  # the definition: each file read and analysed alone, none kept
                alone = [file_records.fingerprint_batch([entry], options)[0] for entry in entries]
            batched, start = [], 0
            for size in [*cuts, len(entries)]:
                batched += file_records.fingerprint_batch(entries[start : start + size], options)
                start += size
            assert [_comparable(o) for o in batched] == [_comparable(o) for o in alone]


def _watch_analyses(monkeypatch: pytest.MonkeyPatch, look: Callable[[list[str]], None]) -> None:
    """Show ``look`` the texts of every analysis before it runs (it may raise instead)."""
    real = file_records.analyze_many

    def watched(texts: list[str], settings: TextSettings) -> object:
        look(texts)
        return real(texts, settings)

    monkeypatch.setattr(file_records, "analyze_many", watched)


def test_a_copy_is_analysed_once_in_a_batch_and_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    analysed: list[str] = []
    _watch_analyses(monkeypatch, analysed.extend)
    entries = _entries(tmp_path, [(0, 0), (4, 0), (0, 2), (0, 0), (0, 2)])
    options = ReadOptions()
    with _repeats(16) as repeats:
        first = file_records.fingerprint_batch(entries[:3], options)
        later = file_records.fingerprint_batch(entries[3:], options)
        assert len(repeats) == 2
    assert len(analysed) == 2  # the story once, the English text once
    outcomes = first + later
    assert [record.path for record, _ in outcomes] == [entry.path for entry in entries]
    assert [record.mtime_ns for record, _ in outcomes] == [entry.mtime_ns for entry in entries]
    assert len({record.fingerprint for record, _ in outcomes[:1] + outcomes[2:]}) == 1


def test_a_copy_in_the_same_batch_says_what_its_bytes_say_once(tmp_path: Path) -> None:
    """Found by the fuzz suite: a copy's notes held its bytes' notes twice (its own read's, and
    its original's) when the two were read in one batch."""
    bad = len(CONTENTS) - 1  # UTF-8 with two undecodable bytes
    entries = _entries(tmp_path, [(bad, 0), (bad, 3)])
    with _repeats(0):
        alone = [file_records.fingerprint_batch([entry], ReadOptions())[0] for entry in entries]
        together = file_records.fingerprint_batch(entries, ReadOptions())
    assert alone[1][0].notes == ("file name is not valid UTF-8", "2 undecodable bytes replaced")
    assert [_comparable(o) for o in together] == [_comparable(o) for o in alone]


def test_a_failed_analysis_is_shared_in_its_batch_but_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def fragile(texts: list[str]) -> None:
        calls.append(len(texts))
        if any("茶" in text for text in texts):
            raise RuntimeError("segmenter crashed")

    _watch_analyses(monkeypatch, fragile)
    entries = _entries(tmp_path, [(0, 0), (0, 0), (0, 0)])
    with _repeats(16) as repeats:
        outcomes = file_records.fingerprint_batch(entries[:2], ReadOptions())
        outcomes += file_records.fingerprint_batch(entries[2:], ReadOptions())
        assert len(repeats) == 0
    error = "text could not be fingerprinted: RuntimeError: segmenter crashed"
    assert [record.error for record, _ in outcomes] == [error] * 3
    assert calls == [1, 1, 1, 1]  # each batch: its one text, then again alone when it failed


def test_repeats_forget_the_least_recently_used() -> None:
    settings = TextSettings()
    keys = [content_key(bytes([n]), cut=False, html_name=False, settings=settings) for n in b"abc"]
    repeats = Repeats(keep=2)
    known = [Known(FileRecord(f"{n}"), (), None) for n in range(3)]
    repeats.put(keys[0], known[0])
    repeats.put(keys[1], known[1])
    assert repeats.get(keys[0]) == known[0]  # used: now the most recent
    repeats.put(keys[2], known[2])
    assert (repeats.get(keys[0]), repeats.get(keys[1]), repeats.get(keys[2])) == (
        known[0],
        None,
        known[2],
    )


def test_what_shapes_an_outcome_is_in_its_key() -> None:
    data, settings = STORY.encode(), TextSettings()
    key = content_key(data, cut=False, html_name=False, settings=settings)
    assert key == content_key(bytes(data), cut=False, html_name=False, settings=TextSettings())
    others = [
        content_key(data + b" ", cut=False, html_name=False, settings=settings),
        content_key(data, cut=True, html_name=False, settings=settings),
        content_key(data, cut=False, html_name=True, settings=settings),
        content_key(data, cut=False, html_name=False, settings=TextSettings(stopwords=False)),
    ]
    assert all(other != key for other in others)
