"""The telltales' passes over a text's characters, compiled by numba (see ``telltales.py``).

A kernel module as ``token_kernels.py`` is: compiled loops, constants and array types only,
imported by its caller inside the function that needs it. Each loop has a twin below for the
plain form (numpy's, Python's string methods), and the tests hold both to the telltales'
definitions, character by character and line by line.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from simdup_gui.engine.arrays import Codes, Flags, Index
from simdup_gui.engine.text.codes import (
    ASTRAL_IDEOGRAPHS,
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

_JIT = {"cache": True, "nogil": True}


@njit(**_JIT)
def telltale_counts(codes: Codes, classes: Flags) -> Index:
    """One text's counts for its telltales (``telltales.py``), in one pass over its characters.

    ``classes`` holds each BMP character's ``TELL_*`` bits (its last entry, every other plane's).
    The counts, in order: U+FFFD; rare ideographs (outside GB 2312, astral ones too); ASCII
    punctuation beside an ideograph; full- and half-width letters or digits side by side;
    full-width punctuation; ideographs; ASCII letters; words (runs of non-space); spaces.
    """
    counts = np.zeros(TELLTALE_COUNTS, np.int64)
    last = len(classes) - 1
    before = TELL_SPACE  # the previous character's classes (a space before the first)
    waiting = False  # the previous character is ASCII punctuation not counted yet
    for code in codes:
        now = classes[min(code, last)]
        if ASTRAL_IDEOGRAPHS[0] <= code < ASTRAL_IDEOGRAPHS[1]:
            now |= TELL_IDEOGRAPH | TELL_RARE
        if code == 0xFFFD:
            counts[0] += 1
        if now & TELL_RARE:
            counts[1] += 1
        if now & TELL_ASCII_PUNCTUATION:
            if before & TELL_IDEOGRAPH:
                counts[2] += 1
            waiting = not before & TELL_IDEOGRAPH
        else:
            if waiting and now & TELL_IDEOGRAPH:
                counts[2] += 1
            waiting = False
        if (now & TELL_FULL_ALNUM and before & TELL_HALF_ALNUM) or (
            now & TELL_HALF_ALNUM and before & TELL_FULL_ALNUM
        ):
            counts[3] += 1
        if now & TELL_FULL_PUNCTUATION:
            counts[4] += 1
        if now & TELL_IDEOGRAPH:
            counts[5] += 1
        if 0x61 <= (code | 0x20) <= 0x7A:
            counts[6] += 1
        if now & TELL_SPACE:
            counts[8] += 1
        elif before & TELL_SPACE:
            counts[7] += 1
        before = now
    return counts


def telltale_counts_numpy(codes: Codes, classes: Flags) -> Index:
    """:func:`telltale_counts` by numpy, for the plain form."""
    now = classes[np.minimum(codes, len(classes) - 1)]
    astral = (codes >= ASTRAL_IDEOGRAPHS[0]) & (codes < ASTRAL_IDEOGRAPHS[1])
    now = now | np.where(astral, TELL_IDEOGRAPH | TELL_RARE, 0).astype(np.uint8)
    ideograph = (now & TELL_IDEOGRAPH) != 0
    beside = np.zeros(len(codes), np.bool_)  # an ideograph before or after each character
    beside[1:] |= ideograph[:-1]
    beside[:-1] |= ideograph[1:]
    full, half = (now & TELL_FULL_ALNUM) != 0, (now & TELL_HALF_ALNUM) != 0
    mixed = (full[1:] & half[:-1]) | (half[1:] & full[:-1])
    space = (now & TELL_SPACE) != 0
    starts = ~space
    starts[1:] &= space[:-1]
    letter = ((codes | 0x20) >= 0x61) & ((codes | 0x20) <= 0x7A)
    return np.array(
        [
            (codes == 0xFFFD).sum(),
            ((now & TELL_RARE) != 0).sum(),
            (((now & TELL_ASCII_PUNCTUATION) != 0) & beside).sum(),
            mixed.sum(),
            ((now & TELL_FULL_PUNCTUATION) != 0).sum(),
            ideograph.sum(),
            letter.sum(),
            starts.sum(),
            space.sum(),
        ],
        np.int64,
    )


@njit(**_JIT)
def notice_chars(
    codes: Codes,
    classes: Flags,
    fold: Codes,
    first: Index,
    following: Index,
    chars: Codes,
    bounds: Index,
    limit: int,
) -> int:
    """The characters of a text's short lines that hold a notice word (``telltales.py``).

    The words are ``chars[bounds[w]:bounds[w + 1]]``; ``first[c]`` is the first word that
    starts with the character ``c`` (-1: none), ``following[w]`` the next one after word ``w``.
    Characters are compared as ``fold`` gives them (each BMP character's one-character lower
    case; the last entry, other planes'). A line counts when, stripped, it is at most
    ``limit`` long. Returns -1 for a text with line breaks other than the line feed.
    """
    last = len(classes) - 1
    total, start, size = 0, 0, len(codes)
    lead, tail, notice = -1, -1, False  # the line's first and last non-space, a word in it
    for at in range(size + 1):
        code = codes[at] if at < size else 10
        if code == 10:
            if notice and tail - lead + 1 <= limit:
                total += at - start
            start, lead, tail, notice = at + 1, -1, -1, False
            continue
        now = classes[min(code, last)]
        if now & TELL_OTHER_BREAK:
            return -1
        if not now & TELL_SPACE:
            tail = at
            if lead < 0:
                lead = at
        word = -1 if notice else first[fold[min(code, last)]]
        while word >= 0:
            lo, hi = bounds[word], bounds[word + 1]
            if at + hi - lo <= size:
                step = 1
                while step < hi - lo and fold[min(codes[at + step], last)] == chars[lo + step]:
                    step += 1
                if step == hi - lo:
                    notice = True
                    break
            word = following[word]
    return total


def notice_chars_by_lines(
    codes: Codes,
    classes: Flags,
    fold: Codes,
    first: Index,
    following: Index,
    chars: Codes,
    bounds: Index,
    limit: int,
) -> int:
    """:func:`notice_chars` by Python's string methods, for the plain form."""
    if (classes[np.minimum(codes, len(classes) - 1)] & TELL_OTHER_BREAK).any():
        return -1
    joined = chars.tobytes().decode("utf-32-le")
    words = [joined[lo:hi] for lo, hi in itertools.pairwise(bounds.tolist())]
    text = codes.tobytes().decode("utf-32-le", "surrogatepass")
    return sum(
        len(line)
        for line in text.split("\n")
        if len(line.strip()) <= limit and any(word in line.lower() for word in words)
    )


PLAIN_FORMS = {  # used instead by the plain form
    "telltale_counts": telltale_counts_numpy,
    "notice_chars": notice_chars_by_lines,
}
