"""Pairs just above the similarity floor are checked on their whole texts, not sketch noise."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine.fingerprint import file_records as files_module
from simdup_gui.engine.fingerprint.file_records import TextShingles
from simdup_gui.engine.fingerprint.shingles import (
    exact_jaccard,
    jaccard,
    shingle_hashes,
    shingle_set,
    sketch,
)
from simdup_gui.engine.match.exact import EXACT_PAIRS, NEAR_FLOOR, NodeTexts, near_floor_checked
from simdup_gui.engine.match.matching import group_files
from simdup_gui.engine.options import GroupOptions
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.scan import scan
from simdup_gui.engine.text.normalize import normalize

FLOOR = GroupOptions().min_similarity
WORDS = [f"{a}{b}{c}" for a in "bcdfgklmnp" for b in "aeiou" for c in "rstvz"]


@settings(deadline=None)
@given(st.text(st.sampled_from("ab cd。中文字Ｆ\n\t-"), max_size=60))
def test_a_shingle_set_is_every_shingle_hash_and_its_sketch_comes_first(text: str) -> None:
    whole = shingle_set(text)
    normal = normalize(text).strip()
    assert whole.tolist() == sorted(set(shingle_hashes(normal)))
    assert whole[: len(sketch(normal))].tolist() == sketch(normal).tolist()


@given(st.sets(st.integers(0, 50)), st.sets(st.integers(0, 50)))
def test_exact_jaccard_is_the_share_of_the_union_both_hold(a: set[int], b: set[int]) -> None:
    x, y = (np.array(sorted(s), np.uint64) for s in (a, b))
    wanted = len(a & b) / len(a | b) if a or b else 1.0
    assert exact_jaccard(x, y) == pytest.approx(wanted)


@given(
    st.lists(st.floats(0, 1), min_size=1, max_size=20),
    st.floats(0, 0.9),
    st.lists(st.none() | st.floats(0, 1), min_size=20, max_size=20),
)
def test_only_estimates_just_above_the_floor_take_the_exact_value(
    shares: list[float], floor: float, exact_values: list[float | None]
) -> None:
    asked = []

    def exact(a: int, b: int) -> float | None:
        asked.append(a)
        return exact_values[a]

    at = np.arange(len(shares))
    checked = near_floor_checked(np.array(shares), at, at, floor, exact)
    near = [floor > 0 and floor <= share <= floor + NEAR_FLOOR for share in shares]
    for n, share in enumerate(shares):
        wanted = exact_values[n] if near[n] and exact_values[n] is not None else share
        assert checked[n] == wanted
    assert asked == [n for n in range(len(shares)) if near[n]]
    assert near_floor_checked(np.array(shares), at, at, floor, None).tolist() == shares


def pair_across_the_floor(estimate_above: bool) -> tuple[str, str, float]:
    """Two texts (one opening) whose sketch estimate and exact similarity fall either side of
    the floor, the estimate above it when ``estimate_above``; and their exact similarity."""
    rng = np.random.default_rng(7 if estimate_above else 8)
    for _ in range(5000):
        shared = " ".join(rng.choice(WORDS, 120))
        a = shared + " " + " ".join(rng.choice(WORDS, int(rng.integers(100, 140))))
        b = shared + " " + " ".join(rng.choice(WORDS, int(rng.integers(100, 140))))
        estimate = jaccard(sketch(normalize(a)), sketch(normalize(b)))
        exact = exact_jaccard(shingle_set(a), shingle_set(b))
        if (estimate >= FLOOR > exact) if estimate_above else (exact >= FLOOR > estimate):
            return a, b, exact
    raise AssertionError("no such pair")


def _scanned(tmp_path: Path, a: str, b: str) -> ScanResult:
    (tmp_path / "a.txt").write_text(a, encoding="utf-8")
    (tmp_path / "b.txt").write_text(b, encoding="utf-8")
    return scan(str(tmp_path))


def test_a_pair_the_sketches_put_just_above_the_floor_must_be_as_alike_as_a_whole(
    tmp_path: Path,
) -> None:
    a, b, exact = pair_across_the_floor(estimate_above=True)
    result = _scanned(tmp_path, a, b)
    assert len(group_files(result.files, result.options.group)[1]) == 1  # the estimate's
    assert result.groups == ()  # the whole texts': not a copy
    assert result.regroup(result.options.group).groups == ()
    loose = result.regroup(replace(result.options.group, min_similarity=exact - 0.01))
    assert len(loose.groups) == 1  # as alike as a whole as this floor asks


def test_a_pair_has_one_figure_whatever_the_floor_that_decides_it(tmp_path: Path) -> None:
    """Just above a floor a pair is decided on its whole texts; it is shown with its estimate
    there as at any other floor (the same pair read 53.4 % at one setting, 47.7 % at another)."""
    a, b, exact = pair_across_the_floor(estimate_above=False)
    result = _scanned(tmp_path, a, b)
    estimate = result.likeness(0, 1)
    assert estimate < FLOOR <= exact
    figures = set()
    for floor in (estimate - 0.01, estimate - 0.05, estimate - NEAR_FLOOR - 0.05):
        grouped = result.regroup(replace(result.options.group, min_similarity=floor))
        assert len(grouped.groups) == 1, floor
        group = grouped.groups[0]
        figures |= {round(m.similarity, 12) for m in group.members}
        moved = grouped.with_reference(group, group.members[1].file)
        figures |= {round(m.similarity, 12) for m in moved.members}
    assert figures == {1.0, round(estimate, 12)}


def test_a_pair_the_sketches_put_just_below_the_floor_stays_apart(tmp_path: Path) -> None:
    a, b, exact = pair_across_the_floor(estimate_above=False)
    result = _scanned(tmp_path, a, b)
    assert exact >= FLOOR
    assert result.groups == ()
    assert result.likeness(0, 1) < FLOOR  # the estimate: never asked to be exact


def test_a_text_changed_since_the_scan_is_not_read_as_the_scans(tmp_path: Path) -> None:
    a, b, _ = pair_across_the_floor(estimate_above=True)
    result = _scanned(tmp_path, a, b)
    shingles = TextShingles(result.files, result.options.read, keep=2)
    assert shingles(0) is not None
    assert shingles(0).tolist() == shingle_set(a).tolist()
    (tmp_path / "b.txt").write_text(a, encoding="utf-8")  # changed: its sketch no longer fits
    os.remove(tmp_path / "a.txt")
    fresh = TextShingles(result.files, result.options.read, keep=1)
    assert fresh(0) is None  # gone
    assert fresh(1) is None  # changed
    assert shingles(0) is not None  # read before: kept
    assert shingles(1) is None
    assert shingles(0) is not None
    forgetful = TextShingles(result.files, result.options.read, keep=1)
    (tmp_path / "a.txt").write_text(a, encoding="utf-8")
    assert forgetful(0) is not None
    assert forgetful(1) is None
    os.remove(tmp_path / "a.txt")
    assert forgetful(0) is None  # ... and one: read again
    assert len(result.regroup(result.options.group).groups) == 1  # then the estimate decides


def test_a_table_row_has_no_file_to_read(tmp_path: Path) -> None:
    a, _, _ = pair_across_the_floor(estimate_above=True)
    (tmp_path / "a.txt").write_text(a, encoding="utf-8")
    result = scan(str(tmp_path))
    row = result.files[0]._replace(path="row 17")
    assert TextShingles((row,), result.options.read)(0) is None


def test_a_grouping_checks_at_most_exact_pairs_pairs_on_their_texts() -> None:
    """Beyond EXACT_PAIRS pairs the estimate decides: a folder of one site's pages can put
    every pair near the floor, and reading files again for each would take minutes."""
    read: list[int] = []

    def shingles(file: int) -> np.ndarray:
        read.append(file)
        return np.array([file, 10**6], np.uint64)  # any two files: 1/3 alike

    exact = NodeTexts(shingles, list(range(3 * EXACT_PAIRS)))  # type: ignore[arg-type]
    assert exact(0, 1) == pytest.approx(1 / 3)
    assert exact(1, 0) == pytest.approx(1 / 3)  # asked again: not read again
    assert read == [0, 1]
    for n in range(1, EXACT_PAIRS):
        assert exact(n, n + 1) is not None
    assert exact(EXACT_PAIRS + 5, EXACT_PAIRS + 6) is None  # one pair over: the estimate's
    assert exact(0, 1) == pytest.approx(1 / 3)  # those known stay known
    assert len(read) == 2 * EXACT_PAIRS


def test_a_long_text_keeps_its_estimate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over EXACT_CHARS characters a text is not read again: its whole shingle set would take
    about 100 bytes a character to build."""
    a, b, _ = pair_across_the_floor(estimate_above=True)
    result = _scanned(tmp_path, a, b)
    assert TextShingles(result.files, result.options.read)(0) is not None
    monkeypatch.setattr(files_module, "EXACT_CHARS", result.files[0].chars - 1)
    opened: list[str] = []
    monkeypatch.setattr(files_module, "read_text", lambda path, options: opened.append(path))
    assert TextShingles(result.files, result.options.read)(0) is None
    assert opened == []
    assert len(result.regroup(result.options.group).groups) == 1  # the estimate decides
