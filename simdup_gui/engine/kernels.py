"""The per-character loops of fingerprinting, compiled by numba: one pass each, no Python.

Modules call these through a local import, so that numba (a quarter of a second to import) is
only loaded by work that fingerprints: an unchanged folder's rescan never needs it.

Every function here works on a batch of texts joined into one array of code points, with the
``bounds`` where each text starts and ends (see ``tokens.py``). Each loop does in one pass
what took numpy a dozen whole-array passes, and none holds the GIL. Compiled code is cached
on disk (``cache=True``), so only the first run on a machine pays for compiling.

The results are defined by plain Python in ``tokens.py``, ``shingles.py`` and ``simhash.py``
(``token_hash``, ``shingle_hashes``, ``simhash``), and tests check these loops against them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from simdup_gui.engine import shingles, tokens
from simdup_gui.engine.shingles import PAD
from simdup_gui.engine.tokens import IDEOGRAPH, SPACE, WORD

Codes = npt.NDArray[np.uint32]
Flags = npt.NDArray[np.uint8]
Index = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
F64 = npt.NDArray[np.float64]
Bytes = npt.NDArray[np.uint8]
Bytes2D = npt.NDArray[np.uint8]  # rows of bytes
Bools = npt.NDArray[np.bool_]

APOSTROPHE = 39
TOKEN_BASE, GOLDEN = np.uint64(tokens.TOKEN_BASE), np.uint64(tokens.GOLDEN)
SHINGLE_BASE = np.uint64(shingles.SHINGLE_BASE)
_M1, _M2 = (np.uint64(m) for m in tokens.MIXERS)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_JIT = {"cache": True, "nogil": True}


@njit(**_JIT)
def mix(value: np.uint64) -> np.uint64:
    """SplitMix64 finaliser: spreads a polynomial hash over all 64 bits."""
    value = (value ^ (value >> _S30)) * _M1
    value = (value ^ (value >> _S27)) * _M2
    return value ^ (value >> _S31)


@njit(**_JIT)
def _form_table(
    codes: Codes, start: int, end: int, lengths: npt.NDArray[np.uint8], chinese: Bools
) -> tuple[int, int]:
    """Which table of forms a text takes, and the length of its form.

    The table is 0 (folded), 1 (the text holds ideographs) or -1 (none: a character has none).
    """
    folded = plain = 0  # characters more than one per code point
    table = 0
    for at in range(start, end):
        code = codes[at]
        if code < 128:  # ASCII: one character, either way
            continue
        if code >= len(chinese) or lengths[0, code] == 0:
            return -1, 0
        folded += np.int64(lengths[0, code]) - 1
        plain += np.int64(lengths[1, code]) - 1
        if chinese[code]:
            table = 1
    return table, end - start + (plain if table else folded)


@njit(**_JIT)
def local_forms(
    codes: Codes,
    bounds: Index,
    forms: npt.NDArray[np.uint32],
    lengths: npt.NDArray[np.uint8],
    chinese: Bools,
    flags: Flags,
) -> tuple[Codes, Index, Flags, Index]:
    """Each text with its characters replaced by their forms, whitespace at either end dropped.

    See ``text.LocalForms``. Returns the new code points, their bounds, their ``flags`` (a
    table of the BMP) and which forms each text took: 0 (folded), 1 (not folded: it holds
    ideographs) or -1 (none: it is left out, empty).
    """
    tables = np.empty(len(bounds) - 1, np.int64)
    size = 0
    for text in range(len(bounds) - 1):  # first which table, and the room needed
        tables[text], length = _form_table(codes, bounds[text], bounds[text + 1], lengths, chinese)
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
            power *= TOKEN_BASE
        out[span] = mix(value ^ np.uint64(ends[span] - starts[span]) * GOLDEN)
    return out


@njit(**_JIT)
def _sort_hashes(values: U64, scratch: U64, counts: Index) -> None:
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
        _sort_hashes(ordered, scratch, buckets)
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
def simhash_many(hashes: U64, weights: F64, texts: Index, count: int) -> U64:
    """Charikar's simhash of each of ``count`` texts (``texts`` ascending).

    A bit is set where the weights of the features with a 1 there outweigh the rest.
    """
    out = np.zeros(count, np.uint64)
    ones = np.zeros(64, np.float64)
    lo = 0
    while lo < len(hashes):
        ones[:] = 0.0
        total = 0.0
        hi = lo
        while hi < len(hashes) and texts[hi] == texts[lo]:
            value, weight = hashes[hi], weights[hi]
            total += weight
            for bit in range(64):
                if (value >> np.uint64(bit)) & np.uint64(1):
                    ones[bit] += weight
            hi += 1
        fingerprint = np.uint64(0)
        for bit in range(64):
            if ones[bit] * 2.0 - total > 0.0:
                fingerprint |= np.uint64(1) << np.uint64(bit)
        out[texts[lo]] = fingerprint
        lo = hi
    return out


@njit(**_JIT)
def _shingle_hashes(chars: Codes, length: int, size: int, limit: np.uint64, out: U64) -> int:
    """The hashes of the runs of ``size`` characters of ``chars[:length]`` up to ``limit``.

    They are written to the front of ``out``; returns how many.
    """
    leading = np.uint64(1)  # SHINGLE_BASE ** (size - 1): the weight of a run's first character
    value = np.uint64(0)
    for at in range(size - 1):
        leading *= SHINGLE_BASE
        value = value * SHINGLE_BASE + np.uint64(chars[at])
    kept = 0
    for at in range(length - size + 1):  # each run's polynomial, rolled on by one character
        value = value * SHINGLE_BASE + np.uint64(chars[at + size - 1])
        hashed = mix(value)
        if hashed <= limit:
            out[kept] = hashed
            kept += 1
        value -= np.uint64(chars[at]) * leading
    return kept


@njit(**_JIT)
def _smallest_distinct(values: U64, row: U64, scratch: U64, counts: Index) -> int:
    """The smallest distinct ``values`` (sorted in place) into ``row``; returns how many."""
    _sort_hashes(values, scratch, counts)
    kept = 0
    for at in range(len(values)):
        if kept == len(row):
            break
        if at == 0 or values[at] != values[at - 1]:
            row[kept] = values[at]
            kept += 1
    return kept


@njit(**_JIT)
def sketches(
    codes: Codes, flags: Flags, bounds: Index, shingle: int, size: int
) -> tuple[U64, Index]:
    """The bottom-``size`` shingle sketch of each text, as rows padded with ``PAD``.

    Each text's whitespace runs count as one space (the texts have none at either end); a
    text shorter than a shingle has one, its first character. Hashes are uniform, so the
    ``size`` smallest of ``n`` lie below about ``size / n`` of the range: only those under four
    times that are kept and sorted (repeated shingles make fewer distinct ones there), unless
    too few distinct ones are there (a very repetitive text): then all are.

    Returns the rows and how many values each holds.
    """
    texts = len(bounds) - 1
    rows = np.full((texts, size), PAD, np.uint64)
    filled = np.zeros(texts, np.int64)
    longest = 0
    for text in range(texts):
        longest = max(longest, bounds[text + 1] - bounds[text])
    chars = np.empty(longest, np.uint32)
    hashes = np.empty(longest, np.uint64)
    scratch = np.empty(longest, np.uint64)
    counts = np.empty(8 * size + 1, np.int64)  # buckets for 8 * size hashes (4 * size kept)
    for text in range(texts):
        length, after_space = 0, 0
        for at in range(bounds[text], bounds[text + 1]):  # without branches: faster
            space = np.int64(flags[at] & SPACE != 0)
            chars[length] = 32 if space else codes[at]
            length += 1 - (space & after_space)
            after_space = space
        if length == 0:
            continue
        if length < shingle:
            rows[text, 0] = mix(np.uint64(chars[0]))
            filled[text] = 1
            continue
        shingles = length - shingle + 1
        kept = 0
        if shingles > 4 * size:
            limit = np.uint64(4.0 * size / shingles * 2.0**64)
            found = _shingle_hashes(chars, length, shingle, limit, hashes)
            kept = _smallest_distinct(hashes[:found], rows[text], scratch, counts)
        if kept < size:
            found = _shingle_hashes(chars, length, shingle, PAD, hashes)
            kept = _smallest_distinct(hashes[:found], rows[text], scratch, counts)
        filled[text] = kept
    return rows, filled


@njit(**_JIT)
def bin_minima(rows: U64, bins: int) -> U64:
    """Each row's smallest value in each bin (values by their remainder modulo ``bins``).

    Rows are sorted and padded with ``PAD``: a bin none falls in keeps ``PAD``.
    """
    out = np.full((rows.shape[0], bins), PAD, np.uint64)
    for row in range(rows.shape[0]):
        for column in range(rows.shape[1]):
            value = rows[row, column]
            if value == PAD:
                break
            place = value % np.uint64(bins)
            if value < out[row, place]:
                out[row, place] = value
    return out


@njit(**_JIT)
def jaccard_pairs(rows: U64, left: Index, right: Index) -> F64:
    """Estimated Jaccard similarity of each pair of sketch rows (sorted, padded with ``PAD``).

    A merge of the two rows: of the union's smallest distinct values (as many as a row holds),
    the share that both rows hold; 1.0 when both are empty.
    """
    size = rows.shape[1]
    out = np.empty(len(left), np.float64)
    for pair in range(len(left)):
        a, b = rows[left[pair]], rows[right[pair]]
        at_a = at_b = union = both = 0
        while union < size:
            x = a[at_a] if at_a < size else PAD
            y = b[at_b] if at_b < size else PAD
            if x == PAD and y == PAD:
                break
            union += 1
            if x == y:
                both += 1
                at_a += 1
                at_b += 1
            elif x < y:
                at_a += 1
            else:
                at_b += 1
        out[pair] = both / union if union else 1.0
    return out


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

    Returns the chunks' starts and ends, their code points one after another with a line
    break before each, and where each of those came from (-1 for the line breaks).
    """
    chinese = np.zeros(len(bounds) - 1, np.bool_)
    most = 0
    for text in range(len(bounds) - 1):
        if _has_ideograph(flags, bounds[text], bounds[text + 1]):
            chinese[text] = True
            most += (bounds[text + 1] - bounds[text]) // 2 + 1
    starts = np.empty(most, np.int64)
    ends = np.empty(most, np.int64)
    found, size = 0, 0
    for text in np.flatnonzero(chinese):
        at, stop = bounds[text], bounds[text + 1]
        while at < stop:
            if flags[at] & SPACE:
                at += 1
                continue
            start, ideograph = at, False
            while at < stop and not flags[at] & SPACE:
                ideograph = ideograph or (flags[at] & IDEOGRAPH) != 0
                at += 1
            if ideograph:
                starts[found], ends[found] = start, at
                found += 1
                size += 1 + at - start
    joined = np.empty(size, np.uint32)
    places = np.empty(size, np.int64)
    done = 0
    for chunk in range(found):
        joined[done], places[done] = 10, -1  # "\n": jieba joins no word across it
        done += 1
        for at in range(starts[chunk], ends[chunk]):
            joined[done], places[done] = codes[at], at
            done += 1
    return starts[:found].copy(), ends[:found].copy(), joined, places
