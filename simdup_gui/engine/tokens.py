"""Tokens as spans of a text's code points, hashed and counted in numpy.

A text becomes one array of code points; a tokenizer gives the start and end of each token in
it, and every token is hashed at once with a polynomial hash over its code points (prefix sums
times inverse powers, modulo 2**64), finished with the SplitMix64 mixer. No Python string is
made per token, which is what made tokenizing cost more than everything else here.

>>> text = "Don't panic, don't!"
>>> codes = code_points(text.casefold())
>>> starts, ends = word_spans(codes)
>>> [text[s:e] for s, e in zip(starts.tolist(), ends.tolist())]
["Don't", 'panic', "don't"]
>>> hashes = span_hashes(codes, starts, ends)
>>> bool(hashes[0] == hashes[2] == token_hash("don't"))
True
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt
import rjieba

Codes = npt.NDArray[np.uint32]
Spans = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]  # token starts and ends
U64 = npt.NDArray[np.uint64]

_BASE = 0x100000001B3  # odd, so it has an inverse modulo 2**64
_BASE_INVERSE = pow(_BASE, -1, 2**64)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_APOSTROPHE = ord("'")


def code_points(text: str) -> Codes:
    """The text's code points, one uint32 each."""
    return np.frombuffer(text.encode("utf-32-le"), dtype="<u4")


@cache
def _bmp_table(predicate: str) -> npt.NDArray[np.bool_]:
    """``str.<predicate>()`` of every character of the Basic Multilingual Plane."""
    test = getattr(str, predicate)
    return np.fromiter((test(chr(c)) for c in range(0x10000)), dtype=bool, count=0x10000)


def _classify(codes: Codes, predicate: str) -> npt.NDArray[np.bool_]:
    """``str.<predicate>()`` of every code point (a table for the BMP, the rest one by one)."""
    out = _bmp_table(predicate)[np.minimum(codes, 0xFFFF)]
    astral = codes > 0xFFFF
    if astral.any():
        values = np.unique(codes[astral])
        truth = np.fromiter((getattr(chr(c), predicate)() for c in values.tolist()), dtype=bool)
        out[astral] = truth[np.searchsorted(values, codes[astral])]
    return out


def is_word_char(codes: Codes) -> npt.NDArray[np.bool_]:
    """Letters, digits and ideographs (``str.isalnum``): what a word is made of."""
    return _classify(codes, "isalnum")


def is_space(codes: Codes) -> npt.NDArray[np.bool_]:
    """Whitespace (``str.isspace``)."""
    return _classify(codes, "isspace")


def _runs(mask: npt.NDArray[np.bool_]) -> Spans:
    """Starts and ends of the runs of True."""
    step = np.diff(mask.view(np.int8), prepend=np.int8(0), append=np.int8(0))
    return np.flatnonzero(step == 1), np.flatnonzero(step == -1)


def word_spans(codes: Codes) -> Spans:
    """Runs of letters and digits; an apostrophe between two of them stays inside the word."""
    word = is_word_char(codes)
    if len(codes) > 2:
        word[1:-1] |= (codes[1:-1] == _APOSTROPHE) & word[:-2] & word[2:]
    return _runs(word)


def jieba_spans(text: str, codes: Codes) -> Spans:
    """The words rjieba (jieba in Rust) cuts that hold a letter, digit or ideograph.

    rjieba returns every character of the text in some token, so the tokens' lengths give
    their places.
    """
    tokens = rjieba.cut(text)
    lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    ends = np.cumsum(lengths)
    starts = ends - lengths
    words = np.concatenate(([0], np.cumsum(is_word_char(codes), dtype=np.int64)))
    keep = words[ends] > words[starts]
    return starts[keep], ends[keep]


def char_spans(codes: Codes) -> Spans:
    """Every ideograph on its own, runs of letters and digits elsewhere (no dictionary)."""
    cjk = is_ideograph(codes)
    word = is_word_char(codes) & ~cjk
    starts, ends = _runs(word)
    single = np.flatnonzero(cjk)
    order = np.argsort(np.concatenate((starts, single)), kind="stable")
    return np.concatenate((starts, single))[order], np.concatenate((ends, single + 1))[order]


def is_ideograph(codes: Codes) -> npt.NDArray[np.bool_]:
    """CJK ideographs: the unified blocks, extension A, compatibility and the supplements."""
    return (
        ((codes >= 0x4E00) & (codes <= 0x9FFF))
        | ((codes >= 0x3400) & (codes <= 0x4DBF))
        | ((codes >= 0xF900) & (codes <= 0xFAFF))
        | ((codes >= 0x20000) & (codes <= 0x2FFFF))
    )


TOKENIZERS = ("words", "chars")  # jieba words where there is Chinese, or one token per ideograph


def spans(tokenizer: str, text: str, codes: Codes) -> Spans:
    """The word spans of a (normalised) text by the named tokenizer."""
    if tokenizer == "chars":
        return char_spans(codes)
    return jieba_spans(text, codes) if is_ideograph(codes).any() else word_spans(codes)


def _powers(base: int, count: int) -> U64:
    """``base ** i`` modulo 2**64 for i in 0 .. count - 1."""
    out = np.full(count, base, dtype=np.uint64)
    if count:
        out[0] = 1
    return np.cumprod(out, dtype=np.uint64)


def mix(values: U64) -> U64:
    """SplitMix64 finaliser: spreads polynomial hashes over all 64 bits."""
    values = values ^ (values >> np.uint64(30))
    values = values * np.uint64(0xBF58476D1CE4E5B9)
    values = values ^ (values >> np.uint64(27))
    values = values * np.uint64(0x94D049BB133111EB)
    return values ^ (values >> np.uint64(31))


def span_hashes(codes: Codes, starts: npt.NDArray[np.int64], ends: npt.NDArray[np.int64]) -> U64:
    """The 64-bit hash of each token ``codes[start:end]``, the same wherever it occurs."""
    if not len(starts):
        return np.empty(0, dtype=np.uint64)
    count = int(ends.max())
    prefix = np.zeros(count + 1, dtype=np.uint64)
    np.cumsum(codes[:count].astype(np.uint64) * _powers(_BASE, count), out=prefix[1:])
    local = (prefix[ends] - prefix[starts]) * _powers(_BASE_INVERSE, count)[starts]
    return mix(local ^ (ends - starts).astype(np.uint64) * _GOLDEN)


def token_hash(token: str) -> int:
    """The hash :func:`span_hashes` gives this token, for one string."""
    if not token:
        return int(mix(np.zeros(1, dtype=np.uint64))[0])
    codes = code_points(token)
    return int(span_hashes(codes, np.array([0]), np.array([len(codes)]))[0])


def count_hashes(hashes: U64) -> tuple[U64, npt.NDArray[np.float64]]:
    """The distinct hashes, sorted, and how often each occurs."""
    ordered = np.sort(hashes)
    if not len(ordered):
        return ordered, np.empty(0, dtype=np.float64)
    first = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    counts = np.diff(np.append(first, len(ordered))).astype(np.float64)
    return ordered[first], counts
