"""Normalise text and cut it into tokens: jieba words for Chinese, words for Latin text.

Chinese is segmented with rjieba (jieba-rs: the jieba dictionary and algorithm in Rust, the same
tokens as ``jieba.lcut`` about 8x faster, and it releases the GIL so a thread pool scales).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache

import rjieba

from simdup_gui.engine.resources import resource

Tokenizer = Callable[[str], list[str]]

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_HAS_WORD_CHAR = re.compile(r"[^\W_]")


_QUOTES = (
    ("\u2018", "'"),
    ("\u2019", "'"),
    ("\u201b", "'"),
    ("\u2032", "'"),
    ("\u201c", '"'),
    ("\u201d", '"'),
    ("\u201f", '"'),
    ("\u2033", '"'),
)


@cache
def _to_simplified() -> Callable[[str], str]:
    import opencc  # loaded on first use: texts without Chinese never need it

    return opencc.OpenCC("t2s").convert


def normalize(text: str) -> str:
    """NFKC, traditional Chinese to simplified, straight quotes, case folded.

    Full-width and curly forms become plain ones and 鐵路 becomes 铁路, so a repost that only
    changed these is the same text.
    """
    text = unicodedata.normalize("NFKC", text)
    if has_cjk(text):
        text = _to_simplified()(text)
    for curly, straight in _QUOTES:
        if curly in text:
            text = text.replace(curly, straight)
    return text.casefold()


def has_cjk(text: str) -> bool:
    """Whether the text contains any CJK ideograph."""
    return _CJK.search(text) is not None


def word_tokens(text: str) -> list[str]:
    """Tokens of Latin-script (and other space-separated) text: runs of letters and digits."""
    return _WORD.findall(text)


def mixed_tokens(text: str) -> list[str]:
    """Tokens of any text: jieba words where there is Chinese, plain words elsewhere.

    jieba also returns spaces and punctuation as tokens; :func:`is_word` tells them apart
    (callers count first and filter the distinct tokens, which is much cheaper).
    """
    return rjieba.cut(text) if has_cjk(text) else word_tokens(text)


def is_word(token: str) -> bool:
    """Whether a token has a letter, digit or ideograph (not only spaces and punctuation)."""
    return _HAS_WORD_CHAR.search(token) is not None


def char_tokens(text: str) -> list[str]:
    """One token per CJK character, words for the rest (no dictionary needed)."""
    return [m.group() for m in re.finditer(rf"{_CJK.pattern}|{_WORD.pattern}", text)]


TOKENIZERS: dict[str, Tokenizer] = {"words": mixed_tokens, "chars": char_tokens}


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
