"""Why two fingerprints differ: for each differing bit, the words that pushed it.

A simhash bit is the sign of a sum over a text's words: each word adds its weight where its hash
has a 1 there and takes it away where it has a 0. Two texts' bits differ when their sums have
opposite signs; the difference of the sums is the sum, word by word, of each word's weight in
one text minus its weight in the other, times that word's sign on the bit. The words listed for
a bit are those whose difference pushes the way the two bits differ, the strongest first: with
them weighed in one file as in the other, that file's sum moves toward the other's sign.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simdup_gui.engine.fingerprint.pipeline import analyze
from simdup_gui.engine.options import TextSettings
from simdup_gui.engine.text.tokens import Batch, span_hashes, spans

WORDS = 5  # words listed for each bit, at most


class Word(NamedTuple):
    """A word and its weight in each text (0 where it is absent, or a stopword)."""

    word: str
    a_weight: float
    b_weight: float


class Bit(NamedTuple):
    """One differing bit (0 is the lowest), each text's value there, and the words that pushed."""

    bit: int
    a: int
    b: int
    words: tuple[Word, ...]


class Explained(NamedTuple):
    """Two texts' fingerprints, their distance, and every differing bit explained."""

    a_fingerprint: int
    b_fingerprint: int
    distance: int
    bits: tuple[Bit, ...]

    def as_json(self) -> dict[str, object]:
        """``{"distance": d, "bits": [{"bit", "a", "b", "words": [{"word", …}]}]}``."""
        return {
            "distance": self.distance,
            "bits": [
                {"bit": b.bit, "a": b.a, "b": b.b, "words": [w._asdict() for w in b.words]}
                for b in self.bits
            ],
        }


def weighted_words(text: str, settings: TextSettings) -> tuple[int, dict[int, tuple[str, float]]]:
    """A text's fingerprint, and each of its weighted features as (word, weight) by hash."""
    analysis = analyze(text, settings)
    batch = Batch.normalized([text])
    starts, ends = spans(settings.tokenizer, batch)
    hashes = span_hashes(batch.codes, starts, ends).tolist()
    spelled: dict[int, str] = {}
    for value, start, end in zip(hashes, starts.tolist(), ends.tolist(), strict=True):
        spelled.setdefault(value, "".join(map(chr, batch.codes[start:end].tolist())))
    weights = analysis.features.counts**settings.tf_power
    words = {
        int(value): (spelled.get(int(value), f"#{int(value):016x}"), float(weight))
        for value, weight in zip(analysis.features.hashes.tolist(), weights, strict=True)
    }
    return analysis.fingerprint, words


def explain(a: str, b: str, settings: TextSettings | None = None, words: int = WORDS) -> Explained:
    """Each bit where the two texts' fingerprints differ, with the words that pushed it."""
    settings = settings or TextSettings()
    a_print, a_words = weighted_words(a, settings)
    b_print, b_words = weighted_words(b, settings)
    every = sorted(set(a_words) | set(b_words))
    hashes = np.array(every, dtype=np.uint64)
    a_weight = np.array([a_words.get(h, ("", 0.0))[1] for h in every], dtype=np.float64)
    b_weight = np.array([b_words.get(h, ("", 0.0))[1] for h in every], dtype=np.float64)
    bits = []
    for bit in range(64):
        a_bit, b_bit = (a_print >> bit) & 1, (b_print >> bit) & 1
        if a_bit == b_bit:
            continue
        sign = np.where((hashes >> np.uint64(bit)) & np.uint64(1), 1.0, -1.0)
        toward_a = 1.0 if a_bit else -1.0
        push = (a_weight - b_weight) * sign * toward_a  # > 0: pushes the way the bits differ
        order = [n for n in np.argsort(-push, kind="stable")[:words].tolist() if push[n] > 0]
        listed = tuple(
            Word(
                (a_words.get(every[n]) or b_words[every[n]])[0],
                float(a_weight[n]),
                float(b_weight[n]),
            )
            for n in order
        )
        bits.append(Bit(bit, a_bit, b_bit, listed))
    return Explained(a_print, b_print, (a_print ^ b_print).bit_count(), tuple(bits))
