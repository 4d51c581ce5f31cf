"""From records to verified pairs and groups: the candidates' sources and the similarity floor."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdup_gui.engine.fingerprint import shingles
from simdup_gui.engine.fingerprint.shingles import (
    BANDS,
    FULL_RUN,
    banded_pairs,
    sketch_matrix,
    sketches,
)
from simdup_gui.engine.match.default_measure import BANDS_K
from simdup_gui.engine.match.matching import group_files, named_copies
from simdup_gui.engine.options import GroupOptions
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan

SAMPLE = Path(resource("sample"))


def prose(words: int, seed: int) -> str:
    """Random words of random letters: unrelated texts share almost no shingles."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    return " ".join("".join(rng.choice(letters, rng.integers(2, 9))) for _ in range(words))


def record(name: str, text: str, fingerprint: int, lead: int) -> FileRecord:
    sketch = sketches([text])[0].tobytes()
    size = len(text)
    return FileRecord(name, size, fingerprint=fingerprint, chars=size, sketch=sketch, lead=lead)


def grouped(files: tuple[FileRecord, ...], k: int, floor: float = 0.4) -> list[list[str]]:
    _, groups = group_files(files, GroupOptions(k=k, min_similarity=floor))
    return sorted(sorted(files[m.file].path for m in g.members) for g in groups)


def test_a_copy_whose_fingerprint_moved_far_is_found_by_its_shingles() -> None:
    article = prose(600, seed=1)
    noticed = article + " " + prose(150, seed=2)
    files = (
        record("article", article, fingerprint=0, lead=0),
        record("with-a-long-notice", noticed, fingerprint=2**40 - 1, lead=2**64 - 1),
        record("another", prose(600, seed=3), fingerprint=1, lead=1),  # near fingerprint only
    )
    assert grouped(files, BANDS_K) == [["article", "with-a-long-notice"]]
    assert grouped(files, BANDS_K - 1) == []  # below "loose", fingerprints (or openings) only
    assert grouped(files, BANDS_K, floor=0.0) == [["another", "article"]]  # no floor: k alone


def test_exact_copies_are_one_group_at_any_k() -> None:
    article = prose(300, seed=4)
    files = tuple(record(f"copy{n}", article, fingerprint=7, lead=7) for n in range(4))
    assert grouped(files, 0) == [["copy0", "copy1", "copy2", "copy3"]]
    _, (group,) = group_files(files, GroupOptions(k=0, min_similarity=0.4))
    assert all(member.similarity == 1.0 for member in group.members)


@given(st.lists(st.integers(0, 5), min_size=2, max_size=30))
def test_banded_pairs_are_pairs_once_and_keep_every_identical_sketch(choice: list[int]) -> None:
    texts = [prose(80, seed) for seed in range(6)]
    rows = sketch_matrix([s.tobytes() for s in sketches([texts[c] for c in choice])])
    i, j = banded_pairs(rows)
    found = set(zip(i.tolist(), j.tolist(), strict=True))
    assert len(found) == len(i)
    assert all(a < b for a, b in found)
    same = {(a, b) for a in range(len(choice)) for b in range(a + 1, len(choice))}
    assert {(a, b) for a, b in same if choice[a] == choice[b]} <= found


def banded_pairs_by_definition(keys: np.ndarray, valid: np.ndarray) -> set[tuple[int, int]]:
    """Rows of one valid key on a band: all pairs up to FULL_RUN rows, else each with the first."""
    found = set()
    for band in range(keys.shape[1]):
        runs: dict[int, list[int]] = {}
        for row in np.flatnonzero(valid[:, band]).tolist():
            runs.setdefault(int(keys[row, band]), []).append(row)
        for rows in runs.values():
            if len(rows) > FULL_RUN:
                found.update((rows[0], row) for row in rows[1:])
            else:
                found.update((a, b) for n, a in enumerate(rows) for b in rows[n + 1 :])
    return found


@given(st.data(), st.integers(2, 90), st.integers(1, 6))
def test_banded_pairs_are_those_of_the_definition(
    data: st.DataObject, count: int, spread: int
) -> None:
    """Keys from a few values (long runs, rows agreeing on some bands and not others)."""
    keys = np.array(
        data.draw(
            st.lists(
                st.lists(st.integers(0, spread), min_size=BANDS, max_size=BANDS),
                min_size=count,
                max_size=count,
            )
        ),
        dtype=np.uint64,
    )
    valid = keys != 0  # a band with an empty bin has no key
    assert banded(keys, valid) == sorted(banded_pairs_by_definition(keys, valid))


def banded(keys: np.ndarray, valid: np.ndarray) -> list[tuple[int, int]]:
    """:func:`banded_pairs` of rows whose band keys are ``keys`` (valid where ``valid``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shingles, "band_keys", lambda rows: (keys, valid))
        i, j = banded_pairs(np.zeros((len(keys), 1), np.uint64))
    return list(zip(i.tolist(), j.tolist(), strict=True))


def test_rows_of_a_long_run_still_give_every_pair_of_a_short_one_later() -> None:
    keys = np.zeros((FULL_RUN + 8, BANDS), np.uint64)
    keys[:, 0] = 7  # one run longer than FULL_RUN: each row paired with the first only
    keys[:5, 1] = 9  # five of them agree on the next band too: all ten of their pairs
    valid = keys != 0
    found = banded(keys, valid)
    assert {(a, b) for a in range(5) for b in range(a + 1, 5)} <= set(found)
    assert found == sorted(banded_pairs_by_definition(keys, valid))


def test_many_copies_agreeing_on_a_band_are_each_paired_with_the_first() -> None:
    count = FULL_RUN + 8
    rows = sketch_matrix([s.tobytes() for s in sketches([prose(400, seed=5)] * count)])
    i, j = banded_pairs(rows)
    assert i.tolist() == [0] * (count - 1)
    assert j.tolist() == list(range(1, count))
    # the same text with fingerprints and openings far apart: grouped through the first
    article = prose(400, seed=5)
    files = tuple(
        record(f"copy{n}", article, fingerprint=(2**64 - 1) * (n % 2), lead=(2**64 - 1) * (n % 2))
        for n in range(count)
    )
    _, groups = group_files(files, GroupOptions(k=BANDS_K, min_similarity=0.4))
    assert [len(g) for g in groups] == [count]


def test_a_cancelled_grouping_keeps_exact_copies_and_looks_no_further() -> None:
    article = prose(400, seed=6)
    files = (
        record("a", article, fingerprint=0, lead=0),
        record("a-copy", article, fingerprint=0, lead=0),
        record("a-near", article + " more words", fingerprint=1, lead=0),
    )
    assert grouped(files, BANDS_K) == [["a", "a-copy", "a-near"]]
    _, groups = group_files(files, GroupOptions(k=BANDS_K, min_similarity=0.4), cancel=lambda: True)
    assert [sorted(files[m.file].path for m in g.members) for g in groups] == [["a", "a-copy"]]


def test_a_cut_or_wrapped_copy_is_grouped_as_held_by_the_other() -> None:
    article = prose(900, seed=4)
    cut = " ".join(article.split()[:300])  # a third of it: Jaccard about 1/3, under the floor
    wrapped = prose(700, seed=5) + " " + article + " " + prose(700, seed=6)  # in a portal's page
    files = (
        record("article", article, fingerprint=0, lead=0),
        record("cut", cut, fingerprint=2**40 - 1, lead=0),
        record("wrapped", wrapped, fingerprint=2**50 - 1, lead=7),
        record("stub", " ".join(article.split()[:12]), fingerprint=3, lead=0),  # a line: no
        record("other", prose(900, seed=7), fingerprint=1, lead=0),
    )
    _, groups = group_files(files, GroupOptions(k=BANDS_K, min_similarity=0.4))
    assert [sorted(files[m.file].path for m in g.members) for g in groups] == [
        ["article", "cut", "wrapped"]
    ]
    members = {files[m.file].path: m for m in groups[0].members}
    assert members["cut"].contained
    assert members["wrapped"].contained
    assert members["cut"].similarity < 0.4
    assert not any(m.contained for m in groups[0].members if m.similarity >= 0.4)
    assert grouped(files, BANDS_K - 1) == []  # below "loose" the fingerprints decide


def test_the_report_says_which_text_holds_which() -> None:
    from simdup_gui.engine.output.report import held_note

    short, long = record("cut", "a b", 0, 0), record("whole", "a b c d", 0, 0)
    assert held_note(short, long) == "contained in the reference"
    assert held_note(long, short) == "contains the reference"


@pytest.mark.parametrize("name", ["春运返乡.txt", "社区图书馆.txt", "茶园春茶.txt"])
def test_a_short_article_cut_to_a_third_is_found_held_by_its_original(
    tmp_path: Path, name: str
) -> None:
    """A cut copy keeps its original's opening (LEAD_CHARS): a candidate, then held by it."""
    text = (SAMPLE / "zh" / name).read_text(encoding="utf-8")
    (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / f"cut-{name}").write_text(text[: len(text) // 3], encoding="utf-8")
    result = scan(str(tmp_path))
    (group,) = result.groups
    assert sorted(Path(result.files[m.file].path).name for m in group.members) == sorted(
        [name, f"cut-{name}"]
    )
    assert group.members[1].contained


def named_copies_by_definition(paths: list[str]) -> set[str]:
    """A path whose name, cut before a separator (one character in at least), names a sibling."""
    stems = {os.path.splitext(path)[0] for path in paths}
    return {
        path
        for path in paths
        for stem in [os.path.splitext(path)[0]]
        if any(
            stem[at] in " -_.(（[【~" and stem[:at].rstrip(" -_.~") in stems
            for at in range(len(os.path.dirname(stem)) + 2, len(stem))
        )
    }


NAME_PIECES = st.sampled_from(["report", "春运", " (1)", " - Copy", "-转载", "_v2", ".", "~", "a"])


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "/", "/a/", "/a-b/", "a//", "/x_y/z/"]),
            st.lists(NAME_PIECES, min_size=1, max_size=3).map("".join),
            st.sampled_from([".txt", ".md", ""]),
        ).map("".join),
        max_size=12,
    )
)
def test_named_copies_are_those_of_the_definition(paths: list[str]) -> None:
    assert named_copies(paths) == named_copies_by_definition(paths)


def test_a_name_with_something_added_is_a_named_copy() -> None:
    paths = [
        "/n/report.txt",
        "/n/report (1).txt",
        "/n/春运-转载.md",
        "/n/春运.md",
        "/m/report-2.txt",
    ]
    assert named_copies(paths) == {"/n/report (1).txt", "/n/春运-转载.md"}
