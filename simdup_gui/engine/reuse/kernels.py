"""The reuse report's loops, compiled by numba: units, their runs, what runs cover, passages.

The rule for kernel modules is written once, in ``text/token_kernels.py``. What the loops
give is said in ``units.py`` and ``align.py`` (``Text.aligned``) and defined unit by unit in
the tests (``test_reuse.py``); each has a numpy twin here, which the plain form runs instead
(a text of thousands of units is too long for a Python loop on a window's thread).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simdup_gui.engine.arrays import U64, Bools, Codes, Flags, Index
from simdup_gui.engine.arrays import mix as mix_array
from simdup_gui.engine.fingerprint.codes import RUN_BASE, UNIT_BASE
from simdup_gui.engine.text.codes import IDEOGRAPH, WORD
from simdup_gui.engine.text.token_kernels import mix

_UNIT_BASE, _RUN_BASE = np.uint64(UNIT_BASE), np.uint64(RUN_BASE)
_LONGEST = 255  # a unit's places past this weigh as this one
_JIT = {"cache": True, "nogil": True}


@njit(**_JIT)
def units_of(codes: Codes, flags: Flags) -> tuple[Index, Index, U64]:
    """Each unit's start, end and hash: an ideograph, or a run of other letters and digits.

    By ``flags`` (``tokens.char_flags`` of ``codes``). A unit's hash: the sum of each code
    point times the base to the power of its place plus one (places past ``_LONGEST`` as
    that one), modulo 2**64, its length mixed in, finished by ``mix``.
    """
    starts = np.empty(len(codes), np.int64)
    ends = np.empty(len(codes), np.int64)
    hashes = np.empty(len(codes), np.uint64)
    found, length, total, power = 0, 0, np.uint64(0), _UNIT_BASE
    in_ideograph = False
    for at in range(len(codes) + 1):
        word = at < len(codes) and flags[at] & WORD != 0
        ideograph = at < len(codes) and flags[at] & IDEOGRAPH != 0
        if length and (not word or ideograph or in_ideograph):  # a unit ends
            starts[found], ends[found] = at - length, at
            hashes[found] = mix(total ^ np.uint64(length))
            found, length, total, power = found + 1, 0, np.uint64(0), _UNIT_BASE
        if word:
            total += np.uint64(codes[at]) * power
            if length < _LONGEST:
                power *= _UNIT_BASE
            length += 1
        in_ideograph = ideograph
    return starts[:found].copy(), ends[:found].copy(), hashes[:found].copy()


@njit(**_JIT)
def run_hashes(hashes: U64, run: int) -> U64:
    """The hash of each run of ``run`` units: a polynomial of their hashes, mixed."""
    count = max(len(hashes) - run + 1, 0)
    out = np.empty(count, np.uint64)
    for at in range(count):
        total = np.uint64(0)
        for place in range(at, at + run):
            total = total * _RUN_BASE + hashes[place]
        out[at] = mix(total)
    return out


@njit(**_JIT)
def covered(runs: U64, theirs: U64, width: int, reach: int, left_out: Bools) -> Bools:
    """The units of the runs (``width`` units from each place) that ``theirs`` holds too.

    ``theirs`` sorted. Also the units between two such runs starting ``reach`` or fewer
    places apart; none of ``left_out`` (one flag per unit).
    """
    held = _in_theirs(runs, theirs)
    units = len(left_out)
    out = np.zeros(units, np.bool_)
    last, done = -1, 0  # the place of the last run held, the units covered so far
    for at in range(len(runs)):
        if not held[at]:
            continue
        start = last if last >= 0 and at - last <= reach else at
        for unit in range(max(start, done), min(at + width, units)):
            out[unit] = True
        done = max(done, min(at + width, units))
        last = at
    for unit in range(units):
        if left_out[unit]:
            out[unit] = False
    return out


@njit(**_JIT)
def _in_theirs(runs: U64, theirs: U64) -> Bools:
    """Whether ``theirs`` (sorted) holds each run.

    Looked up in a hash table of theirs, made here (a binary search costs a few cache misses
    a run), unless theirs are many more than the runs (a folder's template): then searched.
    """
    held = np.zeros(len(runs), np.bool_)
    if len(theirs) > 4 * len(runs) + 64:
        for at in range(len(runs)):
            found = np.searchsorted(theirs, runs[at])
            held[at] = found < len(theirs) and theirs[found] == runs[at]
        return held
    size = 16
    while size < 2 * len(theirs):
        size *= 2
    mask = np.uint64(size - 1)
    slots = np.full(size, -1, np.int64)  # a place in theirs, by the low bits of its value
    for at in range(len(theirs)):
        slot = theirs[at] & mask
        while slots[slot] >= 0 and theirs[slots[slot]] != theirs[at]:
            slot = (slot + np.uint64(1)) & mask
        slots[slot] = at
    for at in range(len(runs)):
        slot = runs[at] & mask
        while slots[slot] >= 0:
            if theirs[slots[slot]] == runs[at]:
                held[at] = True
                break
            slot = (slot + np.uint64(1)) & mask
    return held


@njit(**_JIT)
def passages(
    copied: Bools, seeds: Bools, shortest: int, gap: int, reworded: int
) -> tuple[Bools, Bools]:
    """The copied units in passages, word for word; and with the passages' reworded parts.

    Word for word: runs of ``copied`` joined across gaps of ``gap`` units or fewer, kept where
    they span ``shortest`` units or more. With the reworded parts: joined also across gaps of
    ``reworded`` or fewer units half of which or more are ``seeds``; and the stretches of seeds
    (joined across ``gap`` or fewer) touching such a passage.
    """
    exact = _joined(copied, seeds, shortest, gap, 0)
    joined = _joined(copied, seeds, shortest, gap, reworded)
    out = joined.copy()
    first, last = -1, -1  # the stretch of seeds so far
    start, end = _next_run(seeds, 0)
    while start < len(seeds):
        if first >= 0 and start - last <= gap:
            last = end
        else:
            if first >= 0:
                _edge(out, joined, first, last)
            first, last = start, end
        start, end = _next_run(seeds, end)
    if first >= 0:
        _edge(out, joined, first, last)
    return exact, out


@njit(**_JIT)
def run_edges(mask: Bools) -> tuple[Index, Index]:
    """Where each run of True starts, and ends (past its last)."""
    firsts = np.empty(len(mask) // 2 + 1, np.int64)
    pasts = np.empty(len(mask) // 2 + 1, np.int64)
    found = 0
    start, end = _next_run(mask, 0)
    while start < len(mask):
        firsts[found], pasts[found] = start, end
        found += 1
        start, end = _next_run(mask, end)
    return firsts[:found].copy(), pasts[:found].copy()


@njit(**_JIT)
def _next_run(mask: Bools, at: int) -> tuple[int, int]:
    """The first run of True from ``at`` on: its start and its end (both the end: none)."""
    while at < len(mask) and not mask[at]:
        at += 1
    start = at
    while at < len(mask) and mask[at]:
        at += 1
    return start, at


@njit(**_JIT)
def _edge(out: Bools, joined: Bools, first: int, last: int) -> None:
    """Seeds from ``first`` to ``last`` (past it) into ``out`` if they touch a passage.

    Of ``joined``: a unit of one just before them, among them or just after them.
    """
    for unit in range(max(first - 1, 0), min(last + 1, len(joined))):
        if joined[unit]:
            out[first:last] = True
            return


@njit(**_JIT)
def _joined(copied: Bools, seeds: Bools, shortest: int, gap: int, reworded: int) -> Bools:
    """Runs of ``copied`` joined as :func:`passages` says, of ``shortest`` units or more."""
    out = np.zeros(len(copied), np.bool_)
    first, last = -1, -1  # the passage so far
    start, end = _next_run(copied, 0)
    while start < len(copied):
        between = start - last
        near = first >= 0 and between <= gap
        if first >= 0 and not near and between <= reworded:
            seeded = 0
            for unit in range(last, start):
                seeded += seeds[unit]
            near = 2 * seeded >= between
        if near:
            last = end
        else:
            if first >= 0 and last - first >= shortest:
                out[first:last] = True
            first, last = start, end
        start, end = _next_run(copied, end)
    if first >= 0 and last - first >= shortest:
        out[first:last] = True
    return out


def units_of_numpy(codes: Codes, flags: Flags) -> tuple[Index, Index, U64]:
    """:func:`units_of` in numpy calls."""
    word = (flags & WORD) != 0
    ideograph = (flags & IDEOGRAPH) != 0
    begins = word.copy()
    begins[1:] &= ~word[:-1] | ideograph[1:] | ideograph[:-1]
    at = np.flatnonzero(word)
    if not len(at):
        empty = np.empty(0, np.int64)
        return empty, empty, np.empty(0, np.uint64)
    unit = np.cumsum(begins)[at] - 1
    first = np.flatnonzero(np.concatenate(([True], unit[1:] != unit[:-1])))
    last = np.append(first[1:], len(at)) - 1
    place = np.arange(len(at)) - np.repeat(first, last - first + 1)
    with np.errstate(over="ignore"):
        powers = np.cumprod(np.full(_LONGEST + 1, _UNIT_BASE, np.uint64), dtype=np.uint64)
        terms = codes[at].astype(np.uint64) * powers[np.minimum(place, _LONGEST)]
        hashes = mix_array(np.add.reduceat(terms, first) ^ (last - first + 1).astype(np.uint64))
    return at[first], at[last] + 1, hashes


def run_hashes_numpy(hashes: U64, run: int) -> U64:
    """:func:`run_hashes` in numpy calls."""
    if len(hashes) < run:
        return np.empty(0, np.uint64)
    count = len(hashes) - run + 1
    total = np.zeros(count, np.uint64)
    with np.errstate(over="ignore"):
        for place in range(run):
            total = total * _RUN_BASE + hashes[place : place + count]
    return mix_array(total)


def covered_numpy(runs: U64, theirs: U64, width: int, reach: int, left_out: Bools) -> Bools:
    """:func:`covered` in numpy calls."""
    units = len(left_out)
    if not len(runs) or not len(theirs):
        return np.zeros(units, bool)
    at = np.searchsorted(theirs, runs).clip(0, len(theirs) - 1)
    hits = np.flatnonzero(theirs[at] == runs)
    out = np.zeros(units + 1, np.int64)
    if len(hits):
        ends = hits + width
        joined = np.flatnonzero(np.diff(hits) <= reach)  # the gap to the next hit is inside
        ends[joined] = np.maximum(ends[joined], hits[joined + 1])
        np.add.at(out, hits, 1)
        np.add.at(out, np.minimum(ends, units), -1)
    return (np.cumsum(out[:-1]) > 0) & ~left_out


def passages_numpy(
    copied: Bools, seeds: Bools, shortest: int, gap: int, reworded: int
) -> tuple[Bools, Bools]:
    """:func:`passages` in numpy calls."""
    joined = _joined_numpy(copied, seeds, shortest, gap, reworded)
    exact = _joined_numpy(copied, seeds, shortest, gap, 0)
    firsts, lasts = run_edges_numpy(seeds)
    if not len(firsts):
        return exact, joined
    near = firsts[1:] - lasts[:-1] <= gap
    firsts = firsts[np.concatenate(([True], ~near))]
    lasts = lasts[np.concatenate((~near, [True]))]
    inside = np.concatenate(([0], np.cumsum(joined)))
    before = np.maximum(firsts - 1, 0)
    after = np.minimum(lasts + 1, len(joined))
    touching = inside[after] - inside[before] > 0
    return exact, joined | _filled(firsts[touching], lasts[touching], len(joined))


def _joined_numpy(copied: Bools, seeds: Bools, shortest: int, gap: int, reworded: int) -> Bools:
    firsts, lasts = run_edges_numpy(copied)
    if not len(firsts):
        return copied.copy()
    gaps = firsts[1:] - lasts[:-1]
    held = np.concatenate(([0], np.cumsum(seeds)))
    seeded = held[firsts[1:]] - held[lasts[:-1]]
    near = (gaps <= gap) | ((gaps <= reworded) & (2 * seeded >= gaps))
    firsts = firsts[np.concatenate(([True], ~near))]
    lasts = lasts[np.concatenate((~near, [True]))]
    long = lasts - firsts >= shortest
    return _filled(firsts[long], lasts[long], len(copied))


def run_edges_numpy(mask: Bools) -> tuple[Index, Index]:
    """:func:`run_edges` in numpy calls."""
    edges = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)


def _filled(firsts: Index, lasts: Index, units: int) -> Bools:
    """A mask of ``units`` flags, true from each first to its last (past it)."""
    out = np.zeros(units + 1, np.int64)
    np.add.at(out, firsts, 1)
    np.add.at(out, lasts, -1)
    return np.cumsum(out[:-1]) > 0


PLAIN_FORMS = {  # used instead by the plain form
    "units_of": units_of_numpy,
    "run_hashes": run_hashes_numpy,
    "covered": covered_numpy,
    "passages": passages_numpy,
    "run_edges": run_edges_numpy,
}
