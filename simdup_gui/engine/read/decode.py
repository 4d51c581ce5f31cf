"""Bytes to text: find each file's encoding and say how it was decided.

Order: a byte-order mark; an HTML ``<meta charset>`` or XML declaration that the bytes agree
with; UTF-16 without a BOM (NULs at every other byte); strict UTF-8; GB18030 (a superset of GBK
and GB2312) or Big5, told apart by chardet when both decode; chardet on a sample for the rest.
Text that decodes with only a few bad bytes is kept, with the bad bytes replaced and counted.
A file read only in part (``cut``) may end inside a character: the bytes of that last character
are left out, not counted as bad (nor do they make GBK look like Big5).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, replace

SAMPLE_BYTES = 64 * 1024
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32"),
    (codecs.BOM_UTF8, "utf-8", "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
)
_DECLARED = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_.:-]+)"""
    rb"""|<\?xml[^>]+encoding\s*=\s*["']([a-zA-Z0-9_.:-]+)""",
    re.IGNORECASE,
)
# A declared GBK or GB2312 page is read as GB18030, which contains both.
_WIDER = {
    "gbk": "gb18030",
    "gb2312": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "big5": "big5hkscs",
    "ascii": "utf-8",
    "us-ascii": "utf-8",
    "iso-8859-1": "cp1252",
    "latin-1": "cp1252",
}
_MAGIC = (
    (b"\x89PNG", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF8", "GIF image"),
    (b"%PDF", "PDF document"),
    (b"PK\x03\x04", "ZIP archive or Office document"),
    (b"\x7fELF", "executable"),
    (b"\x1f\x8b", "gzip archive"),
    (b"BM", "BMP image"),
)
_PROSE_MARKS = re.compile(r"[ \n\t,.;:!?\u3000\u3001\u3002\uff0c\uff1b\uff1a\uff01\uff1f]")
_HANZI = re.compile(r"[\u4e00-\u9fff]")
_KANA = re.compile(r"[\u3041-\u30ff]")
_SPACED = re.compile(r"[\u4e00-\u9fff] [\u4e00-\u9fff]")  # one hanzi, a space, another
SAMPLE_CHARS = 4096  # the characters weighed to tell Chinese from another encoding misread
MAX_BAD_SHARE = 0.02  # more replaced characters than this and the file counts as undecodable


class DecodeError(ValueError):
    """The bytes are not text in any encoding tried."""


@dataclass(frozen=True)
class Decoded:
    """Decoded text with the encoding, how it was chosen and how many bytes were replaced."""

    text: str
    encoding: str
    method: str
    replaced: int = 0


# Codecs Python has that no page is written in: they turn other text into text (punycode,
# idna, escapes) and can fail on anything. A page naming one is decoded as if it named none.
_NOT_PAGE_ENCODINGS = frozenset(
    {"punycode", "idna", "raw_unicode_escape", "unicode_escape", "undefined", "palmos"}
)


def _python_codec(name: str) -> str | None:
    """Python's codec for an encoding's name, if it is one a text can be stored in."""
    name = _WIDER.get(name.lower(), name.lower())
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError, TypeError):
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_PAGE_ENCODINGS:
        return None  # rot13, base64, zlib, uu …: bytes-to-bytes or str-to-str transforms
    return info.name


def _strict(data: bytes, encoding: str, cut: bool = False) -> str | None:
    """``data`` decoded, or None where a byte is not ``encoding``'s.

    ``cut``: the bytes stop where a read stopped; a character begun in its last bytes is left
    out.
    """
    try:
        if cut:
            return codecs.getincrementaldecoder(encoding)().decode(data, final=False)
        return data.decode(encoding)
    except (UnicodeError, LookupError, ValueError, TypeError):
        return None


_PLAUSIBLE = re.compile(
    r"[\t\n\r\x20-\x7e\u00a0-\u017f\u0370-\u04ff\u2000-\u206f\u3000-\u303f"
    r"\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]"
)


def _plausible_share(text: str) -> float:
    """Share of characters that ordinary Chinese or Western prose is made of."""
    sample = text[:4096]
    return len(_PLAUSIBLE.findall(sample)) / max(1, len(sample))


def _utf16_without_bom(data: bytes) -> tuple[str, str] | None:
    """Decode UTF-16 that has no BOM, when one byte order gives plausible prose.

    Read in the wrong byte order (or when it is not UTF-16 at all) text turns into surrogates,
    Hangul, private-use or control characters, and loses its spaces and punctuation.
    """
    if len(data) % 2:
        return None
    for codec in ("utf-16-le", "utf-16-be"):
        text = _strict(data, codec)
        if text is not None and _plausible_share(text) > 0.95 and _looks_like_prose(text):
            return text, codec
    return None


def _chardet_guess(data: bytes) -> str | None:
    import chardet  # imported late: its first call is slow and most files never need it

    guess = chardet.detect(data[:SAMPLE_BYTES])
    name = guess.get("encoding")
    return _python_codec(name) if name else None


_MARKS_1252 = "‚„…†‡‰‹‘’“”•–—˜™›"  # Windows-1252's punctuation among bytes 0x80-0x9F


def _windows_1252_first(data: bytes, guess: str | None) -> str | None:
    """Windows-1252 where it reads the bytes as a code page ``guess`` does, or better.

    The commonest legacy encoding of Western text is taken when it gives the same text as
    chardet's guess, or when each of the bytes 0x80-0x9F the text holds is one of its
    typographic marks (``–``, ``’``, ``“``) and the guess reads one of them as a letter: a
    short English note with a dash and an apostrophe is no Mac Central European text
    (``Ė donít``). A guess that reads those bytes as the same marks (Windows-1250: Czech,
    Polish) or as letters Windows-1252 has too (``š``, ``Ž``) stands.
    """
    if guess in (None, "cp1252") or _strict(data, "cp1252") is None:
        return guess
    high = bytes(sorted({byte for byte in data[:SAMPLE_BYTES] if 0x80 <= byte <= 0x9F}))
    try:
        theirs = high.decode(guess)
    except (UnicodeDecodeError, LookupError):
        return guess  # a multi-byte guess: its lead bytes are no characters alone
    if len(theirs) != len(high):
        return guess
    ours = high.decode("cp1252")
    if high and all(mark in _MARKS_1252 for mark in ours) and any(c.isalpha() for c in theirs):
        return "cp1252"
    return "cp1252" if _strict(data, guess) == _strict(data, "cp1252") else guess


def _label(codec: str) -> str:
    """A short, familiar name for the CSV (gb18030, big5, utf-8, utf-16-le …)."""
    familiar = {
        "big5hkscs": "big5",
        "cp1252": "windows-1252",
        "cp1250": "windows-1250",
        "cp932": "shift-jis",
        "cp949": "euc-kr",
        "iso8859-15": "latin-9",
    }
    return familiar.get(codec, codec.replace("_", "-"))


def _with_replacement(data: bytes, codec: str, method: str) -> Decoded:
    text = data.decode(codec, errors="replace")
    replaced = text.count("\ufffd")
    if replaced > MAX_BAD_SHARE * max(1, len(text)):
        raise DecodeError(f"undecodable bytes: {replaced} of {len(text)} characters bad as {codec}")
    return Decoded(text, _label(codec), method, replaced)


def _reads_as_chinese(text: str) -> bool:
    """Whether text decoded as GB18030 reads as Chinese, not as another encoding misread.

    Chinese is mostly characters GB2312 has; Windows-1252 or Shift-JIS bytes read as GB18030
    give rare ones (a high byte before an ASCII letter), EUC-JP gives kana, EUC-KR gives
    "words" between spaces. Measured on the first characters, at the codecs' speed.
    """
    sample = text[:SAMPLE_CHARS]
    if _HANZI.search(sample) is None:
        return False
    wide = len(sample) - len(sample.encode("ascii", "ignore"))  # hanzi, kana, punctuation…
    rare = len(sample.encode("gb18030")) - len(sample.encode("gb2312", "ignore"))  # their bytes
    kana = len(_KANA.findall(sample))  # (few matches: fast)
    spaced = len(_SPACED.findall(sample))
    return rare <= 0.2 * wide and kana <= 0.05 * wide and spaced <= 0.1 * wide


def _mostly_utf8(data: bytes) -> bool:
    """Whether the bytes are UTF-8 with a few bad ones, not a legacy encoding.

    UTF-8 gives letters beyond ASCII and few replaced bytes; a legacy encoding read as UTF-8
    gives replaced bytes only, or mostly.
    """
    text = data[:SAMPLE_BYTES].decode("utf-8", errors="replace")
    bad = text.count("\ufffd")
    letters = len(text) - len(text.encode("ascii", "ignore")) - bad
    return letters > bad and bad <= MAX_BAD_SHARE * len(text)


def _looks_like_prose(text: str) -> bool:
    """Prose in any script has spaces, line breaks or punctuation; random bytes do not."""
    sample = text[:4096]
    return len(_PROSE_MARKS.findall(sample)) >= 0.02 * len(sample)


def sniff_binary(data: bytes) -> str | None:
    """Name the binary format of ``data`` when it is plainly not text, else None."""
    for magic, what in _MAGIC:
        if data.startswith(magic):
            return what
    return None


def refused_early(head: bytes) -> str | None:
    """Why a file whose first bytes are ``head`` is no text, when they already show it.

    The answer :func:`decode_bytes` gives for the whole file (a binary format, or NUL bytes in
    the first SAMPLE_BYTES that are not UTF-16), found before the rest is read; None when the
    head does not decide it.
    """
    if not head or any(head.startswith(bom) for bom, _, _ in _BOMS):
        return None
    if _DECLARED.search(head[:4096]):
        return None
    binary = sniff_binary(head)
    if binary:
        return f"binary file ({binary})"
    sample = head[:SAMPLE_BYTES]
    if b"\x00" not in sample or len(head) < SAMPLE_BYTES:
        return None
    if _utf16_without_bom(sample) or _utf16_without_bom(sample[:-2]):  # a pair cut at the end
        return None
    return "binary file (contains NUL bytes)"


def decode_bytes(data: bytes, *, declared: bool = True, cut: bool = False) -> Decoded:
    """Decode a file's bytes to text with normalised line endings.

    Args:
        data: the file's bytes.
        declared: trust an HTML/XML charset declaration when the bytes agree with it.
        cut: the file's first bytes only (a character begun at their end is left out).

    Raises:
        DecodeError: empty, binary or undecodable data.
    """
    decoded = _decode(data, declared, cut)
    if decoded.encoding == "gb18030" and _in_gbk(decoded.text):  # read as its superset
        decoded = replace(decoded, encoding="gbk")
    if "\r" not in decoded.text:  # most files: one quick search instead of two copies
        return decoded
    text = decoded.text.replace("\r\n", "\n").replace("\r", "\n")
    return Decoded(text, decoded.encoding, decoded.method, decoded.replaced)


def _in_gbk(text: str) -> bool:
    """Whether every character has a GBK code (else some only GB18030 codes).

    Such a file is GBK, as editors call it, though read as GB18030, which holds it.
    """
    try:
        text.encode("gbk")
    except UnicodeEncodeError:
        return False
    return True


def _decode(data: bytes, declared: bool, cut: bool = False) -> Decoded:
    if not data:
        raise DecodeError("empty file")
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :]
            text = _strict(body, codec, cut)
            if text is not None:
                return Decoded(text, label, "bom")
            return _with_replacement(body, codec, "bom")
    if declared:
        match = _DECLARED.search(data[:4096])
        if match:
            codec = _python_codec((match.group(1) or match.group(2)).decode("ascii"))
            text = _strict(data, codec, cut) if codec and "16" not in codec else None
            if text is not None:
                return Decoded(text, _label(codec), "declared")
    binary = sniff_binary(data)
    if binary:
        raise DecodeError(f"binary file ({binary})")
    text = _strict(data, "utf-8", cut)
    if text is not None and "\x00" not in text:
        return Decoded(text, "utf-8", "utf-8")
    even = data[: len(data) // 2 * 2]  # a stray last byte (or a cut) leaves UTF-16 readable
    wide = _utf16_without_bom(even)
    if wide:
        stray = 0 if cut else len(data) - len(even)  # counted as a replaced character
        return Decoded(wide[0], wide[1], "utf-16 without BOM", stray)
    if b"\x00" in data[:SAMPLE_BYTES]:
        raise DecodeError("binary file (contains NUL bytes)")
    if b"\x00" in data:  # past the sample: stray bytes in a text file, dropped and counted
        decoded = _decode(data.replace(b"\x00", b""), False, cut)
        return replace(decoded, replaced=decoded.replaced + data.count(b"\x00"))
    gb, big5 = _strict(data, "gb18030", cut), _strict(data, "big5hkscs", cut)
    if gb is not None and big5 is None and _reads_as_chinese(gb):
        return Decoded(gb, "gb18030", "gb18030")
    if big5 is not None and gb is None:
        return Decoded(big5, "big5", "big5")
    # Bytes GB18030 takes but that do not read as Chinese (Windows-1252 quotes before
    # letters, Shift-JIS, EUC-JP kana, EUC-KR words between spaces), or that Big5 takes too:
    # what the bytes are is weighed (chardet), not a preference for Chinese.
    guess = _windows_1252_first(data, _chardet_guess(data))
    if gb is not None and big5 is not None:
        if guess == "big5hkscs" or (guess or "").startswith("big5"):
            return Decoded(big5, "big5", "chardet")
        if guess in (None, "gb18030") or _reads_as_chinese(gb):
            return Decoded(gb, "gb18030", "chardet" if guess == "gb18030" else "gb18030")
    if guess and guess not in ("gb18030", "big5hkscs") and not _mostly_utf8(data):
        text = _strict(data, guess, cut)
        if text is not None and _looks_like_prose(text):
            return Decoded(text, _label(guess), "chardet")
    if gb is not None:
        return Decoded(gb, "gb18030", "chardet" if guess == "gb18030" else "gb18030")
    utf8 = data.decode("utf-8", errors="replace")
    if utf8.count("\ufffd") <= MAX_BAD_SHARE * len(utf8):
        return _with_replacement(data, "utf-8", "utf-8 with errors")
    for codec, method in ((guess, "chardet"), ("gb18030", "gb18030 with errors")):
        if codec:
            try:
                decoded = _with_replacement(data, codec, method)
            except DecodeError:
                continue
            if _looks_like_prose(decoded.text):
                return decoded
    raise DecodeError("undecodable bytes: not UTF-8, GB18030, Big5 or a known encoding")
