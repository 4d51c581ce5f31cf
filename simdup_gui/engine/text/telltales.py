"""Traces a repost leaves in its text, so a group keeps the original and marks the copies.

Two measures of a file's plain text, both counts of characters:

* :func:`converted_chars`: characters a conversion leaves behind and an editor's original
  rarely holds: ASCII punctuation against Chinese characters (``中国,人民``), full-width and
  half-width letters or digits side by side (``ｆine``), full-width punctuation in a text that
  is not Chinese, ideographs outside GB 2312 (traditional forms, OCR and typing noise: 鐵, 銂),
  U+FFFD (an undecodable byte) and carriage returns (a text saved again on Windows).
* :func:`notice_chars`: the characters of short lines that read like a repost notice, an
  advert or a site's navigation (``本文转载自…``, ``Copyright …``, ``阅读原文``, a web address).
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

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


class _Tables:
    """Per-character classes over the BMP (index 0x10000 stands for every other plane)."""

    def __init__(self) -> None:
        size = 0x10001
        self.ideograph = np.zeros(size, bool)
        for lo, hi in _IDEOGRAPHS:
            self.ideograph[lo:hi] = True
        self.rare = np.zeros(size, bool)
        for code in np.flatnonzero(self.ideograph).tolist():
            try:
                chr(code).encode("gb2312")
            except UnicodeEncodeError:
                self.rare[code] = True
        self.ascii_punctuation = self._of(_ASCII_PUNCTUATION, size)
        self.full_punctuation = self._of(_FULL_WIDTH_PUNCTUATION, size)
        self.full_alnum = self._ranges(_FULL_WIDTH_ALNUM, size)
        self.half_alnum = self._ranges(_HALF_WIDTH_ALNUM, size)
        self.space = self._of(_SPACES, size)

    @staticmethod
    def _of(chars: str, size: int) -> npt.NDArray[np.bool_]:
        table = np.zeros(size, bool)
        table[[ord(c) for c in chars]] = True
        return table

    @staticmethod
    def _ranges(ranges: tuple[tuple[int, int], ...], size: int) -> npt.NDArray[np.bool_]:
        table = np.zeros(size, bool)
        for lo, hi in ranges:
            table[lo:hi] = True
        return table


@cache
def _tables() -> _Tables:
    return _Tables()


class Telltales(NamedTuple):
    """What a file's text tells of where it came from (see the module's docstring)."""

    converted_chars: int
    notice_chars: int
    language: str  # "zh", "en", "other" ("" for no text)


def telltales(text: str, raw: bytes = b"") -> Telltales:
    """All the measures of a text, its characters classified once.

    ``raw`` is the file's bytes, for the carriage returns that decoding takes out.
    """
    if not text:
        return Telltales(raw.count(b"\r"), 0, "")
    codes, at, ideograph = _classified(text)
    return Telltales(
        _converted(codes, at, ideograph) + raw.count(b"\r"),
        notice_chars(text),
        _language(codes, ideograph),
    )


def _classified(
    text: str,
) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32], npt.NDArray[np.bool_]]:
    """The text's code points, their places in the tables, and which are ideographs."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), "<u4")
    at = np.minimum(codes, 0x10000)
    astral_ideograph = (codes >= 0x20000) & (codes < 0x40000)
    return codes, at, _tables().ideograph[at] | astral_ideograph


def converted_chars(text: str, raw: bytes = b"") -> int:
    """How many characters of ``text`` look left behind by a conversion (module docstring).

    ``raw`` is the file's bytes, for the carriage returns that decoding takes out.
    """
    if not text:
        return raw.count(b"\r")
    return _converted(*_classified(text)) + raw.count(b"\r")


def _converted(
    codes: npt.NDArray[np.uint32], at: npt.NDArray[np.uint32], ideograph: npt.NDArray[np.bool_]
) -> int:
    t = _tables()
    count = int((codes == 0xFFFD).sum())
    ideographs = int(ideograph.sum())
    if ideographs:  # else no rare ideograph, and no ASCII punctuation beside one
        count += int((t.rare[at] | (ideograph & (codes >= 0x10000))).sum())
        beside = np.zeros(len(codes), bool)  # an ideograph before or after each character
        beside[1:] |= ideograph[:-1]
        beside[:-1] |= ideograph[1:]
        count += int((t.ascii_punctuation[at] & beside).sum())
    full, half = t.full_alnum[at], t.half_alnum[at]
    mixed = np.zeros(len(codes), bool)
    mixed[1:] |= (full[1:] & half[:-1]) | (half[1:] & full[:-1])
    count += int(mixed.sum())
    if ideographs < _LATIN_TEXT * len(codes):
        count += int(t.full_punctuation[at].sum())
    return count


def notice_chars(text: str) -> int:
    """How many characters of ``text`` lie in short lines that read like a notice or an ad.

    A line reads so when, lower-cased, it holds one of the words of ``_NOTICE``.
    """
    return sum(
        len(line)
        for line, lower in zip(text.splitlines(), text.lower().splitlines(), strict=True)
        if len(line.strip()) <= NOTICE_LINE and _NOTICE.search(lower)
    )


def language_of(text: str) -> str:
    """``zh`` when a tenth of the letters are ideographs, ``en`` when most are ASCII, else other."""
    if not text:
        return ""
    codes, _, ideograph = _classified(text)
    return _language(codes, ideograph)


def _language(codes: npt.NDArray[np.uint32], ideograph: npt.NDArray[np.bool_]) -> str:
    ideographs = int(ideograph.sum())
    ascii_letters = int((((codes | 0x20) >= 0x61) & ((codes | 0x20) <= 0x7A)).sum())
    letters = ideographs + ascii_letters
    if letters and ideographs >= 0.1 * letters:
        return "zh"
    return "en" if ascii_letters and ascii_letters >= 0.5 * _words(codes) else "other"


def _words(codes: npt.NDArray[np.uint32]) -> int:
    """``len(text.split())`` without the list: the characters that start a run of non-space."""
    space = _tables().space[np.minimum(codes, 0x10000)]
    starts = ~space
    starts[1:] &= space[:-1]
    return int(starts.sum())
