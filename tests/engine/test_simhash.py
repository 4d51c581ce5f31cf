from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simdup_gui.engine.fingerprint.pipeline import text_features
from simdup_gui.engine.fingerprint.simhash import (
    Features,
    idf_table,
    simhash,
    tf_fingerprint,
    tfidf_fingerprint,
    token_hash,
)
from simdup_gui.engine.options import TextSettings


def reference_simhash(hashes: list[int], weights: list[float]) -> int:
    """Charikar's simhash written out bit by bit."""
    out = 0
    for bit in range(64):
        total = sum(w if (h >> bit) & 1 else -w for h, w in zip(hashes, weights, strict=True))
        if total > 0:
            out |= 1 << bit
    return out


@given(st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(1, 50)), min_size=0, max_size=60))
def test_vectorised_simhash_equals_bit_by_bit(features: list[tuple[int, int]]) -> None:
    hashes = [h for h, _ in features]
    weights = [float(w) for _, w in features]
    got = simhash(np.array(hashes, dtype=np.uint64), np.array(weights))
    assert got == reference_simhash(hashes, weights)


def test_inverse_features_cancel_out() -> None:
    value = 0xDEADBEEFDEADBEEF
    fps = np.array([value, value ^ (2**64 - 1)], dtype=np.uint64)
    assert simhash(fps, np.ones(2)) == 0
    assert simhash(fps[:1], np.ones(1)) == value


def test_token_hash_is_stable_across_runs() -> None:
    # Fixed by the algorithm, not by the process (cached fingerprints depend on it).
    assert token_hash("simdup") == token_hash("simdup")
    assert token_hash("新闻") != token_hash("新聞")
    assert token_hash("simdup") == 15529154855358874796


def test_same_text_same_fingerprint_and_edits_stay_close() -> None:
    text = " ".join(f"word{i % 97} topic{i % 13}" for i in range(600))
    settings = TextSettings()
    a = tf_fingerprint(text_features(text, settings))
    assert a == tf_fingerprint(text_features(text, settings))
    b = tf_fingerprint(text_features(text + " one extra sentence", settings))
    unrelated = tf_fingerprint(text_features("completely different words here " * 30, settings))
    assert (a ^ b).bit_count() <= 3 < (a ^ unrelated).bit_count()


def test_short_text_is_flagged_but_fingerprinted() -> None:
    feats = text_features("Hello world.", TextSettings())
    assert feats.is_short
    assert tf_fingerprint(feats) != 0
    empty = Features.from_tokens([])
    assert empty.is_short
    assert tf_fingerprint(empty) == 0


def test_stopwords_are_removed() -> None:
    with_stop = text_features("the cat and the dog", TextSettings(stopwords=True))
    without = text_features("the cat and the dog", TextSettings(stopwords=False))
    assert len(with_stop) == 2
    assert len(without) == 4


def test_tfidf_down_weights_words_every_document_has() -> None:
    docs = [Features.from_tokens(["common"] * 2 + [f"rare{i}"]) for i in range(5)]
    idf, unseen = idf_table(docs)
    assert idf[token_hash("common")] < idf[token_hash("rare0")] < unseen
    # TF alone is dominated by "common"; TF-IDF lets the rare word show.
    assert tf_fingerprint(docs[0]) == tf_fingerprint(docs[1])
    assert tfidf_fingerprint(docs[0], idf, unseen) != tfidf_fingerprint(docs[1], idf, unseen)
