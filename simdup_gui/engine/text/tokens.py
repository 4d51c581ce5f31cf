"""Tokens as spans of code points, hashed and counted a batch of texts at a time.

A batch of texts becomes one array of code points and the ``bounds`` where each text starts
and ends. A tokenizer gives the start and end of every token; all tokens are hashed in one
compiled loop (``kernels.py``) with a polynomial hash over their code points modulo 2**64,
finished with the SplitMix64 mixer (:func:`token_hash` defines it for one string). No Python
string is made per token, and no Python runs per character.

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
from itertools import compress
from operator import not_

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import distinct
from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.text.codes import GOLDEN, IDEOGRAPH, MIXERS, SPACE, TOKEN_BASE, WORD
from simdup_gui.engine.text.normalize import local_forms, normalize, simplified

Codes = npt.NDArray[np.uint32]
Index = npt.NDArray[np.int64]
Spans = tuple[Index, Index]  # token starts and ends
U64 = npt.NDArray[np.uint64]

_MASK = (1 << 64) - 1
_NONE = np.empty(0, np.uint64)
KEPT_LINES = 32_768  # lines of Chinese whose cuts a process keeps: about 12 MB
_line_cuts: dict[str, bytes] = {}  # a line → its tokens' lengths (int32), its line break's first


def code_points(text: str) -> Codes:
    """The text's code points, one uint32 each (writable: numba compiles one kind of array)."""
    return np.frombuffer(bytearray(text.encode("utf-32-le")), dtype="<u4")


def _text(codes: Codes, start: int, end: int) -> str:
    return codes[start:end].astype("<u4", copy=False).tobytes().decode("utf-32-le")


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
    values = distinct(codes[astral])
    flags[astral] = _flags_of(values)[np.searchsorted(values, codes[astral])]
    return flags


@dataclass(frozen=True)
class Batch:
    """Texts joined into one array of code points.

    ``bounds`` are where each text starts and ends, ``flags`` the :func:`char_flags` of every
    code point.
    """

    codes: Codes
    bounds: Index
    flags: npt.NDArray[np.uint8]

    @classmethod
    def of(cls, texts: list[str]) -> Batch:
        """Join the texts."""
        codes, bounds = joined(texts)
        return cls(codes, bounds, char_flags(codes))

    @classmethod
    def normalized(cls, texts: list[str]) -> Batch:
        """Join the texts, each :func:`~simdup_gui.engine.text.normalize.normalize`-d and stripped.

        A compiled pass replaces each character with its form (``text.LocalForms``); a text
        with ideographs OpenCC may change (traditional characters) is then converted by it and
        case-folded, and only a text holding a character whose form depends on its neighbours
        goes through ``normalize`` itself.
        """
        kernels = kernel_module("simdup_gui.engine.text.token_kernels")

        codes, bounds = joined(texts)
        codes, bounds, flags, tables = kernels.local_forms(
            codes, bounds, *local_forms(codes), _bmp_flags()
        )
        if not tables.any():
            return cls(codes, bounds, flags)
        pieces, flag_pieces = [], []
        for text, table, lo, hi in zip(
            texts, tables.tolist(), bounds[:-1].tolist(), bounds[1:].tolist(), strict=True
        ):
            if table == 0:  # done
                pieces.append(codes[lo:hi])
                flag_pieces.append(flags[lo:hi])
                continue
            if table == 1:  # in forms before case folding: OpenCC, then case folding
                pieces.append(code_points(simplified(_text(codes, lo, hi))))
            else:  # left out
                pieces.append(code_points(normalize(text).strip()))
            flag_pieces.append(char_flags(pieces[-1]))
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        bounds = np.concatenate(([0], np.cumsum(lengths)))
        return cls(np.concatenate(pieces), bounds, np.concatenate(flag_pieces))


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
    kernels = kernel_module("simdup_gui.engine.text.token_kernels")

    return kernels.word_spans(batch.codes, batch.flags, batch.bounds)


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


def forget_line_cuts() -> None:
    """Forget the cuts kept by :func:`line_cuts` (for a benchmark timing a first reading)."""
    _line_cuts.clear()


def line_cuts(text: str) -> Spans:
    """:func:`jieba_cuts` of a text of lines, each after a line break: a line is cut once.

    jieba joins no word across a line break, so a line's tokens are the same wherever it
    stands, and an article's copies share most of their lines. So each process keeps the
    cuts of up to ``KEPT_LINES`` lines it cut lately, as their tokens' lengths; the lines it
    has not seen are cut together, in one call. (A text that does not start with a line
    break, or holds a carriage return, whose line break with it is one token, is cut whole.)
    """
    if not text.startswith("\n") or "\r" in text:
        return jieba_cuts(text)
    lines = text.split("\n")[1:]
    found = list(map(_line_cuts.get, lines))
    missing = list(dict.fromkeys(compress(lines, map(not_, found))))
    fresh: dict[str, bytes] = {}
    if missing:
        starts, ends = jieba_cuts("\n" + "\n".join(missing))
        sizes = np.fromiter(map(len, missing), dtype=np.int64, count=len(missing)) + 1
        lasts = np.searchsorted(ends, np.cumsum(sizes))  # each line's last token
        cuts = (np.concatenate(([0], lasts + 1)) * 4).tolist()
        lengths = (ends - starts).astype(np.int32).tobytes()
        pieces = map(lengths.__getitem__, map(slice, cuts[:-1], cuts[1:]))
        fresh = dict(zip(missing, pieces, strict=True))
        if len(_line_cuts) + len(fresh) > KEPT_LINES:
            _line_cuts.clear()  # a plain dict, and forgotten all at once: cheaper than an LRU
        if len(fresh) <= KEPT_LINES:
            _line_cuts.update(fresh)
    lengths = b"".join(map(fresh.get, lines, found))  # a line found before: as found
    ends = np.cumsum(np.frombuffer(lengths, dtype=np.int32), dtype=np.int64)
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

    With ``words``: the whitespace-separated chunks that hold an ideograph are cut by jieba,
    line by line (:func:`line_cuts`), keeping the tokens that hold a letter, digit or
    ideograph; all other text is cut into runs of letters and digits, so an English sentence
    gives the same words with or without Chinese around it.
    """
    kernels = kernel_module("simdup_gui.engine.text.token_kernels")

    if tokenizer == "chars":
        return char_spans(batch)
    starts, ends = word_spans(batch)
    chunk_starts, chunk_ends, codes, places = kernels.ideograph_chunks(
        batch.codes, batch.flags, batch.bounds
    )
    if not len(chunk_starts):
        return starts, ends
    cut_starts, cut_ends = line_cuts(_text(codes, 0, len(codes)))
    return kernels.with_cuts(
        starts, ends, chunk_starts, chunk_ends, cut_starts, cut_ends, places, batch.flags
    )


def text_of(bounds: Index, positions: Index) -> Index:
    """Which text of a batch each position falls in (``positions`` ascending).

    The same as ``np.searchsorted(bounds, positions, side="right") - 1``: empty texts hold
    none (compiled: a merge instead of a binary search per position).
    """
    kernels = kernel_module("simdup_gui.engine.text.token_kernels")

    return kernels.text_of(bounds.astype(np.int64), positions.astype(np.int64))


def mix(value: int) -> int:
    """SplitMix64 finaliser: spreads a polynomial hash over all 64 bits."""
    value = ((value ^ (value >> 30)) * MIXERS[0]) & _MASK
    value = ((value ^ (value >> 27)) * MIXERS[1]) & _MASK
    return value ^ (value >> 31)


def span_hashes(codes: Codes, starts: Index, ends: Index) -> U64:
    """The 64-bit :func:`token_hash` of each token ``codes[start:end]`` (compiled)."""
    kernels = kernel_module("simdup_gui.engine.text.token_kernels")

    return kernels.span_hashes(codes, starts.astype(np.int64), ends.astype(np.int64))


def token_hash(token: str) -> int:
    """A token's 64-bit hash: the definition :func:`span_hashes` computes for many at once.

    The sum of each character's code point times ``TOKEN_BASE`` to the power of its place, modulo
    2**64, with the length mixed in, finished by :func:`mix`.
    """
    value = sum(ord(char) * pow(TOKEN_BASE, place, 1 << 64) for place, char in enumerate(token))
    return mix((value ^ len(token) * GOLDEN) & _MASK)


def count_per_text(
    hashes: U64, texts: Index, dropped: U64 = _NONE
) -> tuple[U64, npt.NDArray[np.float64], Index]:
    """Distinct hashes per text and how often each occurs, grouped by text, each text sorted.

    ``texts`` says which text of a batch each hash belongs to; hashes in ``dropped`` (sorted:
    the stopwords', say) are left out.

    Returns the distinct hashes, their counts, and the text each belongs to.
    """
    kernels = kernel_module("simdup_gui.engine.text.token_kernels")

    texts = texts.astype(np.int64)
    if len(texts) and (texts[1:] < texts[:-1]).any():
        order = np.argsort(texts, kind="stable")
        hashes, texts = hashes[order], texts[order]
    return kernels.count_per_text(hashes.astype(np.uint64), texts, dropped)


def count_hashes(hashes: U64) -> tuple[U64, npt.NDArray[np.float64]]:
    """The distinct hashes of one text, sorted, and how often each occurs."""
    distinct, counts, _ = count_per_text(hashes, np.zeros(len(hashes), dtype=np.int64))
    return distinct, counts
