"""The per-character loops of fingerprinting, compiled by numba: simhash sums, sketches, lines.

The rule for kernel modules is written once, in ``text/token_kernels.py``. The plain
definitions these loops are checked against: ``simhash.simhash``, ``shingles.shingle_hashes``
and ``lines.line_value``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simdup_gui.engine.arrays import F64, U64, Codes, Flags, Index
from simdup_gui.engine.arrays import mix as mix_array
from simdup_gui.engine.fingerprint.codes import (
    LINE_BASE,
    LINE_HASH_BITS,
    PAD,
    PAIR_BASE,
    RUN_BASE,
    SHINGLE_BASE,
    STEM,
    STEM_BASE,
    UNIT_BASE,
)
from simdup_gui.engine.text.codes import IDEOGRAPH, SPACE, WORD
from simdup_gui.engine.text.token_kernels import mix, sort_hashes

_SHINGLE_BASE = np.uint64(SHINGLE_BASE)
_STEM_BASE, _PAIR_BASE = np.uint64(STEM_BASE), np.uint64(PAIR_BASE)
_LINE_BASE, _LINE_BITS = np.uint64(LINE_BASE), np.uint64(LINE_HASH_BITS)
_LINE_MASK = np.uint64((1 << LINE_HASH_BITS) - 1)
_LONGEST_LINE = (1 << (64 - LINE_HASH_BITS)) - 1
_LINE_PLACES = 1 << 16  # a line's places past this weigh as its first ones again
_UNIT_BASE, _RUN_BASE = np.uint64(UNIT_BASE), np.uint64(RUN_BASE)
_JIT = {"cache": True, "nogil": True}


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


def simhash_many_numpy(hashes: U64, weights: F64, texts: Index, count: int) -> U64:
    """:func:`simhash_many` in numpy, for the plain form (64 Python steps a feature otherwise).

    The same sums in the same order: ``cumsum`` adds a text's weights one after another from
    0.0 as the loop does (adding 0.0 where a bit is clear changes no sum).
    """
    out = np.zeros(count, np.uint64)
    if not len(hashes):
        return out
    bits = ((hashes[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    starts = np.flatnonzero(np.concatenate(([True], texts[1:] != texts[:-1])))
    for lo, hi in zip(starts.tolist(), [*starts[1:].tolist(), len(hashes)], strict=True):
        weight = weights[lo:hi]
        ones = np.cumsum(np.where(bits[lo:hi], weight[:, None], 0.0), axis=0)[-1]
        total = np.cumsum(weight)[-1]
        set_bits = np.flatnonzero(ones * 2.0 - total > 0.0).astype(np.uint64)
        out[texts[lo]] = np.bitwise_or.reduce(np.uint64(1) << set_bits, initial=np.uint64(0))
    return out


def shingle_hashes_numpy(chars: Codes, length: int, size: int, limit: np.uint64, out: U64) -> int:
    """:func:`_shingle_hashes` in numpy, for the plain form.

    Each run's polynomial by Horner's rule: the same value modulo 2**64 as the rolled one.
    """
    runs = length - size + 1
    if runs <= 0:
        return 0
    codes = chars[:length].astype(np.uint64)
    value = np.zeros(runs, np.uint64)
    for at in range(size):
        value = value * _SHINGLE_BASE + codes[at : at + runs]
    hashed = mix(value)
    kept = hashed[hashed <= limit]
    out[: len(kept)] = kept
    return len(kept)


@njit(**_JIT)
def _is_line_break(code: np.uint32) -> bool:
    """What ``str.splitlines`` breaks at."""
    return (
        (10 <= code <= 13)
        or (0x1C <= code <= 0x1E)
        or code == 0x85
        or code == 0x2028
        or code == 0x2029
    )


@njit(**_JIT)
def line_values(codes: Codes, flags: Flags, bounds: Index) -> tuple[U64, Index, Index, Index]:
    """Each line of each text with a character that is not whitespace: its value and place.

    A line's value (``lines.line_value`` defines it) holds its length and its hash; its place
    is its text, and where in ``codes`` its first such character is and its last ends.
    """
    values = np.empty(len(codes), np.uint64)
    texts = np.empty(len(codes), np.int64)
    starts = np.empty(len(codes), np.int64)
    ends = np.empty(len(codes), np.int64)
    lines = 0
    for text in range(len(bounds) - 1):
        total, length, power, start, end = np.uint64(0), 0, _LINE_BASE, 0, 0
        for at in range(bounds[text], bounds[text + 1] + 1):
            last = at == bounds[text + 1]
            if last or _is_line_break(codes[at]):
                if length:
                    hashed = mix(total ^ np.uint64(length)) & _LINE_MASK
                    capped = np.uint64(min(length, _LONGEST_LINE))
                    values[lines] = (capped << _LINE_BITS) | hashed
                    texts[lines], starts[lines], ends[lines] = text, start, end
                    lines += 1
                total, length, power = np.uint64(0), 0, _LINE_BASE
            elif flags[at] & SPACE == 0:
                if not length:
                    start = at
                total += np.uint64(codes[at]) * power
                power *= _LINE_BASE
                length += 1
                if length % _LINE_PLACES == 0:
                    power = _LINE_BASE
                end = at + 1
    return values[:lines].copy(), texts[:lines].copy(), starts[:lines].copy(), ends[:lines].copy()


def _line_powers() -> U64:
    """The line hash's base to each place's power (the first place: the base), modulo 2**64."""
    with np.errstate(over="ignore"):
        return np.cumprod(np.full(_LINE_PLACES, _LINE_BASE, np.uint64), dtype=np.uint64)


def line_values_numpy(codes: Codes, flags: Flags, bounds: Index) -> tuple[U64, Index, Index, Index]:
    """:func:`line_values` in numpy calls (the plain form's: no Python loop per character)."""
    breaks = np.zeros(0x202B, np.bool_)  # the last place: every code point past the breaks
    breaks[[10, 11, 12, 13, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029]] = True
    begins = np.zeros(len(codes) + 1, np.bool_)
    begins[bounds[:-1][bounds[:-1] < bounds[1:]]] = True  # each text's first line
    begins[1:] |= breaks[np.minimum(codes, len(breaks) - 1)]  # and after every break
    counted = np.flatnonzero((flags & SPACE) == 0)  # breaks are whitespace: never counted
    line = (np.cumsum(begins[:-1]) - 1)[counted]
    first = np.flatnonzero(np.concatenate(([True], line[1:] != line[:-1]))[: len(line)])
    lengths = np.diff(np.append(first, len(line)))
    place = np.arange(len(line), dtype=np.int64) - np.repeat(first, lengths)
    with np.errstate(over="ignore"):
        terms = codes[counted].astype(np.uint64) * _line_powers()[place % _LINE_PLACES]
        totals = np.add.reduceat(terms, first) if len(first) else np.empty(0, np.uint64)
        hashed = mix_array(totals ^ lengths.astype(np.uint64))
    capped = np.minimum(lengths, _LONGEST_LINE).astype(np.uint64)
    values = (capped << _LINE_BITS) | (hashed & _LINE_MASK)
    starts = counted[first]
    ends = counted[np.append(first[1:], len(line)) - 1] + 1 if len(first) else starts
    texts = np.searchsorted(bounds, starts, side="right") - 1
    return values, texts.astype(np.int64), starts.astype(np.int64), ends.astype(np.int64)


@njit(**_JIT)
def passage_runs(
    codes: Codes, flags: Flags, bounds: Index, run: int, window: int
) -> tuple[U64, Index]:
    """Each text's winnowed run hashes (``reuse.passages`` defines them), and their texts.

    A unit is an ideograph or a run of other letters and digits (by ``flags``); a run hash
    covers ``run`` units (a polynomial rolled on by one unit); of each window of ``window``
    runs the least is kept (the rightmost on a tie: a queue of the window's rising minima),
    each kept place once.
    """
    out = np.empty(len(codes) + len(bounds), np.uint64)
    texts = np.empty(len(codes) + len(bounds), np.int64)
    found = 0
    leading = np.uint64(1)  # _RUN_BASE ** (run - 1): the weight of a run's oldest unit
    for _ in range(run - 1):
        leading *= _RUN_BASE
    units = np.empty(run, np.uint64)  # the last ``run`` units' hashes, a ring
    queue_hash = np.empty(window + 1, np.uint64)  # the window's rising minima, a ring
    queue_at = np.empty(window + 1, np.int64)
    for text in range(len(bounds) - 1):
        unit_count, run_count, last_kept, oldest = 0, 0, -1, 0
        head = tail = 0  # the queue: from head (the least) to tail (exclusive)
        rolled = np.uint64(0)
        total, length, power = np.uint64(0), 0, _UNIT_BASE
        in_ideograph = False
        for at in range(bounds[text], bounds[text + 1] + 1):
            word, ideograph = False, False
            if at < bounds[text + 1]:
                word = flags[at] & WORD != 0
                ideograph = flags[at] & IDEOGRAPH != 0
            if length and (not word or ideograph or in_ideograph):  # a unit ends
                unit = mix(total ^ np.uint64(length))
                total, length, power = np.uint64(0), 0, _UNIT_BASE
                if unit_count >= run:  # the oldest unit leaves the run
                    rolled -= units[oldest] * leading
                rolled = rolled * _RUN_BASE + unit
                units[oldest] = unit
                oldest = 0 if oldest == run - 1 else oldest + 1
                unit_count += 1
                if unit_count >= run:
                    hashed = mix(rolled)
                    while head != tail:  # the queue's greater or equal last go: rightmost ties
                        last = tail - 1 if tail else window
                        if queue_hash[last] < hashed:
                            break
                        tail = last
                    queue_hash[tail], queue_at[tail] = hashed, run_count
                    tail = 0 if tail == window else tail + 1
                    if queue_at[head] <= run_count - window:  # left the window
                        head = 0 if head == window else head + 1
                    run_count += 1
                    if run_count >= window and queue_at[head] != last_kept:
                        out[found], texts[found] = queue_hash[head], text
                        found, last_kept = found + 1, queue_at[head]
            if word:
                total += np.uint64(codes[at]) * power
                if length < 255:
                    power *= _UNIT_BASE
                length += 1
            in_ideograph = ideograph
        if 0 < run_count < window:  # fewer runs than a window: their least
            out[found], texts[found] = queue_hash[head], text
            found += 1
    return out[:found].copy(), texts[:found].copy()


@njit(**_JIT)
def term_hashes(
    codes: Codes, flags: Flags, bounds: Index, stops: U64, particles: Codes
) -> tuple[U64, Index]:
    """Each text's terms (``reuse.retold._unit_terms`` defines them), and their texts.

    A word (a run of letters and digits) gives its first STEM characters' hash unless that is
    a stopword's (``stops``, sorted); two ideographs side by side, neither a particle
    (``particles``: code points below 65,536), give their pair's.
    """
    particle = np.zeros(1 << 16, np.bool_)
    for code in particles:
        particle[code] = True
    out = np.empty(2 * len(codes) + 1, np.uint64)
    texts = np.empty(2 * len(codes) + 1, np.int64)
    found = 0
    for text in range(len(bounds) - 1):
        start, end = bounds[text], bounds[text + 1]
        at = start
        while at < end:
            if flags[at] & IDEOGRAPH:
                if at + 1 < end and flags[at + 1] & IDEOGRAPH:
                    first, second = codes[at], codes[at + 1]
                    if not (
                        (first < 65536 and particle[first]) or (second < 65536 and particle[second])
                    ):
                        pair = np.uint64(first) * _PAIR_BASE + np.uint64(second)
                        out[found], texts[found] = mix(pair), text
                        found += 1
                at += 1
            elif flags[at] & WORD:
                stop = at
                while stop < end and flags[stop] & WORD and not flags[stop] & IDEOGRAPH:
                    stop += 1
                kept = min(stop - at, STEM)
                total = np.uint64(0)
                for place in range(STEM):
                    value = np.uint64(codes[at + place]) if place < kept else np.uint64(0)
                    total = total * _STEM_BASE + value
                stem = mix(total ^ np.uint64(kept))
                if not _holds(stops, stem):
                    out[found], texts[found] = stem, text
                    found += 1
                at = stop
            else:
                at += 1
    return out[:found].copy(), texts[:found].copy()


@njit(**_JIT)
def _holds(values: U64, value: np.uint64) -> bool:
    """Whether the sorted ``values`` hold ``value`` (a binary search)."""
    low, high = 0, len(values)
    while low < high:
        middle = (low + high) // 2
        if values[middle] < value:
            low = middle + 1
        else:
            high = middle
    return low < len(values) and values[low] == value


PLAIN_FORMS = {  # used instead by the plain form
    "simhash_many": simhash_many_numpy,
    "_shingle_hashes": shingle_hashes_numpy,
    "line_values": line_values_numpy,
}


@njit(**_JIT)
def _shingle_hashes(chars: Codes, length: int, size: int, limit: np.uint64, out: U64) -> int:
    """The hashes of the runs of ``size`` characters of ``chars[:length]`` up to ``limit``.

    They are written to the front of ``out``; returns how many.
    """
    leading = np.uint64(1)  # _SHINGLE_BASE ** (size - 1): the weight of a run's first character
    value = np.uint64(0)
    for at in range(size - 1):
        leading *= _SHINGLE_BASE
        value = value * _SHINGLE_BASE + np.uint64(chars[at])
    kept = 0
    for at in range(length - size + 1):  # each run's polynomial, rolled on by one character
        value = value * _SHINGLE_BASE + np.uint64(chars[at + size - 1])
        hashed = mix(value)
        if hashed <= limit:
            out[kept] = hashed
            kept += 1
        value -= np.uint64(chars[at]) * leading
    return kept


@njit(**_JIT)
def _smallest_distinct(values: U64, row: U64, scratch: U64, counts: Index) -> int:
    """The smallest distinct ``values`` (sorted in place) into ``row``; returns how many."""
    sort_hashes(values, scratch, counts)
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
def containment_pairs(rows: U64, left: Index, right: Index) -> tuple[F64, Index]:
    """For each pair of sketch rows, the share of the left text's shingles in the right text.

    A merge: the left row's values up to the right row's largest (all of them when the right
    row is not full: it then holds all its text's shingles) are a sample of the left text's
    shingles in a range where the right row holds every one of its own; the share of them the
    right row holds estimates the containment. Returns the shares and the samples' sizes.
    """
    size = rows.shape[1]
    shares = np.zeros(len(left), np.float64)
    samples = np.zeros(len(left), np.int64)
    for pair in range(len(left)):
        a, b = rows[left[pair]], rows[right[pair]]
        limit = b[size - 1]
        at_b = count = hits = 0
        for at_a in range(size):
            value = a[at_a]
            if value == PAD or value > limit:
                break
            count += 1
            while at_b < size and b[at_b] < value:
                at_b += 1
            if at_b < size and b[at_b] == value:
                hits += 1
        samples[pair] = count
        shares[pair] = hits / count if count else 0.0
    return shares, samples
