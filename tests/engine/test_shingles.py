from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine.fingerprint.codes import PAD
from simdup_gui.engine.fingerprint.shingles import (
    containment,
    containment_many,
    jaccard,
    jaccard_many,
    shingle_hashes,
    sketch,
    sketch_matrix,
    sketches,
)

WORDS = st.lists(st.sampled_from(["春运", "铁路", "the", "lighthouse", "harbor", "茶园", "a", "b"]))


def exact_jaccard(a: str, b: str) -> float:
    sa, sb = set(shingle_hashes(a)), set(shingle_hashes(b))
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 2**64 - 2), max_size=12), max_size=8),
    st.integers(1, 8),
)
def test_sketch_matrix_is_its_rows_padded_or_cut(values: list[list[int]], size: int) -> None:
    raw = [np.array(row, dtype="<u8").tobytes() for row in values]
    rows = sketch_matrix(raw, size)
    assert rows.shape == (len(values), size)
    assert rows.dtype == np.uint64
    for row, wanted in zip(rows.tolist(), values, strict=True):
        assert row == wanted[:size] + [int(PAD)] * (size - len(wanted[:size]))
    rows[:] = 0  # a fresh array, never a view of the bytes
    full = [row[:size] for row in values if len(row) >= size]  # every row full: one reshape
    assert sketch_matrix([np.array(r, dtype="<u8").tobytes() for r in full], size).tolist() == (
        full if full else []
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(WORDS.map(" ".join), min_size=2, max_size=8))
def test_vectorised_jaccard_equals_pairwise(texts: list[str]) -> None:
    sketches = [sketch(t) for t in texts]
    rows = sketch_matrix([s.astype("<u8").tobytes() for s in sketches])
    pairs = list(itertools.combinations(range(len(texts)), 2))
    many = jaccard_many(rows, [p[0] for p in pairs], [p[1] for p in pairs])
    one = [jaccard(sketches[a], sketches[b]) for a, b in pairs]
    assert many.tolist() == one
    # the same both ways: grouping reads a node's similarity to its reference from its vote
    assert jaccard_many(rows, [p[1] for p in pairs], [p[0] for p in pairs]).tolist() == one


@settings(max_examples=40, deadline=None)
@given(WORDS.map(" ".join), WORDS.map(" ".join))
def test_small_texts_get_the_exact_jaccard(a: str, b: str) -> None:
    # texts with fewer than 128 shingles keep all of them: the estimate is exact
    assert abs(jaccard(sketch(a), sketch(b)) - exact_jaccard(a, b)) < 1e-12


def test_estimate_is_close_for_long_texts() -> None:
    rng = np.random.default_rng(5)
    words = [f"word{rng.integers(0, 5000)}" for _ in range(3000)]
    a = " ".join(words)
    b = " ".join(words[:2000] + [f"other{n}" for n in range(1000)])
    assert abs(jaccard(sketch(a), sketch(b)) - exact_jaccard(a, b)) < 0.12


def test_whitespace_does_not_matter_but_words_do() -> None:
    assert jaccard(sketch("the  harbor\\n lighthouse"), sketch("the harbor lighthouse")) < 1.0
    assert jaccard(sketch("the  harbor\n lighthouse"), sketch("the harbor lighthouse")) == 1.0


def smallest_distinct(text: str, size: int) -> list[int]:
    """The definition of a sketch: the ``size`` smallest distinct shingle hashes."""
    return sorted(set(shingle_hashes(text)))[:size] if text.strip() else []


SPACED = st.lists(
    st.one_of(st.sampled_from([" ", "\n", "\u3000", "ab", "北京", "x"]), st.text(max_size=5)),
    max_size=40,
).map("".join)


@given(st.lists(SPACED, max_size=6), st.sampled_from([1, 2, 3, 128]))
def test_a_batch_of_sketches_keeps_each_texts_smallest_hashes(texts: list[str], size: int) -> None:
    for text, got in zip(texts, sketches(texts, size), strict=True):
        assert got.tolist() == smallest_distinct(text, size)


def test_long_and_repetitive_texts_get_their_smallest_hashes() -> None:
    rng = np.random.default_rng(0)
    words = [f"w{n}" for n in range(500)]
    texts = [" ".join(rng.choice(words, 3000)), "ab " * 5000, "x" * 20000, "", "one two"]
    for text, got in zip(texts, sketches(texts), strict=True):
        assert got.tolist() == smallest_distinct(text, 128)


LETTERS = ["春运", "铁路", "the ", "harbor ", "茶", "a", "b", "c", "d", "e", " "]


def exact_containment(a: str, b: str) -> float:
    sa, sb = set(shingle_hashes(a)), set(shingle_hashes(b))
    return len(sa & sb) / len(sa) if sa else 0.0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(LETTERS), max_size=400).map("".join), min_size=2, max_size=6)
)
def test_vectorised_containment_equals_pairwise(texts: list[str]) -> None:
    """The compiled merge equals the definition (short sketches and full ones)."""
    texts = [" ".join(t.split()) for t in texts]
    found = [sketch(t) for t in texts]
    rows = sketch_matrix([s.astype("<u8").tobytes() for s in found])
    pairs = list(itertools.permutations(range(len(texts)), 2))
    shares, samples = containment_many(rows, [p[0] for p in pairs], [p[1] for p in pairs])
    one = [containment(found[a], found[b]) for a, b in pairs]
    assert list(zip(shares.tolist(), samples.tolist(), strict=True)) == one


def test_a_cut_text_is_estimated_inside_its_whole() -> None:
    rng = np.random.default_rng(5)
    words = ["".join(rng.choice(list("abcdefghij"), 6)) for _ in range(3000)]
    whole, cut = " ".join(words), " ".join(words[:1000])
    share, samples = containment(sketch(cut), sketch(whole))
    assert share == 1.0  # every sampled shingle of the cut text is in the whole
    assert samples >= 24
    assert exact_jaccard(cut, whole) < 0.4
    other = " ".join(words[1500:2500])
    assert containment(sketch(other), sketch(cut))[0] < 0.1
    assert abs(containment(sketch(whole), sketch(cut))[0] - exact_containment(whole, cut)) < 0.1
