r"""A text's lines by hash: the evidence of what the files of a folder share as template.

A line is what lies between two line breaks of a normalised text, its whitespace left out. Each
line of a text is kept as one 64-bit value (:func:`line_value`): the line's length in characters
(at most 65,535) in the top 16 bits, a 48-bit hash of its characters below. A line that many
files share, files that are not otherwise copies of each other, is a site's header or footer, a
manual's macro residue, a legal notice or a quoted passage (``match/template.py``); a text read
again without such lines (:func:`without_lines`) is what is its own.

>>> batch = Batch.normalized(["Header\nOur own story.\n\nFooter", "Header\nAnother one."])
>>> first, second = (line_values(v) for v in lines_of(batch))
>>> len(first), len(second), len(set(first.tolist()) & set(second.tolist()))
(3, 2, 1)
>>> without_lines(batch, line_hashes(first[np.isin(first, second)]))
['our own story.\n\nfooter', 'another one.']
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.fingerprint.codes import LINE_BASE, LINE_HASH_BITS
from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.text.tokens import Batch, mix

MOST_LINES = 4_096  # lines a record keeps: of a longer text, its first and last
_HASH_MASK = (1 << LINE_HASH_BITS) - 1
_MASK = (1 << 64) - 1
U64 = npt.NDArray[np.uint64]


def line_value(line: str) -> int:
    """A line's value: its length and hash (the definition ``kernels.line_values`` computes).

    The hash is the polynomial of its characters (whitespace left out) in the base LINE_BASE,
    the first character times the base, the next times its square, and so on (the powers start
    over every 65,536 places), modulo 2**64, with its length mixed in (``tokens.mix``).
    """
    chars = [ord(c) for c in line if not c.isspace()]
    total, power = 0, LINE_BASE
    for place, char in enumerate(chars, 1):
        total = (total + char * power) & _MASK
        power = LINE_BASE if place % (1 << 16) == 0 else (power * LINE_BASE) & _MASK
    hashed = mix(total ^ len(chars)) & _HASH_MASK
    return (min(len(chars), (1 << (64 - LINE_HASH_BITS)) - 1) << LINE_HASH_BITS) | hashed


def lines_of(batch: Batch) -> list[bytes]:
    """Each text's lines in order (:func:`line_values` reads them).

    Of a text of over MOST_LINES lines, its first and last.
    """
    kernels = kernel_module("simdup_gui.engine.fingerprint.kernels")

    values, texts, _, _ = kernels.line_values(batch.codes, batch.flags, batch.bounds)
    cuts = np.searchsorted(texts, np.arange(len(batch.bounds)))
    if (np.diff(cuts) > MOST_LINES).any():
        keep = np.ones(len(values), bool)
        for lo, hi in pairwise(cuts.tolist()):
            keep[lo + MOST_LINES // 2 : hi - MOST_LINES // 2] = False
        texts, values = texts[keep], values[keep]
        cuts = np.searchsorted(texts, np.arange(len(batch.bounds)))
    data = values.astype("<u8").tobytes()
    return [data[8 * lo : 8 * hi] for lo, hi in pairwise(cuts.tolist())]


def line_values(kept: bytes) -> U64:
    """A record's line values (its ``lines`` bytes)."""
    return np.frombuffer(kept, dtype="<u8").astype(np.uint64)


def line_hashes(values: U64) -> U64:
    """The hashes of line values (their length left out)."""
    return values & np.uint64(_HASH_MASK)


def line_lengths(values: U64) -> npt.NDArray[np.int64]:
    """The lengths, in characters, of line values."""
    return (values >> np.uint64(LINE_HASH_BITS)).astype(np.int64)


def without_lines(batch: Batch, dropped: U64) -> list[str]:
    """The batch's texts without the lines whose hashes are ``dropped``, each stripped.

    A line's characters go; the line breaks around it stay.
    """
    kernels = kernel_module("simdup_gui.engine.fingerprint.kernels")

    values, _, starts, ends = kernels.line_values(batch.codes, batch.flags, batch.bounds)
    gone = np.isin(line_hashes(values), dropped)
    change = np.zeros(len(batch.codes) + 1, np.int64)
    np.add.at(change, starts[gone], 1)
    np.add.at(change, ends[gone], -1)
    keep = np.cumsum(change[:-1]) == 0
    kept = np.concatenate(([0], np.cumsum(keep)))
    codes = batch.codes[keep].astype("<u4").tobytes().decode("utf-32-le")
    return [
        codes[lo:hi].strip()
        for lo, hi in zip(
            kept[batch.bounds[:-1]].tolist(), kept[batch.bounds[1:]].tolist(), strict=True
        )
    ]
