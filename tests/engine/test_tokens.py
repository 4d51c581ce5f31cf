from __future__ import annotations

import re
from collections import Counter

import numpy as np
import rjieba
from hypothesis import example, given
from hypothesis import strategies as st

from simdup_gui.engine.fingerprint.pipeline import analyze, analyze_many
from simdup_gui.engine.fingerprint.simhash import tf_fingerprint
from simdup_gui.engine.options import TextSettings
from simdup_gui.engine.text import token_kernels as kernels
from simdup_gui.engine.text.tokens import (
    Batch,
    char_spans,
    count_hashes,
    count_per_text,
    jieba_cuts,
    line_cuts,
    span_hashes,
    spans,
    text_of,
    token_hash,
    word_spans,
)

WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]")
TEXTS = st.lists(
    st.one_of(
        st.sampled_from(["don't", "rock'n'roll", "'x'", "新闻", "北京大学", " ", "\n", "é", "🙂"]),
        st.text(max_size=6),
    ),
    max_size=15,
).map("".join)


def substrings(text: str, starts: list[int], ends: list[int]) -> list[str]:
    return [text[s:e] for s, e in zip(starts, ends, strict=True)]


@given(TEXTS)
@example("a'b'c d_e 1½ x\U0001d7d8y")
def test_word_spans_are_the_words_a_regex_finds(text: str) -> None:
    starts, ends = word_spans(Batch.of([text]))
    assert substrings(text, starts.tolist(), ends.tolist()) == WORD.findall(text)


@given(TEXTS)
def test_each_span_hashes_like_its_string(text: str) -> None:
    batch = Batch.of([text])
    codes = batch.codes
    starts, ends = word_spans(batch)
    words = substrings(text, starts.tolist(), ends.tolist())
    assert span_hashes(codes, starts, ends).tolist() == [token_hash(w) for w in words]


def words_of(text: str) -> list[str]:
    """rjieba's words in whitespace-separated chunks with an ideograph, else letter runs."""
    words = []
    for chunk in re.findall(r"\S+", text):
        if CJK.search(chunk):
            words += [t for t in rjieba.cut(chunk) if re.search(r"[^\W_]", t)]
        else:
            words += WORD.findall(chunk)
    return words


@given(TEXTS)
@example("don't 中文abc's 3.14 北京大学\n新闻 x'y")
def test_chinese_chunks_are_rjiebas_words_and_the_rest_letter_runs(text: str) -> None:
    text = "中文" + text
    starts, ends = spans("words", Batch.of([text]))
    assert substrings(text, starts.tolist(), ends.tolist()) == words_of(text)


@given(st.lists(TEXTS.map(str.strip), min_size=2, max_size=5))
def test_no_word_runs_from_one_text_into_the_next(texts: list[str]) -> None:
    batch = Batch.of(texts)
    starts, ends = spans("words", batch)
    pairs = zip(starts.tolist(), ends.tolist(), strict=True)
    got = [batch.codes[s:e].tobytes().decode("utf-32-le") for s, e in pairs]
    assert got == [w for text in texts for w in words_of(text)]


@given(TEXTS)
def test_char_spans_split_ideographs_and_keep_words(text: str) -> None:
    starts, ends = char_spans(Batch.of([text]))
    expected = re.findall(rf"{CJK.pattern}|(?:(?!{CJK.pattern})[^\W_])+", text)
    assert substrings(text, starts.tolist(), ends.tolist()) == expected


def test_counts_are_per_distinct_hash() -> None:
    batch = Batch.of(["b a b c b a"])
    hashes, counts = count_hashes(span_hashes(batch.codes, *word_spans(batch)))
    by_word = dict(zip(hashes.tolist(), counts.tolist(), strict=True))
    assert by_word == {token_hash("a"): 2, token_hash("b"): 3, token_hash("c"): 1}
    assert hashes.tolist() == sorted(hashes.tolist())


@given(st.lists(TEXTS, max_size=6), st.sampled_from(["words", "chars"]), st.booleans())
@example(["abc'", "'def", "", "x"], "words", True)
@example(["北京", "大学", "ab", "新闻"], "words", False)
def test_a_batch_gives_what_each_text_gives_alone(
    texts: list[str], tokenizer: str, stopwords: bool
) -> None:
    settings = TextSettings(tokenizer=tokenizer, stopwords=stopwords)
    for text, together in zip(texts, analyze_many(texts, settings), strict=True):
        alone = analyze(text, settings)
        assert together.features.hashes.tolist() == alone.features.hashes.tolist()
        assert together.features.counts.tolist() == alone.features.counts.tolist()
        assert together.lead.hashes.tolist() == alone.lead.hashes.tolist()
        assert together.sketch == alone.sketch
        assert together.fingerprint == alone.fingerprint == tf_fingerprint(alone.features, 1.5)
        assert together.lead_fingerprint == tf_fingerprint(alone.lead, 1.5)


@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 5)), max_size=40),
    st.sets(st.integers(0, 6)),
)
def test_counts_per_text_are_a_counter_of_each_text(
    pairs: list[tuple[int, int]], dropped: set[int]
) -> None:
    texts = np.array([text for text, _ in pairs], dtype=np.int64)  # in any order
    hashes = np.array([value for _, value in pairs], dtype=np.uint64)
    distinct, counts, owners = count_per_text(hashes, texts, np.array(sorted(dropped), np.uint64))
    got = list(zip(owners.tolist(), distinct.tolist(), counts.tolist(), strict=True))
    counter = sorted(Counter(pairs).items())
    assert got == [(text, value, n) for (text, value), n in counter if value not in dropped]


@given(st.lists(st.integers(0, 80)), st.lists(st.booleans(), min_size=1, max_size=64))
def test_unmade_code_points_are_the_distinct_ones_without_a_row(
    codes: list[int], made: list[bool]
) -> None:
    array, rows = np.array(codes, np.uint32), np.array(made, bool)
    expected = sorted({code for code in codes if code < len(made) and not made[code]})
    for unmade in (kernels.unmade, kernels.unmade_numpy):  # compiled, and the plain form's
        assert unmade(array, rows).tolist() == expected


@given(st.lists(st.integers(0, 6), min_size=1), st.lists(st.integers(0, 30)))
def test_text_of_is_a_binary_search(lengths: list[int], positions: list[int]) -> None:
    bounds = np.cumsum([0, *lengths])
    inside = np.array(sorted(p for p in positions if p < bounds[-1]), dtype=np.int64)
    expected = np.searchsorted(bounds, inside, side="right") - 1
    assert text_of(bounds, inside).tolist() == expected.tolist()


@given(st.lists(st.integers(0, 40), unique=True).map(sorted), st.lists(st.integers(0, 45)))
def test_positions_outside_spans(edges: list[int], positions: list[int]) -> None:
    pairs = list(zip(edges[::2], edges[1::2], strict=False))  # ascending, apart, not empty
    starts, ends = (np.array([pair[i] for pair in pairs], dtype=np.int64) for i in (0, 1))
    where = np.array(sorted(positions), dtype=np.int64)
    got = kernels.outside(where, starts, ends).tolist()
    assert got == [not any(a <= p < b for a, b in pairs) for p in where.tolist()]


LINES = st.lists(
    st.sampled_from(["北京大学", "新闻", "发布会", "中文abc", "3.14元", "，", "。", " ", "\r"]),
    min_size=1,
    max_size=6,
).map("".join)


@given(st.lists(st.lists(LINES, max_size=6), min_size=1, max_size=4), st.integers(1, 5))
def test_line_cuts_are_jiebas_cuts_of_the_whole_text(texts: list[list[str]], keep: int) -> None:
    """Lines seen before (kept, or forgotten beyond ``keep``) are cut as the whole text is."""
    from simdup_gui.engine.text import tokens

    tokens._line_cuts.clear()
    kept, tokens.KEPT_LINES = tokens.KEPT_LINES, keep
    try:
        for lines in texts:
            for text in ("\n" + "\n".join(lines), " ".join(lines)):
                cut, whole = line_cuts(text), jieba_cuts(text)
                assert cut[0].tolist() == whole[0].tolist()
                assert cut[1].tolist() == whole[1].tolist()
            assert len(tokens._line_cuts) <= keep
    finally:
        tokens.KEPT_LINES = kept
        tokens._line_cuts.clear()
