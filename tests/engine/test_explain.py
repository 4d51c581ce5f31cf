"""Why two fingerprints differ: every differing bit, and words that really pushed it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.cli import main
from simdup_gui.engine.fingerprint.explain import explain, weighted_words
from simdup_gui.engine.fingerprint.pipeline import analyze
from simdup_gui.engine.options import TextSettings
from simdup_gui.engine.resources import resource

WORDS = ["harbour", "lighthouse", "repairs", "春运", "铁路", "旅客", "茶园", "visitors", "steps"]
TEXTS = st.lists(st.sampled_from(WORDS), min_size=1, max_size=60).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(TEXTS, TEXTS)
def test_every_differing_bit_is_explained_by_words_that_pushed_it(a: str, b: str) -> None:
    found = explain(a, b, words=50)
    assert found.a_fingerprint == analyze(a, TextSettings()).fingerprint
    assert found.b_fingerprint == analyze(b, TextSettings()).fingerprint
    xor = found.a_fingerprint ^ found.b_fingerprint
    assert [bit.bit for bit in found.bits] == [n for n in range(64) if xor >> n & 1]
    assert found.distance == xor.bit_count()
    _, a_words = weighted_words(a, TextSettings())
    by_word = {word: (value, weight) for value, (word, weight) in a_words.items()}
    _, b_words = weighted_words(b, TextSettings())
    by_word_b = {word: (value, weight) for value, (word, weight) in b_words.items()}
    for bit in found.bits:
        n = bit.bit
        assert bit.words  # at least one word, always
        assert (bit.a, bit.b) == (found.a_fingerprint >> n & 1, found.b_fingerprint >> n & 1)
        signs = {
            word: 1.0 if value >> n & 1 else -1.0
            for word, (value, _) in {**by_word_b, **by_word}.items()
        }
        a_sum = sum(weight * signs[word] for word, (_, weight) in by_word.items())
        if abs(a_sum) > 1e-9:  # an exact tie is decided by rounding, in the kernel's order
            assert (a_sum > 0) == bool(bit.a)
        # with the listed words weighed in A as in B, A's sum moves toward B's sign
        moved = a_sum - sum((w.a_weight - w.b_weight) * signs[w.word] for w in bit.words)
        toward_b = -1.0 if bit.a else 1.0
        assert (moved - a_sum) * toward_b > 0


def test_the_command_explains_in_text_and_json(capsys: object, tmp_path: Path) -> None:
    a = resource("sample", "zh", "茶园春茶.txt")
    b = resource("sample", "zh", "茶园春茶-改写.txt")
    assert main(["explain", str(a), str(b), "--json", "--words", "3"]) == 0
    document = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    assert document["distance"] == len(document["bits"]) == 3
    for bit in document["bits"]:
        assert {bit["a"], bit["b"]} == {0, 1}
        assert 1 <= len(bit["words"]) <= 3
        assert set(bit["words"][0]) == {"word", "a_weight", "b_weight"}
    words = {w["word"] for bit in document["bits"] for w in bit["words"]}
    assert {"昆明", "络绎不绝"} & words  # the sentence the rewrite dropped
    assert main(["explain", str(a), str(b)]) == 0
    text = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "distance 3 of 64 bits" in text
    assert main(["explain", str(a), str(tmp_path / "missing.txt")]) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "missing.txt" in err
    assert len(err.strip().splitlines()) == 1
    assert main(["explain", str(a), str(b), "--words", "0"]) == 2
    identical = explain("same words here", "same words here")
    assert identical.distance == 0
    assert identical.bits == ()
    assert np.isfinite([w.a_weight for bit in identical.bits for w in bit.words]).all()
