"""Tokens as spans of code points, hashed and counted in numpy, a batch of texts at a time.

A batch of texts becomes one array of code points and the ``bounds`` where each text starts
and ends. A tokenizer gives the start and end of every token; all tokens are hashed at once with
a polynomial hash over their code points (prefix sums times inverse powers, modulo 2**64),
finished with the SplitMix64 mixer. No Python string is made per token, and numpy's per-call
cost is paid once per batch rather than once per file.

>>> text = "Don't panic, don't!"
>>> batch = Batch.of([text.casefold()])
>>> starts, ends = word_spans(batch)
>>> [text[s:e] for s, e in zip(starts.tolist(), ends.tolist())]
["Don't", 'panic', "don't"]
>>> hashes = span_hashes(batch.codes, starts, ends)
>>> bool(hashes[0] == hashes[2] == token_hash("don't"))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

Codes = npt.NDArray[np.uint32]
Index = npt.NDArray[np.int64]
Spans = tuple[Index, Index]  # token starts and ends
U64 = npt.NDArray[np.uint64]

TOKENIZERS = ("words", "chars")  # jieba words where there is Chinese, or one token per ideograph
WORD, IDEOGRAPH, SPACE = 1, 2, 4  # bits of char_flags()
_BASE = 0x100000001B3  # odd, so it has an inverse modulo 2**64
_BASE_INVERSE = pow(_BASE, -1, 2**64)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_APOSTROPHE = ord("'")


def code_points(text: str) -> Codes:
    """The text's code points, one uint32 each."""
    return np.frombuffer(text.encode("utf-32-le"), dtype="<u4")


def joined(texts: list[str]) -> tuple[Codes, Index]:
    """The code points of texts one after another, and the ``bounds`` between them."""
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    return code_points("".join(texts)), np.concatenate(([0], np.cumsum(lengths)))


def _ideographs(codes: npt.NDArray[np.integer]) -> npt.NDArray[np.bool_]:
    """CJK ideographs: the unified blocks, extension A, compatibility and the supplements."""
    return (
        ((codes >= 0x4E00) & (codes <= 0x9FFF))
        | ((codes >= 0x3400) & (codes <= 0x4DBF))
        | ((codes >= 0xF900) & (codes <= 0xFAFF))
        | ((codes >= 0x20000) & (codes <= 0x2FFFF))
    )


@cache
def _bmp_flags() -> npt.NDArray[np.uint8]:
    """:func:`char_flags` of every character of the Basic Multilingual Plane."""
    return _flags_of(np.arange(0x10000))


def _flags_of(codes: npt.NDArray[np.integer]) -> npt.NDArray[np.uint8]:
    chars = [chr(c) for c in codes.tolist()]
    flags = np.fromiter(map(str.isalnum, chars), dtype=np.uint8, count=len(chars))
    flags[_ideographs(codes)] |= IDEOGRAPH
    flags[np.fromiter(map(str.isspace, chars), dtype=bool, count=len(chars))] |= SPACE
    return flags


def char_flags(codes: Codes) -> npt.NDArray[np.uint8]:
    """What each code point is: a bit mask of ``WORD``, ``IDEOGRAPH`` and ``SPACE``.

    ``WORD``: letters, digits and ideographs (``str.isalnum``); ``IDEOGRAPH``: CJK ideographs;
    ``SPACE``: whitespace (``str.isspace``). A table answers for the Basic Multilingual
    Plane; other code points are looked up one by one (they are rare).
    """
    if not len(codes) or codes.max() <= 0xFFFF:
        return _bmp_flags()[codes]
    flags = _bmp_flags()[np.minimum(codes, 0xFFFF)]
    astral = codes > 0xFFFF
    values = np.unique(codes[astral])
    flags[astral] = _flags_of(values)[np.searchsorted(values, codes[astral])]
    return flags


@dataclass(frozen=True)
class Batch:
    """Texts joined into one array of code points.

    ``bounds`` are where each text starts and ends, ``flags`` the :func:`char_flags` of every
    code point.
    """

    texts: list[str]
    codes: Codes
    bounds: Index
    flags: npt.NDArray[np.uint8]

    @classmethod
    def of(cls, texts: list[str]) -> Batch:
        """Join the texts."""
        codes, bounds = joined(texts)
        return cls(texts, codes, bounds, char_flags(codes))


def _runs(mask: npt.NDArray[np.bool_], bounds: Index) -> Spans:
    """Starts and ends of the runs of True, cut where one text ends and the next begins."""
    inside = np.zeros(len(mask) + 2, dtype=bool)  # mask with a False either side
    inside[1:-1] = mask
    begins = inside[1:] & ~inside[:-1]  # begins[p]: a run starts at p
    stops = inside[:-1] & ~inside[1:]  # stops[p]: a run ends just before p
    inner = bounds[(bounds > 0) & (bounds < len(mask))]
    cuts = inner[mask[inner - 1] & mask[inner]]
    begins[cuts] = True
    stops[cuts] = True
    return np.flatnonzero(begins), np.flatnonzero(stops)


def word_spans(batch: Batch) -> Spans:
    """Runs of letters and digits; an apostrophe between two of them stays inside the word."""
    codes, bounds = batch.codes, batch.bounds
    word = (batch.flags & WORD).view(bool)  # a new array; WORD is bit 0, so 0 or 1
    apostrophes = np.flatnonzero(codes == _APOSTROPHE)
    inner = apostrophes[(apostrophes > 0) & (apostrophes < len(codes) - 1)]
    if len(inner):
        word[inner] = word[inner - 1] & word[inner + 1]
        edges = np.concatenate((bounds[:-1], bounds[1:] - 1))
        edges = edges[(edges >= 0) & (edges < len(codes))]
        word[edges[codes[edges] == _APOSTROPHE]] = False  # no joining across two texts
    return _runs(word, bounds)


def jieba_cuts(text: str) -> Spans:
    """Where the tokens rjieba (jieba in Rust) cuts a text into start and end.

    rjieba returns every character of the text in some token, spaces and punctuation too, so
    the tokens' lengths give their places.
    """
    import rjieba  # loaded on first use (0.15 s: its dictionary): English needs none of it

    tokens = rjieba.cut(text)
    ends = np.cumsum(np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens)))
    if (int(ends[-1]) if len(ends) else 0) != len(text):  # then the places would be wrong
        raise ValueError("the segmenter did not return every character of the text")
    return np.concatenate(([0], ends[:-1])), ends


def char_spans(batch: Batch) -> Spans:
    """Every ideograph on its own, runs of letters and digits elsewhere (no dictionary)."""
    cjk = (batch.flags & IDEOGRAPH).astype(bool)
    starts, ends = _runs((batch.flags & WORD).astype(bool) & ~cjk, batch.bounds)
    single = np.flatnonzero(cjk)
    order = np.argsort(np.concatenate((starts, single)), kind="stable")
    return np.concatenate((starts, single))[order], np.concatenate((ends, single + 1))[order]


def spans(tokenizer: str, batch: Batch) -> Spans:
    """The word spans of a batch of (normalised) texts, in order, by the named tokenizer.

    With ``words``, a text with ideographs is cut by jieba (keeping the tokens that hold a
    letter, digit or ideograph), the others into runs of letters and digits.
    """
    if tokenizer == "chars":
        return char_spans(batch)
    starts, ends = word_spans(batch)
    bounds = batch.bounds
    is_ideograph = batch.flags & IDEOGRAPH
    if not is_ideograph.any():
        return starts, ends
    ideographs = np.concatenate(([0], np.cumsum(is_ideograph, dtype=np.int64)))
    chinese = ideographs[bounds[1:]] > ideographs[bounds[:-1]]
    all_starts, all_ends = [], []
    for doc in range(len(batch.texts)):
        lo, hi = int(bounds[doc]), int(bounds[doc + 1])
        if chinese[doc]:
            doc_starts, doc_ends = jieba_cuts(batch.texts[doc])
            all_starts.append(doc_starts + lo)
            all_ends.append(doc_ends + lo)
        else:
            first, last = np.searchsorted(starts, [lo, hi])
            all_starts.append(starts[first:last])
            all_ends.append(ends[first:last])
    starts, ends = np.concatenate(all_starts), np.concatenate(all_ends)
    words = np.concatenate(([0], np.cumsum(batch.flags & WORD, dtype=np.int64)))
    keep = words[ends] > words[starts]
    return starts[keep], ends[keep]


def text_of(bounds: Index, positions: Index) -> Index:
    """Which text of a batch each position falls in (empty texts hold none)."""
    return np.searchsorted(bounds, positions, side="right") - 1


_POWERS_KEPT = 1 << 21  # powers are kept up to this length (a batch); longer ones are made
_powers_kept: dict[int, U64] = {}


def _make_powers(base: int, count: int) -> U64:
    out = np.full(count, base, dtype=np.uint64)
    if count:
        out[0] = 1
    return np.cumprod(out, dtype=np.uint64)


def _powers(base: int, count: int) -> U64:
    """``base ** i`` modulo 2**64 for i in 0 .. count - 1 (kept, and grown as batches need)."""
    if count > _POWERS_KEPT:
        return _make_powers(base, count)
    kept = _powers_kept.get(base, np.empty(0, dtype=np.uint64))
    if len(kept) < count:  # grow by doubling, so a few growths cover every batch
        size = min(_POWERS_KEPT, max(count, 2 * len(kept), 1 << 16))
        kept = _powers_kept[base] = _make_powers(base, size)
    return kept[:count]


def mix(values: U64) -> U64:
    """SplitMix64 finaliser: spreads polynomial hashes over all 64 bits."""
    values = values ^ (values >> np.uint64(30))
    values = values * np.uint64(0xBF58476D1CE4E5B9)
    values = values ^ (values >> np.uint64(27))
    values = values * np.uint64(0x94D049BB133111EB)
    return values ^ (values >> np.uint64(31))


def span_hashes(codes: Codes, starts: Index, ends: Index) -> U64:
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


def by_text(values: U64, texts: Index) -> Index:
    """The order that sorts values by their text, then by value.

    A sort by value, then a stable sort by text: a radix sort when the batch has fewer than
    65,536 texts (faster than ``np.lexsort``).
    """
    order = np.argsort(values)
    owners = texts[order]
    if len(owners) and owners.max() < 1 << 16:
        owners = owners.astype(np.uint16)
    return order[np.argsort(owners, kind="stable")]


def count_per_text(hashes: U64, texts: Index) -> tuple[U64, npt.NDArray[np.float64], Index]:
    """Distinct hashes per text and how often each occurs, grouped by text, each text sorted.

    ``texts`` says which text of a batch each hash belongs to.

    Returns the distinct hashes, their counts, and the text each belongs to.
    """
    order = by_text(hashes, texts)
    ordered, owner = hashes[order], texts[order]
    new = np.ones(len(ordered), dtype=bool)
    new[1:] = (ordered[1:] != ordered[:-1]) | (owner[1:] != owner[:-1])
    first = np.flatnonzero(new)
    counts = np.diff(np.append(first, len(ordered))).astype(np.float64)
    return ordered[first], counts, owner[first]


def count_hashes(hashes: U64) -> tuple[U64, npt.NDArray[np.float64]]:
    """The distinct hashes of one text, sorted, and how often each occurs."""
    distinct, counts, _ = count_per_text(hashes, np.zeros(len(hashes), dtype=np.int64))
    return distinct, counts
