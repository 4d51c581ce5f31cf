"""Normalise text (width, case, quotes, traditional Chinese) and load the stopword lists."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.resources import resource

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]")


_QUOTES = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201f": '"',
    "\u2033": '"',
}


@cache
def _to_simplified() -> Callable[[str], str]:
    import opencc  # loaded on first use: texts without Chinese never need it

    return opencc.OpenCC("t2s").convert


@cache
def _char_table() -> npt.NDArray[np.uint32]:
    """Each BMP character's one-character NFKC form, curly quotes made straight.

    Characters whose NFKC form is longer (ligatures, circled numbers …) keep their place;
    :func:`normalize` leaves them, and composition, to ``unicodedata``.
    """
    table = np.arange(0x10000, dtype=np.uint32)
    for code in range(0x80, 0x10000):
        if 0xD800 <= code < 0xE000:
            continue  # surrogates are not characters
        form = unicodedata.normalize("NFKC", chr(code))
        if len(form) == 1:
            table[code] = ord(_QUOTES.get(form, form))
    return table


def _map_chars(text: str) -> str:
    """Apply :func:`_char_table` to every BMP character, in numpy (NFKC is ~10 MB/s here)."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    bmp = codes < 0x10000
    mapped = _char_table()[np.where(bmp, codes, 0)]
    return np.where(bmp, mapped, codes).astype("<u4").tobytes().decode("utf-32-le")


FORM_CHARS = 4  # the longest form :func:`local_forms` keeps


@cache
def _may_join_the_previous() -> frozenset[str]:
    """Characters that NFKC may reorder or compose with the character before them.

    Combining marks; the second characters of canonical compositions (among them a few
    ordinary-looking letters of Indic scripts); and the Hangul vowel and final jamo.
    """
    joining = {chr(code) for code in range(0x1161, 0x1176)} | {
        chr(code) for code in range(0x11A8, 0x11C3)
    }
    for code in range(0x20000):
        char = chr(code)
        if unicodedata.combining(char):
            joining.add(char)
        parts = unicodedata.decomposition(char).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            joining.add(chr(int(parts[1], 16)))
    return frozenset(joining)


class LocalForms(NamedTuple):
    """Each BMP character's form, for the texts whose form is found character by character.

    ``forms[0]``: its :func:`normalize` form; ``forms[1]``: the same before case folding (for
    texts with ideographs, which OpenCC converts before that); rows of up to ``FORM_CHARS``
    code points, of ``lengths[0]`` and ``lengths[1]``. A length of 0 marks a character whose
    form depends on its neighbours (NFKC may compose or reorder it with the one before) or is
    longer: a text with one is left to :func:`normalize`. ``chinese``: the form holds an
    ideograph. For the others, a text's form is its characters' forms one after another
    (tests check this against :func:`normalize`).
    """

    forms: npt.NDArray[np.uint32]
    lengths: npt.NDArray[np.uint8]
    chinese: npt.NDArray[np.bool_]


@cache
def local_forms() -> LocalForms:
    """The :class:`LocalForms` of this Python's Unicode tables (0.1 s, once per process)."""
    joining = _may_join_the_previous()
    quotes = str.maketrans(_QUOTES)
    plain: dict[int, str] = {}
    for code in range(0x10000):
        if 0xD800 <= code < 0xE000:
            continue  # surrogates are not characters
        char = chr(code)
        if unicodedata.normalize("NFKD", char)[0] not in joining:
            plain[code] = unicodedata.normalize("NFKC", char).translate(quotes)
    folded = {code: form.casefold() for code, form in plain.items()}
    kept = [c for c in plain if len(plain[c]) <= FORM_CHARS and len(folded[c]) <= FORM_CHARS]
    forms = np.zeros((2, 0x10000, FORM_CHARS), np.uint32)
    lengths = np.zeros((2, 0x10000), np.uint8)
    for table, found in enumerate((folded, plain)):
        for length in range(1, FORM_CHARS + 1):
            codes = [code for code in kept if len(found[code]) == length]
            joined = "".join(found[code] for code in codes).encode("utf-32-le")
            forms[table, codes, :length] = np.frombuffer(joined, "<u4").reshape(-1, length)
            lengths[table, codes] = length
    cjk = set(_CJK.findall("".join(plain[code] for code in kept)))
    chinese = np.zeros(0x10000, bool)
    chinese[[code for code in kept if cjk.intersection(plain[code])]] = True
    return LocalForms(forms, lengths, chinese)


def normalize(text: str) -> str:
    """NFKC, traditional Chinese to simplified, straight quotes, case folded.

    Full-width and curly forms become plain ones and 鐵路 becomes 铁路, so a repost that only
    changed these is the same text. The result equals ``unicodedata.normalize("NFKC", text)``
    followed by the rest; characters are first mapped to their one-character NFKC forms in
    bulk (this keeps each character's full decomposition, so NFKC of the result is NFKC of the
    text), and ``unicodedata`` only runs when something is left to do.

    >>> normalize("ＡＢＣ，１２３ “鐵路” ﬁne")
    'abc,123 "铁路" fine'
    """
    if text.isascii():
        return text.lower()  # the same as casefold for ASCII, and faster
    if not unicodedata.is_normalized("NFKC", text):  # a quick check, in C
        text = _map_chars(text).replace("\u2026", "...")  # the commonest longer NFKC form
        if not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
    for curly, straight in _QUOTES.items():
        if curly in text:
            text = text.replace(curly, straight)
    return simplified(text) if has_cjk(text) else text.casefold()


def simplified(text: str) -> str:
    """Traditional Chinese made simplified (OpenCC), then case folded: normalize's last steps."""
    return _to_simplified()(text).casefold()


def has_cjk(text: str) -> bool:
    """Whether the text contains any CJK ideograph."""
    return _CJK.search(text) is not None


@cache
def stopwords(language: str) -> frozenset[str]:
    """The bundled stopword list of a language (``zh`` or ``en``), normalised."""
    path = resource("stopwords", f"{language}.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(normalize(w.strip()) for w in lines if w.strip() and not w.startswith("#"))


@cache
def all_stopwords() -> frozenset[str]:
    """The Chinese and English stopwords together."""
    return stopwords("zh") | stopwords("en")
