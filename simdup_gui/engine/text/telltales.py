"""Traces a repost leaves in its text, so a group keeps the original and marks the copies.

Two measures of a file's plain text, both counts of characters:

* :func:`converted_chars`: characters a conversion leaves behind and an editor's original
  rarely holds: ASCII punctuation against Chinese characters (``中国,人民``), full-width and
  half-width letters or digits side by side (``ｆine``), full-width punctuation in a text that
  is not Chinese, ideographs outside GB 2312 (traditional forms, OCR and typing noise: 鐵, 銂),
  U+FFFD (an undecodable byte). Not line endings: an original saved on Windows is as much
  the original as its copy saved elsewhere (bytes that mean nothing change no choice).
* :func:`notice_chars`: the characters of short lines that read like a repost notice, an
  advert or a site's navigation (``本文转载自…``, ``Copyright …``, ``阅读原文``, a web address).

:func:`telltales` gives both, the text's language and its visible characters, from two
compiled passes over its code points (``telltale_kernels.py``): the counts, and the notice
words tried at each character whose lower case starts one.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import compress
from typing import Any, NamedTuple

import numpy as np

from simdup_gui.engine.arrays import Codes, Flags, Index
from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.text.codes import (
    NOTICE_WORDS,
    TELL_ASCII_PUNCTUATION,
    TELL_FULL_ALNUM,
    TELL_FULL_PUNCTUATION,
    TELL_HALF_ALNUM,
    TELL_IDEOGRAPH,
    TELL_OTHER_BREAK,
    TELL_RARE,
    TELL_SPACE,
    TELLTALE_COUNTS,
)

_IDEOGRAPHS = ((0x3400, 0x4DC0), (0x4E00, 0xA000), (0xF900, 0xFB00))
_ASCII_PUNCTUATION = ",;:!?"
_FULL_WIDTH_PUNCTUATION = "，；：！？。"
_FULL_WIDTH_ALNUM = ((0xFF10, 0xFF1A), (0xFF21, 0xFF3B), (0xFF41, 0xFF5B))
_HALF_WIDTH_ALNUM = ((0x30, 0x3A), (0x41, 0x5B), (0x61, 0x7B))
_LATIN_TEXT = 0.05  # a text is not Chinese when fewer of its characters are ideographs
_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(
    map(chr, range(0x2000, 0x200B))
)  # every character str.isspace() calls whitespace (none lies outside the BMP)

NOTICE_LINE = 120  # a longer line is article text, whatever words it holds
_NOTICE = re.compile("|".join(map(re.escape, NOTICE_WORDS)))  # searched in lower-cased lines
_OTHER_LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # str.splitlines' but \n


@cache
def _classes() -> Flags:
    """Each BMP character's ``TELL_*`` bits (``text/codes.py``); the last entry, other planes'."""
    classes = np.zeros(0x10001, np.uint8)
    for lo, hi in _IDEOGRAPHS:
        classes[lo:hi] |= TELL_IDEOGRAPH
    ideographs = np.flatnonzero(classes)
    # GB2312 writes each of its ideographs in two bytes, none of them NUL; "replace" writes
    # one "?" for any other character: so each piece's length tells, all in one call.
    encoded = "\0".join(map(chr, ideographs.tolist())).encode("gb2312", "replace").split(b"\0")
    classes[ideographs[np.fromiter(map(len, encoded), np.int64, len(encoded)) != 2]] |= TELL_RARE
    for chars, bit in (
        (_ASCII_PUNCTUATION, TELL_ASCII_PUNCTUATION),
        (_FULL_WIDTH_PUNCTUATION, TELL_FULL_PUNCTUATION),
        (_SPACES, TELL_SPACE),
        (_OTHER_LINE_BREAKS, TELL_OTHER_BREAK),
    ):
        classes[[ord(c) for c in chars]] |= bit
    for ranges, bit in ((_FULL_WIDTH_ALNUM, TELL_FULL_ALNUM), (_HALF_WIDTH_ALNUM, TELL_HALF_ALNUM)):
        for lo, hi in ranges:
            classes[lo:hi] |= bit
    return classes


class Telltales(NamedTuple):
    """What a file's text tells of where it came from (see the module's docstring)."""

    converted_chars: int
    notice_chars: int
    language: str  # "zh", "en", "other" ("" for no text)
    chars: int  # characters that are not whitespace (layout is not text)


def telltales(text: str) -> Telltales:
    """All the measures of a text, its characters classified in one pass."""
    if not text:
        return Telltales(0, 0, "", 0)
    codes = _codes(text)
    counts = _kernels().telltale_counts(codes, _classes()).tolist()  # Python ints: no numpy
    return Telltales(  # scalar per sum (a microsecond each), for every file
        _converted(len(codes), counts),
        _notice_chars(text, codes),
        _language(counts),
        len(codes) - counts[_SPACES_AT],
    )


_FFFD, _RARE, _BESIDE, _MIXED, _FULL_PUNCTUATION, _IDEOGRAPHS_AT, _LETTERS, _WORDS, _SPACES_AT = (
    range(TELLTALE_COUNTS)
)  # telltale_counts' counts, in order


def _codes(text: str) -> Codes:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), "<u4")


def _kernels() -> Any:
    return kernel_module("simdup_gui.engine.text.telltale_kernels")


def _counts(text: str) -> tuple[int, list[int]]:
    """The text's length in code points and its counts (``telltale_kernels.telltale_counts``)."""
    codes = _codes(text)
    return len(codes), _kernels().telltale_counts(codes, _classes()).tolist()


def converted_chars(text: str) -> int:
    """How many characters of ``text`` look left behind by a conversion (module docstring)."""
    return _converted(*_counts(text)) if text else 0


def _converted(length: int, counts: list[int]) -> int:
    count = counts[_FFFD] + counts[_RARE] + counts[_BESIDE] + counts[_MIXED]
    if counts[_IDEOGRAPHS_AT] < _LATIN_TEXT * length:
        count += counts[_FULL_PUNCTUATION]
    return count


def notice_chars(text: str) -> int:
    """How many characters of ``text`` lie in short lines that read like a notice or an ad.

    A line reads so when, lower-cased, it holds one of the words of ``NOTICE_WORDS``.
    """
    return _notice_chars(text, _codes(text))


def notice_line(line: str) -> bool:
    """Whether a line reads like a repost notice or an ad (what :func:`notice_chars` counts)."""
    return len(line.strip()) <= NOTICE_LINE and _NOTICE.search(line.lower()) is not None


def _notice_chars(text: str, codes: Codes) -> int:
    """:func:`notice_chars`, in one compiled pass unless the text has other line breaks."""
    found = int(_kernels().notice_chars(codes, _classes(), *_notice_words(), NOTICE_LINE))
    if found >= 0:
        return found
    return sum(len(line) for line in text.splitlines() if notice_line(line))


class _NoticeWords(NamedTuple):
    """The notice words as ``telltale_kernels.notice_chars`` takes them."""

    fold: Codes  # each BMP character's lower case when that is one BMP character, else itself
    first: Index  # the first word starting with each character (-1: none)
    following: Index  # the next word with the same first character
    chars: Codes  # the words' characters, one after another
    bounds: Index  # where each word starts, and the last one ends


@cache
def _notice_words() -> _NoticeWords:
    fold = np.arange(0x10001, dtype=np.uint32)
    codes = np.r_[1:0xD800, 0xE000:0x10000]  # no NUL (between them), no surrogates
    lowers = "\0".join(map(chr, codes.tolist())).lower().split("\0")
    one = np.fromiter(map(len, lowers), dtype=np.int64, count=len(lowers)) == 1
    found = np.frombuffer("".join(compress(lowers, one)).encode("utf-32-le"), "<u4")
    bmp = found < 0x10000
    fold[codes[one][bmp]] = found[bmp]
    chars = _codes("".join(NOTICE_WORDS))
    bounds = np.cumsum([0, *map(len, NOTICE_WORDS)])
    first = np.full(0x10001, -1, np.int64)
    following = np.full(len(NOTICE_WORDS), -1, np.int64)
    for word in reversed(range(len(NOTICE_WORDS))):
        lead = chars[bounds[word]]
        following[word], first[lead] = first[lead], word
    return _NoticeWords(fold, first, following, chars, bounds.astype(np.int64))


def language_of(text: str) -> str:
    """``zh`` when a tenth of the letters are ideographs, ``en`` when most are ASCII, else other."""
    return _language(_counts(text)[1]) if text else ""


def _language(counts: list[int]) -> str:
    ideographs, ascii_letters = counts[_IDEOGRAPHS_AT], counts[_LETTERS]
    letters = ideographs + ascii_letters
    if letters and ideographs >= 0.1 * letters:
        return "zh"
    return "en" if ascii_letters and ascii_letters >= 0.5 * counts[_WORDS] else "other"
