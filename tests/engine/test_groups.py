from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdup_gui.engine.fingerprint.shingles import sketches
from simdup_gui.engine.match.default_measure import RUN_WINDOW
from simdup_gui.engine.match.groups import components
from simdup_gui.engine.match.matching import group_files
from simdup_gui.engine.options import GroupOptions
from simdup_gui.engine.records import FileRecord, Pairs
from simdup_gui.engine.text.telltales import converted_chars, notice_chars


def reference_components(n: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    """Components by breadth-first search, smallest node first."""
    neighbours: dict[int, set[int]] = {}
    for a, b in edges:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    seen: set[int] = set()
    found = []
    for start in sorted(neighbours):
        if start in seen:
            continue
        part, queue = {start}, [start]
        while queue:
            for other in neighbours[queue.pop()]:
                if other not in part:
                    part.add(other)
                    queue.append(other)
        seen |= part
        found.append(sorted(part))
    return found


@given(
    st.integers(1, 40).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=60),
        )
    )
)
def test_components_equal_a_breadth_first_search(case: tuple[int, list[tuple[int, int]]]) -> None:
    n, edges = case
    edges = [(a, b) for a, b in edges if a != b]
    pairs = Pairs(
        np.array([a for a, _ in edges], dtype=np.int64),
        np.array([b for _, b in edges], dtype=np.int64),
        np.zeros(len(edges), dtype=np.uint8),
    )
    assert components(n, pairs) == reference_components(n, edges)


def test_a_long_chain_is_one_component() -> None:
    n = 1000
    order = np.random.default_rng(1).permutation(n)
    pairs = Pairs(order[:-1], order[1:], np.zeros(n - 1, dtype=np.uint8))
    assert components(n, pairs) == [list(range(n))]


def near_records(
    fingerprints: list[int], text: str = "one article " * 40
) -> tuple[FileRecord, ...]:
    sketch = sketches([text])[0].tobytes()
    return tuple(
        FileRecord(f"f{n:03}", 100, fingerprint=fp, chars=len(text), sketch=sketch, lead=fp)
        for n, fp in enumerate(fingerprints)
    )


@given(
    st.lists(st.integers(0, 20), min_size=2, max_size=40),
    st.integers(0, 8),
    st.integers(0, 2**64 - 1),
)
def test_every_member_meets_the_thresholds_against_its_reference(
    flips: list[int], k: int, base: int
) -> None:
    """Fingerprints along a path of single-bit flips chain; groups never do."""

    fps, fp = [], base
    for bit in flips:
        fp ^= 1 << (bit * 3 % 64)
        fps.append(fp)
    files = near_records(fps)
    _, groups = group_files(files, GroupOptions(k=k, min_similarity=0.0))
    seen: set[int] = set()
    for group in groups:
        ref = files[group.reference].fingerprint
        for member in group.members:
            assert member.distance == (files[member.file].fingerprint ^ ref).bit_count()
            assert member.distance <= k
            assert member.file not in seen
            seen.add(member.file)
    # whatever is left alone has nobody within k among the other files left alone
    alone = [n for n in range(len(files)) if n not in seen]
    for a in alone:
        for b in alone:
            if a < b:
                assert (files[a].fingerprint ^ files[b].fingerprint).bit_count() > k


def test_a_chain_of_three_does_not_join_its_ends() -> None:

    files = near_records([0, 0b111, 0b111111])  # a~b and b~c within 3 bits, a and c 6 apart
    _, groups = group_files(files, GroupOptions(k=3, min_similarity=0.0))
    assert len(groups) == 1
    members = {files[m.file].path for m in groups[0].members}
    assert members != {"f000", "f001", "f002"}
    assert all(m.distance <= 3 for m in groups[0].members)


def test_identical_means_the_same_fingerprint() -> None:

    files = near_records([5, 5, 5 ^ 0b1111111])  # the same text; one fingerprint 7 bits off
    _, groups = group_files(files, GroupOptions(k=0, min_similarity=0.4))
    assert [sorted(files[m.file].path for m in g.members) for g in groups] == [["f000", "f001"]]
    _, loose = group_files(files, GroupOptions(k=8, min_similarity=0.4))
    assert [len(g) for g in loose] == [3]


def _text_record(name: str, text: str, fingerprint: int) -> FileRecord:
    """A record with the measures the scan takes of ``text``."""
    return FileRecord(
        name,
        len(text.encode()),
        fingerprint=fingerprint,
        chars=len("".join(text.split())),
        sketch=sketches([text])[0].tobytes(),
        lead=fingerprint,
        converted_chars=converted_chars(text),
        notice_chars=notice_chars(text),
    )


def _paragraphs(seed: int, count: int = 40) -> list[str]:
    rng = np.random.default_rng(seed)
    words = ["".join(rng.choice(list("abcdefghij"), 6)) for _ in range(count * 10)]
    return [" ".join(words[n : n + 10]) + "." for n in range(0, len(words), 10)]


def test_the_reference_is_the_text_the_others_share_most_with() -> None:
    """An original and three copies, each edited its own way: the original is kept."""

    lines = _paragraphs(7)
    original = "\n".join(lines)
    copies = {
        "original": original,
        "with-header": "Read more at our portal: www.example.com\n" + original,
        "cut": "\n".join(lines[:30]),
        "with-footer": original + "\nCopyright 2026 the mirror. All rights reserved.",
    }
    files = tuple(
        _text_record(name, text, n) for n, (name, text) in enumerate(sorted(copies.items()))
    )
    _, (group,) = group_files(files, GroupOptions(k=8, min_similarity=0.4))
    assert files[group.reference].path == "original"
    assert len(group) == 4


@pytest.mark.parametrize(
    "edit",
    [
        lambda text: text.replace(".", "\uff0c", 5),  # full-width commas in English
        lambda text: text.replace("a", "\uff41", 9),  # full-width letters in words
        lambda text: "\n".join(text.splitlines()[:35]),  # the end cut off
    ],
)
def test_of_two_the_original_is_kept_over_a_converted_or_cut_copy(
    edit: Callable[[str], str],
) -> None:
    original = "\n".join(_paragraphs(11))
    copy = edit(original)
    for names in (("a", "b"), ("b", "a")):  # whatever the names
        files = (_text_record(names[0], original, 1), _text_record(names[1], copy, 2))
        _, (group,) = group_files(files, GroupOptions(k=8, min_similarity=0.4))
        assert group.reference == 0


def test_a_chinese_copy_with_traditional_or_ascii_punctuation_is_not_kept() -> None:
    original = (
        "铁路部门今天表示，春运期间将增开列车。旅客可以通过网络购票，也可以到车站窗口购买。" * 6
    )
    for copy in (original.replace("铁路", "鐵路"), original.replace("，", ",")):
        for names in (("a", "b"), ("b", "a")):
            files = (_text_record(names[0], original, 1), _text_record(names[1], copy, 2))
            _, (group,) = group_files(files, GroupOptions(k=8, min_similarity=0.4))
            assert group.reference == 0, copy[:20]


def test_a_page_in_a_site_template_is_not_kept_over_the_plain_text() -> None:

    plain, page = near_records([9, 9])
    page = page._replace(boilerplate=0.3, path="a-portal-page.html")
    _, (group,) = group_files((page, plain), GroupOptions(k=0, min_similarity=0.4))
    assert group.reference == 1


def test_thousands_of_near_copies_are_one_group() -> None:

    rng = np.random.default_rng(3)
    base = int(rng.integers(0, 2**63))
    bits = rng.integers(0, 64, size=(3000, 2))
    fps = [base ^ (1 << int(a)) ^ (1 << int(b)) for a, b in bits]
    files = near_records(fps)
    pairs, groups = group_files(files, GroupOptions(k=8, min_similarity=0.4))
    assert [len(g) for g in groups] == [3000]
    assert len(pairs) <= 3000 * RUN_WINDOW  # linear in the copies, not all 4.5 million pairs


@given(st.data())
def test_a_pair_said_apart_never_shares_a_group(data: st.DataObject) -> None:
    fps = data.draw(st.lists(st.integers(0, 15), min_size=2, max_size=12))
    files = near_records(fps)
    paths = [f.path for f in files]
    apart = data.draw(
        st.sets(st.tuples(st.sampled_from(paths), st.sampled_from(paths)), max_size=6)
    )
    keys = frozenset((a, b) if a <= b else (b, a) for a, b in apart if a != b)
    _, groups = group_files(files, GroupOptions(k=8, min_similarity=0.0, not_duplicates=keys))
    fingerprint = {f.path: f.fingerprint for f in files}
    for group in groups:
        reference = fingerprint[files[group.reference].path]
        for member in group.members:  # measured against the reference the group shows
            assert member.distance == (fingerprint[files[member.file].path] ^ reference).bit_count()
        members = sorted(files[m.file].path for m in group.members)
        for n, a in enumerate(members):
            for b in members[n + 1 :]:
                if fingerprint[a] != fingerprint[b]:  # exact copies always group
                    assert (a, b) not in keys  # a member and its reference, or two members


def test_a_reference_stays_when_a_member_is_said_apart_from_it() -> None:
    """Of a reference and a member said apart, the member leaves: even when both are equally
    alike (one sketch) and the reference (the most text) comes after it."""
    files = tuple(
        record._replace(chars=chars)
        for record, chars in zip(near_records([0, 1, 3]), [400, 480, 400], strict=True)
    )
    _, groups = group_files(
        files, GroupOptions(k=8, min_similarity=0.0, not_duplicates=frozenset([("f000", "f001")]))
    )
    assert [[(files[m.file].path, m.distance) for m in g.members] for g in groups] == [
        [("f001", 0), ("f002", 1)]
    ]
