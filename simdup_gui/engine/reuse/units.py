r"""A text's units, as CNKI's copy check counts them: a Chinese character, or a word.

A unit is a CJK ideograph, or a run of other letters and digits; punctuation and whitespace
are no units, so a copy that only changed them (full-width commas, a line broken elsewhere) is
the same run of units. Each character is first put in its canonical form, one character for one
(NFKC, straight quotes, traditional Chinese made simplified, case folded: :func:`canonical`),
so a unit's place in the form is its place in the text, and a copied passage can be shown where
it stands. Units are hashed by their characters (a polynomial, mixed); runs of RUN units by
their units' hashes (:func:`run_hashes`).

>>> units = text_units("The harbour's light, 春运返乡。")
>>> [text for text in units.texts("The harbour's light, 春运返乡。")]
['The', 'harbour', 's', 'light', '春', '运', '返', '乡']
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.text.codes import IDEOGRAPH
from simdup_gui.engine.text.tokens import char_flags, code_points

RUN = 6  # units a run hash covers (the passage fingerprints' and the alignment's)
U64 = npt.NDArray[np.uint64]
Index = npt.NDArray[np.int64]


@cache
def _canonical_table() -> npt.NDArray[np.uint32]:
    """Each BMP character's canonical form, one character (itself where the form is longer).

    Its one-character NFKC form (``normalize._char_table``), made simplified by OpenCC if an
    ideograph, then case folded.
    """
    from simdup_gui.engine.text.normalize import _char_table, simplified

    table = _char_table().copy()
    ideographs = np.flatnonzero((char_flags(table) & IDEOGRAPH) != 0)
    converted = simplified("\n".join(chr(c) for c in table[ideographs].tolist())).split("\n")
    if len(converted) == len(ideographs):
        ones = np.array([len(c) == 1 for c in converted])
        table[ideographs[ones]] = np.array([ord(c) for c in converted if len(c) == 1], np.uint32)
    folded = "\n".join(chr(c) if c != 10 else " " for c in table.tolist()).casefold().split("\n")
    if len(folded) == len(table):
        ones = np.array([len(f) == 1 for f in folded])
        table[ones] = np.array([ord(f) for f in folded if len(f) == 1], np.uint32)
    table[10] = 10
    return table


def canonical(codes: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    """The code points in canonical form, one for one (characters past the BMP as they are).

    ASCII alone is only case folded: the table's form of it (not built for it: 0.3 s).
    """
    if not len(codes) or int(codes.max()) < 0x80:
        upper = (codes >= ord("A")) & (codes <= ord("Z"))
        return np.where(upper, codes + 32, codes).astype(np.uint32)
    bmp = codes < 0x10000
    return np.where(bmp, _canonical_table()[np.where(bmp, codes, 0)], codes).astype(np.uint32)


class Units(NamedTuple):
    """A text's units: where each starts and ends (characters of the text), and its hash."""

    starts: Index
    ends: Index
    hashes: U64

    def texts(self, text: str) -> list[str]:
        """The units as the text writes them."""
        return [text[a:b] for a, b in zip(self.starts.tolist(), self.ends.tolist(), strict=True)]

    def __len__(self) -> int:
        return len(self.starts)


def text_units(text: str) -> Units:
    """The units of a text (see the module)."""
    codes = canonical(code_points(text))
    return Units(*loops().units_of(codes, char_flags(codes)))


def run_hashes(hashes: U64, run: int = RUN) -> U64:
    """The hash of each run of ``run`` units (none for fewer units), in order.

    >>> hashes = text_units("一二三四五六七").hashes
    >>> len(run_hashes(hashes)), bool(run_hashes(hashes[1:])[0] == run_hashes(hashes)[1])
    (2, True)
    """
    return loops().run_hashes(hashes, run)


def loops() -> Any:
    """The reuse report's compiled loops (``reuse/kernels.py``), in the form in force."""
    return kernel_module("simdup_gui.engine.reuse.kernels")
