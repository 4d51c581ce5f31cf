"""Template: what many files share counts for nothing; a group is copies of its reference."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine import kernels
from simdup_gui.engine.fingerprint.lines import (
    line_hashes,
    line_lengths,
    line_value,
    line_values,
    lines_of,
    without_lines,
)
from simdup_gui.engine.match.template import TEMPLATE_TEXTS, shared_lines, template_shares
from simdup_gui.engine.records import Pairs
from simdup_gui.engine.scan import scan
from simdup_gui.engine.text.normalize import normalize
from simdup_gui.engine.text.tokens import Batch

Family = Callable[[Path, random.Random], dict[str, str]]
Sentence = Callable[[random.Random, int], str]
PIECES = st.sampled_from(["the", "river", " ", "\t", "春运", "火车", "。", "\n", "\r\n", "\u2028"])
TEXTS = st.lists(st.lists(PIECES, max_size=30).map("".join), min_size=1, max_size=6)


def plain_lines(text: str) -> list[int]:
    """The definition: each line of the normalised text with a character, by its value."""
    return [line_value(line) for line in normalize(text).strip().splitlines() if line.split()]


# --- lines: the kernel, its numpy twin and the definition agree ------------------------------
@settings(max_examples=60)
@given(TEXTS)
def test_lines_are_their_definitions_in_both_forms(texts: list[str]) -> None:
    batch = Batch.normalized(texts)
    compiled = [line_values(kept).tolist() for kept in lines_of(batch)]
    with kernels.plain_kernels(True):
        plain = [line_values(kept).tolist() for kept in lines_of(batch)]
    assert compiled == plain == [plain_lines(text) for text in texts]


@settings(max_examples=60)
@given(TEXTS, st.data())
def test_a_text_without_lines_keeps_exactly_the_others(
    texts: list[str], data: st.DataObject
) -> None:
    batch = Batch.normalized(texts)
    every = sorted({v for kept in lines_of(batch) for v in line_values(kept).tolist()})
    dropped = data.draw(st.lists(st.sampled_from(every), unique=True) if every else st.just([]))
    gone = line_hashes(np.array(dropped, np.uint64))
    own = without_lines(batch, gone)
    for text, left in zip(texts, own, strict=True):
        wanted = [v for v in plain_lines(text) if v & ((1 << 48) - 1) not in set(gone.tolist())]
        assert plain_lines(left) == wanted


def test_a_line_keeps_its_length_and_a_long_text_its_ends() -> None:
    values = line_values(lines_of(Batch.normalized(["一二 三\n" + "x" * 70_000]))[0])
    assert line_lengths(values).tolist() == [3, 65_535]
    many = "\n".join(f"line {n}" for n in range(10_000))
    kept = line_values(lines_of(Batch.normalized([many]))[0])
    assert len(kept) == 4_096
    assert kept[0] == line_value("line 0")
    assert kept[-1] == line_value("line 9999")


# --- the template: a line in TEMPLATE_TEXTS different texts ------------------------------------
def _components(n: int, pairs: list[tuple[int, int]]) -> list[int]:
    label = list(range(n))

    def root(x: int) -> int:
        while label[x] != x:
            x = label[x]
        return x

    for a, b in pairs:
        label[root(a)] = root(b)
    return [root(x) for x in range(n)]


@settings(max_examples=80)
@given(
    st.lists(
        st.lists(st.sampled_from(["head", "foot", "a", "b", "c", "d"]), max_size=5), max_size=8
    ),
    st.data(),
)
def test_template_lines_are_those_in_enough_different_texts(
    texts: list[list[str]], data: st.DataObject
) -> None:
    n = len(texts)
    pairs = data.draw(
        st.lists(st.tuples(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0))))
        if n
        else st.just([])
    )
    pairs = [(min(a, b), max(a, b)) for a, b in pairs if a != b]
    lines = lines_of(Batch.normalized(["\n".join(t) for t in texts])) if n else []
    copies = Pairs(
        np.array([a for a, _ in pairs], np.int64),
        np.array([b for _, b in pairs], np.int64),
        np.zeros(len(pairs), np.uint8),
    )
    label = _components(n, pairs)
    holders: dict[int, set[int]] = {}
    for text, words in enumerate(texts):
        for word in words:
            holders.setdefault(line_value(word) & ((1 << 48) - 1), set()).add(label[text])
    wanted = sorted(h for h, held in holders.items() if len(held) >= TEMPLATE_TEXTS)
    template = shared_lines(lines, copies)
    assert template.tolist() == wanted
    shares = template_shares(lines, template)
    for text, words in enumerate(texts):
        total = sum(len(w) for w in words)
        inside = sum(len(w) for w in words if line_value(w) & ((1 << 48) - 1) in set(wanted))
        assert shares[text] == (inside / total if total else 0.0)


# --- whole scans --------------------------------------------------------------------------------
def groups_of(folder: Path) -> list[set[str]]:
    result = scan(str(folder))
    found = [{Path(result.files[m.file].path).stem for m in g.members} for g in result.groups]
    return sorted(found, key=sorted)


def test_a_stub_of_its_familys_header_and_footer_is_no_ones_reference(
    tmp_path: Path, write_family: Family
) -> None:
    """The kept-apart corpus's false group: a short page, mostly its family's header and footer,
    lies inside every page of the family; it made them all its copies (issue 39)."""
    write_family(tmp_path, random.Random(39))
    assert groups_of(tmp_path) == [
        {"page0", "page0-copy"},
        {"page1", "page1-copy"},
        {"stub", "stub-copy"},
    ]


def test_articles_quoting_one_passage_are_not_copies(tmp_path: Path, sentence: Sentence) -> None:
    """Different articles that each quote a passage (as a paragraph, or inside one of theirs)
    share it, and a short note that is mostly the passage lies inside them all: none is a copy
    of another."""
    rng = random.Random(40)
    passage = "".join(sentence(rng, 50) for _ in range(3))
    for n in range(6):
        own = [sentence(rng, rng.randint(40, 70)) for _ in range(rng.randint(4, 8))]
        if n % 2:
            own[1] = own[1] + passage  # inside a paragraph of its own
        else:
            own.insert(2, passage)  # a paragraph of its own
        (tmp_path / f"article{n}.txt").write_text("\n".join(own), encoding="utf-8")
    (tmp_path / "note.txt").write_text(f"{sentence(rng, 20)}{passage}", encoding="utf-8")
    copy = (tmp_path / "article0.txt").read_text(encoding="utf-8")
    (tmp_path / "article0-repost.txt").write_text("本文转自某网站\n" + copy, encoding="utf-8")
    assert groups_of(tmp_path) == [{"article0", "article0-repost"}]


def test_a_library_matches_no_stub_with_its_familys_pages(
    tmp_path: Path, write_family: Family
) -> None:
    """The archive check made the same mistake: a stub matched every page of its family, and
    every page the stub kept in the library."""
    from simdup_gui.engine.library.build import add_folders
    from simdup_gui.engine.library.check import ArticleChecker
    from simdup_gui.engine.library.store import Library
    from simdup_gui.engine.options import GroupOptions, ReadOptions, ScanOptions

    archive, new = tmp_path / "archive", tmp_path / "new"
    archive.mkdir()
    new.mkdir()
    write_family(archive, random.Random(41))
    for name in ("stub-copy", "page0-copy", "page2"):  # new: a stub's copy, a page's, a page
        (archive / f"{name}.txt").rename(new / f"{name}.txt")
    add_folders(str(tmp_path / "LIB"), [str(archive)], ScanOptions())
    library = Library.open(tmp_path / "LIB")
    targets = scan(str(new)).files
    group = GroupOptions()
    found = ArticleChecker(library, group.k, group.min_similarity, ReadOptions()).matches(targets)
    matched = {
        Path(target.path).stem: sorted(Path(library.name_of(m.entry)).stem for m in matches)
        for target, matches in zip(targets, found, strict=True)
    }
    assert matched == {"stub-copy": ["stub"], "page0-copy": ["page0"], "page2": []}
