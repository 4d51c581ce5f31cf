"""Normalise text (width, case, quotes, traditional Chinese) and load the stopword lists."""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable
from functools import cache
from itertools import compress
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.kernels import kernel_module
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


# By OpenCC release: the characters its t2s changes only inside a phrase of its dictionaries,
# in phrases holding no character it changes alone (沈默 → 沉默, though 沈 alone stays; 反覆 →
# 反复). Written by ``tools/opencc_phrase_chars.py``; a release not listed converts every text
# with ideographs (:func:`may_convert`).
PHRASE_ONLY = {
    "1.4.2": "哩坏沈甦瞭藉衹覆",
}


@cache
def _to_simplified() -> Callable[[str], str]:
    import opencc  # loaded on first use: texts without Chinese never need it

    return opencc.OpenCC("t2s").convert


def may_convert(chars: list[str]) -> list[bool]:
    """Whether OpenCC's t2s may change a text holding each of ``chars`` (ideographs).

    A character it changes alone, or one it changes inside a phrase (``PHRASE_ONLY``); a text
    holding neither is left as it is (a phrase it converts otherwise holds one of them). It
    changes no character but ideographs (the tool checks). Where the installed OpenCC is not
    listed, every character may.
    """
    if not chars:
        return []
    import opencc

    phrase_only = PHRASE_ONLY.get(opencc.__version__)
    if phrase_only is None:
        return [True] * len(chars)
    alone = _to_simplified()("\n".join(chars)).split("\n")  # one call: each by itself
    return [a != b or a in phrase_only for a, b in zip(chars, alone, strict=True)]


@cache
def _char_table() -> npt.NDArray[np.uint32]:
    """Each BMP character's one-character NFKC form, curly quotes made straight.

    Characters whose NFKC form is longer (ligatures, circled numbers …) keep their place;
    :func:`normalize` leaves them, and composition, to ``unicodedata``. All in one call, the
    characters joined with NUL between them (see :func:`_make_rows`): 0.03 s, against 0.14 s
    a character at a time, in each process's first fingerprinting.
    """
    table = np.arange(0x10000, dtype=np.uint32)
    codes = np.r_[0x80:0xD800, 0xE000:0x10000]  # no surrogates: they are not characters
    chars = "\0".join(map(chr, codes.tolist()))
    forms = unicodedata.normalize("NFKC", chars).translate(str.maketrans(_QUOTES)).split("\0")
    one = np.fromiter(map(len, forms), dtype=np.int64, count=len(forms)) == 1
    kept = "".join([form for form, single in zip(forms, one.tolist(), strict=True) if single])
    table[codes[one]] = np.frombuffer(kept.encode("utf-32-le"), "<u4")
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
    chars = list(map(chr, range(0x20000)))
    joining = {chr(code) for code in range(0x1161, 0x1176)} | {
        chr(code) for code in range(0x11A8, 0x11C3)
    }
    joining.update(compress(chars, map(unicodedata.combining, chars)))  # no Python per char
    for decomposition in filter(None, map(unicodedata.decomposition, chars)):
        parts = decomposition.split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            joining.add(chr(int(parts[1], 16)))
    return frozenset(joining)


class LocalForms(NamedTuple):
    """Each BMP character's form, for the texts whose form is found character by character.

    ``forms[0]``: its :func:`normalize` form; ``forms[1]``: the same before case folding (for
    texts with ideographs OpenCC may change, which it converts before that); rows of up to
    ``FORM_CHARS`` code points, of ``lengths[0]`` and ``lengths[1]``. A length of 0 marks a
    character whose form depends on its neighbours (NFKC may compose or reorder it with the
    one before) or is longer: a text with one is left to :func:`normalize`. ``traditional``:
    the form holds an ideograph OpenCC may change (:func:`may_convert`; a text with none is
    the same converted, so it takes ``forms[0]``). For the others, a text's form is its
    characters' forms one after another (tests check this against :func:`normalize`).
    """

    forms: npt.NDArray[np.uint32]
    lengths: npt.NDArray[np.uint8]
    traditional: npt.NDArray[np.bool_]


class _Tables:
    """The :class:`LocalForms` arrays and which characters' rows are made (the rest are 0)."""

    def __init__(self) -> None:
        self.forms = LocalForms(
            np.zeros((2, 0x10000, FORM_CHARS), np.uint32),
            np.zeros((2, 0x10000), np.uint8),
            np.zeros(0x10000, bool),
        )
        self.made = np.zeros(0x10000, bool)
        self.made[0xD800:0xE000] = True  # surrogates are not characters: no form (length 0)
        self.lock = threading.Lock()


_tables = _Tables()


def local_forms(codes: npt.NDArray[np.integer] | None = None) -> LocalForms:
    """The :class:`LocalForms`, with the rows of the BMP characters among ``codes`` made.

    Rows are made on first need (all of them when ``codes`` is None): a text reads a few
    thousand distinct characters, and making all 63,000 takes about 0.07 s.
    """
    if codes is None:
        wanted = np.arange(0x10000)
    else:  # rows are only ever made: checked again below, under the lock
        wanted = kernel_module("simdup_gui.engine.text.token_kernels").unmade(codes, _tables.made)
    with _tables.lock:
        missing = wanted[~_tables.made[wanted]]
        if len(missing):
            _make_rows(_tables.forms, missing)
            _tables.made[missing] = True
    return _tables.forms


def _make_rows(tables: LocalForms, codes: npt.NDArray[np.integer]) -> None:
    """Fill the rows of ``codes`` (no surrogates) from ``unicodedata``, all in one string.

    The characters are joined with NUL between them, which neither composes nor reorders with
    anything, so each piece of the result is one character's form; NUL is its own form.
    """
    forms, lengths, traditional = tables
    if codes[0] == 0:
        lengths[:, 0], codes = 1, codes[1:]
    if not len(codes):
        return
    chars = "\0".join(map(chr, codes.tolist()))
    firsts = unicodedata.normalize("NFKD", chars).split("\0")
    nfkc = unicodedata.normalize("NFKC", chars).translate(str.maketrans(_QUOTES))
    found = [nfkc.casefold().split("\0"), nfkc.split("\0")]
    sizes = np.array([list(map(len, forms)) for forms in found]).reshape(2, len(codes))
    joining = _may_join_the_previous()
    local = np.array([first[:1] not in joining for first in firsts], bool)
    kept = local & (sizes <= FORM_CHARS).all(axis=0)
    for table, texts in enumerate(found):
        for length in range(1, FORM_CHARS + 1):
            same = np.flatnonzero(kept & (sizes[table] == length))
            joined = "".join([texts[at] for at in same.tolist()]).encode("utf-32-le")
            forms[table, codes[same], :length] = np.frombuffer(joined, "<u4").reshape(-1, length)
            lengths[table, codes[same]] = length
    at_kept = np.flatnonzero(kept)
    owner = np.repeat(codes[at_kept], sizes[1][at_kept])  # the character each form's came from
    text = "".join([found[1][at] for at in at_kept.tolist()])
    ideographs = [match.start() for match in _CJK.finditer(text)]
    seen = sorted({text[at] for at in ideographs})
    changes = {char for char, may in zip(seen, may_convert(seen), strict=True) if may}
    traditional[owner[[at for at in ideographs if text[at] in changes]]] = True


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
