"""The per-character loops of reading text, compiled by numba: one pass each, no Python.

This module and ``fingerprint/kernels.py`` (and ``read/html_kernels.py``) follow one rule: a
kernel module holds only compiled loops and imports only constants and array types; its callers
import it inside the function that needs it, so numba (a quarter of a second to import) is only
loaded by work that fingerprints — an unchanged folder's rescan never needs it. Each loop's
result is defined by plain Python beside its caller (``tokens.token_hash``, ``word_spans`` …)
and tests check the loops against those definitions. Compiled code is cached on disk
(``cache=True``), so only the first run on a machine pays for compiling.

Every function here works on a batch of texts joined into one array of code points, with the
``bounds`` where each text starts and ends (see ``tokens.py``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from simdup_gui.engine.arrays import F64, U64, Bools, Codes, Flags, Index
from simdup_gui.engine.text.codes import (
    GOLDEN,
    IDEOGRAPH,
    MIXERS,
    SPACE,
    TOKEN_BASE,
    WORD,
)

APOSTROPHE = 39
LINE_BREAK, CARRIAGE_RETURN, BLANK = np.uint32(10), np.uint32(13), np.uint32(32)
_TOKEN_BASE, _GOLDEN = np.uint64(TOKEN_BASE), np.uint64(GOLDEN)
_M1, _M2 = (np.uint64(m) for m in MIXERS)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_JIT = {"cache": True, "nogil": True}


@njit(**_JIT)
def mix(value: np.uint64) -> np.uint64:
    """SplitMix64 finaliser: spreads a polynomial hash over all 64 bits."""
    value = (value ^ (value >> _S30)) * _M1
    value = (value ^ (value >> _S27)) * _M2
    return value ^ (value >> _S31)


@njit(**_JIT)
def unmade(codes: Codes, made: Bools) -> Index:
    """The distinct code points among ``codes`` below ``len(made)`` not ``made``, ascending."""
    wanted = np.zeros(len(made), np.bool_)
    for code in codes:
        if code < len(made) and not made[code]:
            wanted[code] = True
    return np.flatnonzero(wanted)


def unmade_numpy(codes: Codes, made: Bools) -> Index:
    """:func:`unmade` in numpy calls (the plain form's)."""
    inside = codes[codes < len(made)]
    return np.flatnonzero(np.bincount(inside[~made[inside]], minlength=len(made)))


@njit(**_JIT)
def _form_table(
    codes: Codes, start: int, end: int, lengths: npt.NDArray[np.uint8], traditional: Bools
) -> tuple[int, int]:
    """Which table of forms a text takes, and the length of its form.

    The table is 0 (folded), 1 (the text holds ideographs OpenCC may convert: its characters'
    ``traditional`` forms) or -1 (none: a character has none).
    """
    folded = plain = 0  # characters more than one per code point
    table = 0
    for at in range(start, end):
        code = codes[at]
        if code < 128:  # ASCII: one character, either way
            continue
        if code >= len(traditional) or lengths[0, code] == 0:
            return -1, 0
        folded += np.int64(lengths[0, code]) - 1
        plain += np.int64(lengths[1, code]) - 1
        if traditional[code]:
            table = 1
    return table, end - start + (plain if table else folded)


@njit(**_JIT)
def local_forms(
    codes: Codes,
    bounds: Index,
    forms: npt.NDArray[np.uint32],
    lengths: npt.NDArray[np.uint8],
    traditional: Bools,
    flags: Flags,
) -> tuple[Codes, Index, Flags, Index]:
    """Each text with its characters replaced by their forms, whitespace at either end dropped.

    See ``text.LocalForms``. Returns the new code points, their bounds, their ``flags`` (a
    table of the BMP) and which forms each text took: 0 (folded), 1 (not folded: it holds
    ideographs OpenCC may convert) or -1 (none: it is left out, empty).
    """
    tables = np.empty(len(bounds) - 1, np.int64)
    size = 0
    for text in range(len(bounds) - 1):  # first which table, and the room needed
        tables[text], length = _form_table(
            codes, bounds[text], bounds[text + 1], lengths, traditional
        )
        size += length
    out = np.empty(size, np.uint32)
    out_flags = np.empty(size, np.uint8)
    out_bounds = np.zeros(len(bounds), np.int64)
    done = 0
    for text in range(len(bounds) - 1):
        table = tables[text]
        if table >= 0:
            start = done
            for at in range(bounds[text], bounds[text + 1]):
                code = codes[at]
                if code < 128 or lengths[table, code] == 1:  # most: twice as fast
                    char = forms[table, code, 0]
                    out[done], out_flags[done] = char, flags[char]
                    done += 1
                    continue
                for part in range(lengths[table, code]):
                    char = forms[table, code, part]
                    out[done], out_flags[done] = char, flags[char]
                    done += 1
            lo, hi = start, done  # strip: drop whitespace at either end
            while lo < hi and out_flags[lo] & SPACE:
                lo += 1
            while hi > lo and out_flags[hi - 1] & SPACE:
                hi -= 1
            if lo > start:
                for at in range(lo, hi):
                    out[start + at - lo], out_flags[start + at - lo] = out[at], out_flags[at]
            done = start + hi - lo
        out_bounds[text + 1] = done
    return out[:done], out_bounds, out_flags[:done], tables


@njit(**_JIT)
def word_spans(codes: Codes, flags: Flags, bounds: Index) -> tuple[Index, Index]:
    """Starts and ends of the runs of word characters of each text.

    An apostrophe between two word characters of one text stays inside the word.
    """
    most = len(codes) // 2 + len(bounds)  # a text of n characters has at most n // 2 + 1
    starts = np.empty(most, np.int64)
    ends = np.empty(most, np.int64)
    found = 0
    for text in range(len(bounds) - 1):
        at, stop = bounds[text], bounds[text + 1]
        while at < stop:
            if not flags[at] & WORD:
                at += 1
                continue
            starts[found] = at
            at += 1
            while at < stop:
                if flags[at] & WORD:
                    at += 1
                elif codes[at] == APOSTROPHE and at + 1 < stop and flags[at + 1] & WORD:
                    at += 2
                else:
                    break
            ends[found] = at
            found += 1
    return starts[:found].copy(), ends[:found].copy()


@njit(**_JIT)
def span_hashes(codes: Codes, starts: Index, ends: Index) -> U64:
    """The hash of each span: sum of code × base**offset modulo 2**64, length mixed in."""
    out = np.empty(len(starts), np.uint64)
    for span in range(len(starts)):
        value, power = np.uint64(0), np.uint64(1)
        for at in range(starts[span], ends[span]):
            value += np.uint64(codes[at]) * power
            power *= _TOKEN_BASE
        out[span] = mix(value ^ np.uint64(ends[span] - starts[span]) * _GOLDEN)
    return out


@njit(**_JIT)
def sort_hashes(values: U64, scratch: U64, counts: Index) -> None:
    """Sort uniform 64-bit hashes in place: into buckets by their leading bits, then insertion.

    With at least as many buckets as values, each holds about one, so the insertion sort
    moves each value a step or two (equal values not at all): two passes in all, about 2.5
    times as fast as a byte-by-byte radix sort on one text's hashes. Should the values not
    be uniform after all, a comparison sort finishes. ``scratch`` is as long as ``values``
    or longer; ``counts`` is room for the buckets (a larger one is made if it is short).
    """
    size = len(values)
    if size < 2:
        return
    bits = 1
    while (1 << bits) < size:
        bits += 1
    shift, buckets = np.uint64(64 - bits), 1 << bits
    if len(counts) <= buckets:
        counts = np.empty(buckets + 1, np.int64)
    counts[: buckets + 1] = 0
    for at in range(size):
        counts[(values[at] >> shift) + np.uint64(1)] += 1
    for bucket in range(buckets):
        counts[bucket + 1] += counts[bucket]
    for at in range(size):
        bucket = values[at] >> shift
        scratch[counts[bucket]] = values[at]
        counts[bucket] += 1
    moves = 0
    for at in range(size):
        value, to = scratch[at], at
        while to > 0 and values[to - 1] > value:
            values[to] = values[to - 1]
            to -= 1
        values[to] = value
        moves += at - to
        if moves > 8 * size:  # not uniform: finish with a comparison sort
            values[at + 1 :] = scratch[at + 1 : size]
            values.sort()
            return


def sort_hashes_numpy(values: U64, scratch: U64, counts: Index) -> None:
    """:func:`sort_hashes` by numpy, for the plain form (the same order: ascending)."""
    values.sort()


PLAIN_FORMS = {  # used instead by the plain form
    "sort_hashes": sort_hashes_numpy,
    "unmade": unmade_numpy,
}


@njit(**_JIT)
def count_per_text(hashes: U64, texts: Index, dropped: U64) -> tuple[U64, F64, Index]:
    """Distinct hashes of each text, sorted, with how often each occurs (``texts`` ascending).

    Hashes in ``dropped`` (sorted) are left out: a merge with each text's sorted hashes.
    """
    distinct = np.empty(len(hashes), np.uint64)
    counts = np.empty(len(hashes), np.float64)
    owners = np.empty(len(hashes), np.int64)
    scratch = np.empty(len(hashes), np.uint64)
    buckets = np.empty(2 * len(hashes) + 2, np.int64)
    found, lo = 0, 0
    while lo < len(hashes):
        hi = lo + 1
        while hi < len(hashes) and texts[hi] == texts[lo]:
            hi += 1
        ordered = hashes[lo:hi].copy()
        sort_hashes(ordered, scratch, buckets)
        skip = 0  # the first of ``dropped`` not below the current hash
        for at in range(len(ordered)):
            value = ordered[at]
            while skip < len(dropped) and dropped[skip] < value:
                skip += 1
            if skip < len(dropped) and dropped[skip] == value:
                continue
            if found and distinct[found - 1] == value and owners[found - 1] == texts[lo]:
                counts[found - 1] += 1.0
            else:
                distinct[found], counts[found], owners[found] = value, 1.0, texts[lo]
                found += 1
        lo = hi
    return distinct[:found].copy(), counts[:found].copy(), owners[:found].copy()


@njit(**_JIT)
def text_of(bounds: Index, positions: Index) -> Index:
    """Which text of a batch each position falls in (``positions`` ascending; a merge)."""
    owners = np.empty(len(positions), np.int64)
    text = 0
    for at in range(len(positions)):
        while text + 2 < len(bounds) and bounds[text + 1] <= positions[at]:
            text += 1
        owners[at] = text
    return owners


@njit(**_JIT)
def outside(positions: Index, starts: Index, ends: Index) -> npt.NDArray[np.bool_]:
    """Which positions lie in none of the spans ``starts[i]:ends[i]`` (all ascending; a merge)."""
    out = np.empty(len(positions), np.bool_)
    span = 0
    for at in range(len(positions)):
        while span < len(starts) and ends[span] <= positions[at]:
            span += 1
        out[at] = span == len(starts) or positions[at] < starts[span]
    return out


@njit(**_JIT)
def with_cuts(
    starts: Index,
    ends: Index,
    chunk_starts: Index,
    chunk_ends: Index,
    cut_starts: Index,
    cut_ends: Index,
    places: Index,
    flags: Flags,
) -> tuple[Index, Index]:
    """The word spans outside the chunks and the cuts inside that hold a word character, merged.

    The cuts are made in the chunks' characters one after another, ``places`` saying where
    in the batch each came from (-1: none, a line break between chunks).
    """
    kept = outside(starts, chunk_starts, chunk_ends)
    kept_cuts = np.zeros(len(cut_starts), np.bool_)
    for cut in range(len(cut_starts)):
        for at in range(cut_starts[cut], cut_ends[cut]):
            if places[at] >= 0 and flags[places[at]] & WORD:
                kept_cuts[cut] = True
                break
    out_starts = np.empty(len(starts) + len(cut_starts), np.int64)
    out_ends = np.empty(len(out_starts), np.int64)
    found = word = 0
    for cut in np.flatnonzero(kept_cuts):
        start = places[cut_starts[cut]]
        while word < len(starts) and starts[word] < start:  # the words before it
            if kept[word]:
                out_starts[found], out_ends[found] = starts[word], ends[word]
                found += 1
            word += 1
        out_starts[found], out_ends[found] = start, places[cut_ends[cut] - 1] + 1
        found += 1
    for after in range(word, len(starts)):  # the words after the last cut
        if kept[after]:
            out_starts[found], out_ends[found] = starts[after], ends[after]
            found += 1
    return out_starts[:found].copy(), out_ends[:found].copy()


@njit(**_JIT)
def _has_ideograph(flags: Flags, start: int, stop: int) -> bool:
    seen = np.uint8(0)
    for at in range(start, stop):  # all flags ORed: a loop the compiler vectorises
        seen |= flags[at]
    return (seen & IDEOGRAPH) != 0


@njit(**_JIT)
def ideograph_chunks(
    codes: Codes, flags: Flags, bounds: Index
) -> tuple[Index, Index, Codes, Index]:
    """The whitespace-separated chunks of each text that hold an ideograph, joined for jieba.

    Returns the chunks' starts and ends, their code points one after another with a separator
    before each, and where each of those came from (-1 for the separators). The separator is
    a line break before a text's first chunk and before a chunk after a line break, else a
    space: jieba joins no word across either, and the chunks of one line stay one string.
    """
    chinese = np.zeros(len(bounds) - 1, np.bool_)
    most = 0
    for text in range(len(bounds) - 1):
        if _has_ideograph(flags, bounds[text], bounds[text + 1]):
            chinese[text] = True
            most += (bounds[text + 1] - bounds[text]) // 2 + 1
    starts = np.empty(most, np.int64)
    ends = np.empty(most, np.int64)
    separators = np.empty(most, np.uint32)
    found, size = 0, 0
    for text in np.flatnonzero(chinese):
        at, stop = bounds[text], bounds[text + 1]
        separator = LINE_BREAK
        while at < stop:
            if flags[at] & SPACE:
                if codes[at] == LINE_BREAK or codes[at] == CARRIAGE_RETURN:
                    separator = LINE_BREAK
                at += 1
                continue
            start, ideograph = at, False
            while at < stop and not flags[at] & SPACE:
                ideograph = ideograph or (flags[at] & IDEOGRAPH) != 0
                at += 1
            if ideograph:
                starts[found], ends[found], separators[found] = start, at, separator
                separator = BLANK
                found += 1
                size += 1 + at - start
    joined = np.empty(size, np.uint32)
    places = np.empty(size, np.int64)
    done = 0
    for chunk in range(found):
        joined[done], places[done] = separators[chunk], -1
        done += 1
        for at in range(starts[chunk], ends[chunk]):
            joined[done], places[done] = codes[at], at
            done += 1
    return starts[:found].copy(), ends[:found].copy(), joined, places
