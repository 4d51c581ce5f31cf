"""Traces a repost leaves in its text, so a group keeps the original and marks the copies.

Two measures of a file's plain text, both counts of characters:

* :func:`converted_chars`: characters a conversion leaves behind and an editor's original
  rarely holds: ASCII punctuation against Chinese characters (``中国,人民``), full-width and
  half-width letters or digits side by side (``ｆine``), full-width punctuation in a text that
  is not Chinese, ideographs outside GB 2312 (traditional forms, OCR and typing noise: 鐵, 銂),
  U+FFFD (an undecodable byte) and carriage returns (a text saved again on Windows).
* :func:`notice_chars`: the characters of short lines that read like a repost notice, an
  advert or a site's navigation (``本文转载自…``, ``Copyright …``, ``阅读原文``, a web address).

:func:`telltales` gives both, the text's language and its visible characters, from one
compiled pass over its code points (``telltale_kernels.telltale_counts``) and one search.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

import numpy as np

from simdup_gui.engine.arrays import Flags, Index
from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.text.codes import (
    TELL_ASCII_PUNCTUATION,
    TELL_FULL_ALNUM,
    TELL_FULL_PUNCTUATION,
    TELL_HALF_ALNUM,
    TELL_IDEOGRAPH,
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
_NOTICE = re.compile(
    "|".join(
        (
            r"转载|来源[:：]|出处[:：]|版权|著作权|责任编辑|原标题|原文链接|阅读原文|广告|推广",
            r"声明[:：]|免责|公众号|扫码|二维码|关注我们|点击|订阅|热门|推荐阅读|相关(?:阅读|新闻|文章)",
            r"首页|上一篇|下一篇|分享到|评论",
            r"copyright|©|all rights reserved|reprint|originally published|source:|advertis",
            r"sponsored|subscribe|newsletter|sign up|related (?:articles|posts|stories)|share this",
            r"read more|https?://|www\.",
        )
    )
)  # in lower case: it searches lines lower-cased, five times as fast as re.IGNORECASE
_OTHER_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # str.splitlines'


@cache
def _classes() -> Flags:
    """Each BMP character's ``TELL_*`` bits (``text/codes.py``); the last entry, other planes'."""
    classes = np.zeros(0x10001, np.uint8)
    for lo, hi in _IDEOGRAPHS:
        classes[lo:hi] |= TELL_IDEOGRAPH
    for code in np.flatnonzero(classes).tolist():
        try:
            chr(code).encode("gb2312")
        except UnicodeEncodeError:
            classes[code] |= TELL_RARE
    for chars, bit in (
        (_ASCII_PUNCTUATION, TELL_ASCII_PUNCTUATION),
        (_FULL_WIDTH_PUNCTUATION, TELL_FULL_PUNCTUATION),
        (_SPACES, TELL_SPACE),
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


def telltales(text: str, raw: bytes = b"") -> Telltales:
    """All the measures of a text, its characters classified in one pass.

    ``raw`` is the file's bytes, for the carriage returns that decoding takes out.
    """
    if not text:
        return Telltales(raw.count(b"\r"), 0, "", 0)
    length, counts = _counts(text)
    return Telltales(
        _converted(length, counts) + raw.count(b"\r"),
        notice_chars(text),
        _language(counts),
        length - int(counts[_SPACES_AT]),
    )


_FFFD, _RARE, _BESIDE, _MIXED, _FULL_PUNCTUATION, _IDEOGRAPHS_AT, _LETTERS, _WORDS, _SPACES_AT = (
    range(TELLTALE_COUNTS)
)  # telltale_counts' counts, in order


def _counts(text: str) -> tuple[int, Index]:
    """The text's length in code points and its counts (``telltale_kernels.telltale_counts``)."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), "<u4")
    kernels = kernel_module("simdup_gui.engine.text.telltale_kernels")
    return len(codes), kernels.telltale_counts(codes, _classes())


def converted_chars(text: str, raw: bytes = b"") -> int:
    """How many characters of ``text`` look left behind by a conversion (module docstring).

    ``raw`` is the file's bytes, for the carriage returns that decoding takes out.
    """
    if not text:
        return raw.count(b"\r")
    return _converted(*_counts(text)) + raw.count(b"\r")


def _converted(length: int, counts: Index) -> int:
    count = int(counts[_FFFD] + counts[_RARE] + counts[_BESIDE] + counts[_MIXED])
    if counts[_IDEOGRAPHS_AT] < _LATIN_TEXT * length:
        count += int(counts[_FULL_PUNCTUATION])
    return count


def notice_chars(text: str) -> int:
    """How many characters of ``text`` lie in short lines that read like a notice or an ad.

    A line reads so when, lower-cased, it holds one of the words of ``_NOTICE``. The lines
    are found around the words' matches in the whole text (most lines hold none); a text
    that lower-casing makes longer, or with line breaks other than a line feed, goes line by
    line.
    """
    lower = text.lower()
    if len(lower) != len(text) or _OTHER_LINE_BREAKS.search(text):
        return sum(
            len(line)
            for line, low in zip(text.splitlines(), lower.splitlines(), strict=True)
            if len(line.strip()) <= NOTICE_LINE and _NOTICE.search(low)
        )
    total, line_end = 0, -1
    for match in _NOTICE.finditer(lower):
        if match.start() < line_end:
            continue  # its line is counted already
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.start())
        line_end = len(text) if line_end < 0 else line_end
        line = text[line_start:line_end]
        if len(line.strip()) <= NOTICE_LINE:
            total += len(line)
    return total


def language_of(text: str) -> str:
    """``zh`` when a tenth of the letters are ideographs, ``en`` when most are ASCII, else other."""
    return _language(_counts(text)[1]) if text else ""


def _language(counts: Index) -> str:
    ideographs, ascii_letters = int(counts[_IDEOGRAPHS_AT]), int(counts[_LETTERS])
    letters = ideographs + ascii_letters
    if letters and ideographs >= 0.1 * letters:
        return "zh"
    return "en" if ascii_letters and ascii_letters >= 0.5 * int(counts[_WORDS]) else "other"
