"""The survey's other fingerprints: MinHash, the longest sentences, pinyin-initial frequencies.

Each method turns a normalised text into a **signature**, kept in the record's ``signature``
bytes; its ``fingerprint`` is then a 64-bit digest of the signature (the same text, the same
value: exact copies are found by it and a file is re-checked by it). How signatures are paired
is ``match/methods.py``; what each method is good and bad at is docs/methods.md.

* ``minhash``: for each of NUM_PERM hash functions, the smallest value over the text's distinct
  5-character shingles (Broder); the share of equal values estimates the Jaccard similarity.
* ``sentences``: the hashes of the N longest sentences (split after Chinese and English
  sentence punctuation, letters and digits kept), sorted.
* ``pinyin``: how often each letter starts the pinyin of the text's Chinese characters
  (pypinyin's reading of each character), a Latin letter counting as itself and a digit as
  itself: 36 counts, scaled to length one (float32).

>>> a = signatures(["今天天气很好。我们去公园散步吧！公园里的花都开了。"], Method("sentences"))[0]
>>> len(a.signature) // 8, a.items
(3, 3)
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import distinct
from simdup_gui.engine.fingerprint.codes import SHINGLE, SHINGLE_BASE
from simdup_gui.engine.options import NUM_PERM, Method
from simdup_gui.engine.text.normalize import normalize

LETTERS = 36  # pinyin: a-z, then 0-9
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;…])|(?<=\.)(?=\s)|\n")
_NOT_WORD = re.compile(r"[\W_]+")
_U64 = np.uint64


class Signed(NamedTuple):
    """A text's signature under a method, its digest, and how many items it was made of."""

    signature: bytes
    fingerprint: int
    items: int  # distinct shingles, sentences, or letters counted


def signatures(texts: list[str], method: Method) -> list[Signed]:
    """Each text's signature under ``method`` (minhash, sentences or pinyin)."""
    make = {"minhash": minhash, "sentences": longest_sentences, "pinyin": letter_vector}
    if method.name not in make:
        raise ValueError(f"{method.name} has no signature")
    out = []
    for text in texts:
        values, items = make[method.name](normalize(text).strip(), method)
        data = values.tobytes()
        out.append(Signed(data, _digest(data), items))
    return out


def _digest(data: bytes) -> int:
    """A 64-bit digest of some bytes."""
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def mix_array(values: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """SplitMix64's finaliser on each value (``tokens.mix`` for arrays)."""
    with np.errstate(over="ignore"):
        values = (values ^ (values >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
        values = (values ^ (values >> _U64(27))) * _U64(0x94D049BB133111EB)
    return values ^ (values >> _U64(31))


def all_shingles(text: str, size: int = SHINGLE) -> npt.NDArray[np.uint64]:
    """The distinct hashes of a text's runs of ``size`` characters (``shingles.shingle_hashes``).

    >>> from simdup_gui.engine.fingerprint.shingles import shingle_hashes
    >>> text = "the quick brown fox"
    >>> all_shingles(text).tolist() == sorted(set(shingle_hashes(text)))
    True
    """
    codes = np.frombuffer(" ".join(text.split()).encode("utf-32-le"), "<u4").astype(np.uint64)
    if len(codes) < size:
        return mix_array(codes[:1])
    runs = len(codes) - size + 1
    value = np.zeros(runs, np.uint64)
    with np.errstate(over="ignore"):
        for at in range(size):
            value = value * _U64(SHINGLE_BASE) + codes[at : at + runs]
    return distinct(mix_array(value))


@cache
def _permutations() -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """NUM_PERM hash functions ``(a * x + b) mod 2**64``, top 32 bits (a odd), fixed for good."""
    rng = np.random.default_rng(20240521)
    a = rng.integers(0, 2**63, NUM_PERM, dtype=np.uint64) * _U64(2) + _U64(1)
    b = rng.integers(0, 2**63, NUM_PERM, dtype=np.uint64)
    return a, b


def minhash(text: str, method: Method) -> tuple[npt.NDArray[np.uint32], int]:
    """A text's MinHash signature (NUM_PERM little-endian uint32s) and its shingle count."""
    shingles = all_shingles(text)
    a, b = _permutations()
    low = np.full(NUM_PERM, 2**32 - 1, np.uint64)
    with np.errstate(over="ignore"):
        for lo in range(0, len(shingles), 4096):  # in slices: 4096 x NUM_PERM values at once
            values = (shingles[lo : lo + 4096, None] * a + b) >> _U64(32)
            low = np.minimum(low, values.min(axis=0))
    return low.astype("<u4"), len(shingles)


def sentences(text: str) -> list[str]:
    r"""A text's sentences with only their letters and digits, empty ones left out.

    >>> sentences("First one. Second, here!\n第三句。")
    ['Firstone', 'Secondhere', '第三句']
    """
    pieces = (_NOT_WORD.sub("", piece) for piece in _SENTENCE_END.split(text))
    return [piece for piece in pieces if piece]


def longest_sentences(text: str, method: Method) -> tuple[npt.NDArray[np.uint64], int]:
    """The sorted hashes of a text's ``method.sentences`` longest distinct sentences.

    The longest first, the earlier of equally long ones; returns the hashes and how many.
    """
    found = list(dict.fromkeys(sentences(text)))  # distinct, in order
    longest = sorted(range(len(found)), key=lambda n: (-len(found[n]), n))[: method.sentences]
    hashes = np.array(sorted(_digest(found[n].encode()) for n in longest), dtype="<u8")
    return hashes, len(hashes)


@cache
def _letter_slots() -> npt.NDArray[np.int8]:
    """For each code point up to pypinyin's last: its letter's slot (0-35), or -1."""
    from pypinyin import Style  # imported here: only the pinyin method needs it
    from pypinyin.pinyin_dict import pinyin_dict
    from pypinyin.style import convert

    slots = np.full(max(pinyin_dict) + 1, -1, np.int8)
    for code, readings in pinyin_dict.items():
        initial = convert(readings.split(",")[0], Style.FIRST_LETTER, strict=False)[:1].lower()
        if "a" <= initial <= "z":
            slots[code] = ord(initial) - ord("a")
    for letter in range(26):
        slots[ord("a") + letter] = slots[ord("A") + letter] = letter
    for digit in range(10):
        slots[ord("0") + digit] = 26 + digit
    return slots


def letter_vector(text: str, method: Method) -> tuple[npt.NDArray[np.float32], int]:
    """The text's 36 letter counts (pinyin initials, Latin letters, digits) at length one."""
    slots = _letter_slots()
    codes = np.frombuffer(text.encode("utf-32-le"), "<u4")
    found = slots[codes[codes < len(slots)]]
    counts = np.bincount(found[found >= 0], minlength=LETTERS).astype(np.float64)
    norm = float(np.sqrt(counts @ counts))
    return (counts / norm if norm else counts).astype("<f4"), int(counts.sum())
