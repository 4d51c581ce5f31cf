r"""Typing slips: which of two copies of a text was typed again, told by where they differ.

A copy retyped or scanned by hand carries slips its original lacks: a character doubled,
dropped or replaced (``就业业岗位``, ``coreutils`` → ``correutils``). Where two copies differ
by a short edit (at most SLIP_UNITS units on each side: an ideograph, a word or a mark, as the
compare view's differences are cut, ``text/textdiff.py``), at least SLIP_GAP characters from
any other difference, the side whose text, with the character on each side of it, the other
copy also holds somewhere is spelt as that copy spells it; the side the other copy holds
nowhere is a slip. A sentence moved, cut or added, a line added or reflowed are no slips:
they are longer, or they lie outside the lines one copy has in place of the other's.

Only such lines are compared (difflib on the two texts' lines), and two copies are read again
only where their records' line values show some (:func:`may_slip`, ``fingerprint/lines.py``);
what a pair gave is remembered by the files' versions (:func:`losses`).

>>> slips("其中就业岗位三百个。\n就业是民生之本。", "其中就业业岗位三百个。\n就业是民生之本。")
(0, 1)
"""

from __future__ import annotations

import difflib
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator, Sequence
from itertools import combinations
from typing import Protocol

from simdup_gui.engine.fingerprint.lines import line_lengths, line_values
from simdup_gui.engine.text.textdiff import diff_hunks, units

SLIP_UNITS = 2  # an edit of more units on either side is an edit, not a slip
SLIP_GAP = 10  # characters of agreement around a slip on both sides (else: a rewritten passage)
SLIP_MEMBERS = 8  # more copies tied for the reference than this are not compared for slips
REMEMBERED = 1 << 16  # pairs whose slips are remembered (a few hundred bytes each)


def may_slip(a: bytes, b: bytes) -> bool:
    """Whether two texts, by their line values, have lines retyped (:func:`retyped`)."""
    mine, theirs = line_values(a), line_values(b)
    blocks = retyped(mine.tolist(), theirs.tolist(), line_lengths(mine), line_lengths(theirs))
    return next(blocks, None) is not None


def retyped(
    mine: Sequence[Hashable],
    theirs: Sequence[Hashable],
    my_lengths: Sequence[int],
    their_lengths: Sequence[int],
) -> Iterator[tuple[range, range]]:
    """Where two texts' lines (any values telling equal lines) were retyped, as two ranges.

    Lines one text has in place of as many of the other's (difflib), each nearly as long as
    the line in its place: at most a tenth of the longer and SLIP_UNITS characters apart.
    """
    matcher = difflib.SequenceMatcher(None, mine, theirs, autojunk=False)
    for op, lo, hi, their_lo, their_hi in matcher.get_opcodes():
        if op != "replace" or hi - lo != their_hi - their_lo:
            continue
        pairs = zip(my_lengths[lo:hi], their_lengths[their_lo:their_hi], strict=True)
        if all(abs(x - y) <= max(x, y) // 10 + SLIP_UNITS for x, y in pairs):
            yield range(lo, hi), range(their_lo, their_hi)


def slips(a: str, b: str) -> tuple[int, int]:
    """How many slips ``a`` and ``b`` each have against the other (see the module)."""
    lines_a, lines_b = _lines(a), _lines(b)
    lengths_a, lengths_b = map(_lengths, (lines_a, lines_b))
    found = [0, 0]
    for mine, theirs in retyped(lines_a, lines_b, lengths_a, lengths_b):
        x = "\n".join(lines_a[mine.start : mine.stop])
        y = "\n".join(lines_b[theirs.start : theirs.stop])
        for side in _sides(x, y, a, b):
            found[side] += 1
    return found[0], found[1]


def _lines(text: str) -> list[str]:
    """The text's lines that hold more than whitespace, as ``fingerprint/lines.py`` has them."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _lengths(lines: list[str]) -> list[int]:
    """Each line's characters, whitespace not counted (as a line value's length)."""
    return [len("".join(line.split())) for line in lines]


def _sides(x: str, y: str, a: str, b: str) -> list[int]:
    """Which side (0: ``x``, of ``a``; 1: ``y``, of ``b``) slipped at each short edit."""
    hunks = diff_hunks(x, y)
    found = []
    for at, ((x_lo, x_hi), (y_lo, y_hi)) in enumerate(hunks):
        if len(units(x[x_lo:x_hi])) > SLIP_UNITS or len(units(y[y_lo:y_hi])) > SLIP_UNITS:
            continue
        (_, x_end), (_, y_end) = hunks[at - 1] if at else ((0, -SLIP_GAP), (0, -SLIP_GAP))
        far = (x_hi + SLIP_GAP, 0), (y_hi + SLIP_GAP, 0)
        (x_next, _), (y_next, _) = hunks[at + 1] if at + 1 < len(hunks) else far
        if min(x_lo - x_end, y_lo - y_end, x_next - x_hi, y_next - y_hi) < SLIP_GAP:
            continue
        x_held = x[max(0, x_lo - 1) : x_hi + 1] in b
        y_held = y[max(0, y_lo - 1) : y_hi + 1] in a
        if x_held != y_held:
            found.append(1 if x_held else 0)
    return found


class Reread(Protocol):
    """Texts read again by number (a grouping's nodes: ``match/exact.NodeTexts``)."""

    def text(self, node: int) -> str | None:
        """The text as the scan read it, or None (it cannot be read, or changed since)."""

    def version(self, node: int) -> Hashable:
        """What tells the text: its file's version and how it was read."""


def losses(nodes: Sequence[int], lines: Sequence[bytes], texts: Reread) -> list[int]:
    """For each of ``nodes`` (their ``lines``), how many of the others have fewer slips than it.

    Texts are compared two by two (:func:`slips`), read only where :func:`may_slip` says their
    lines allow slips; one that cannot be read is compared with none. What a pair gave is
    remembered by the texts' versions (REMEMBERED pairs): a regroup reads nothing again.
    """
    read: dict[int, str | None] = {}

    def text(at: int) -> str | None:
        if at not in read:
            read[at] = texts.text(nodes[at])
        return read[at]

    lost = [0] * len(nodes)
    versions = [texts.version(node) for node in nodes]
    order = sorted(range(len(nodes)), key=lambda at: repr(versions[at]))  # a pair's key, once
    for a, b in combinations(order, 2):
        key = versions[a], versions[b]
        with _lock:
            found = _found.get(key)
            if found is not None:
                _found.move_to_end(key)
        if found is None:
            x = y = None
            if may_slip(lines[a], lines[b]):
                x, y = text(a), text(b)
            found = slips(x, y) if x is not None and y is not None else (0, 0)
            with _lock:
                _found[key] = found
                if len(_found) > REMEMBERED:
                    _found.popitem(last=False)
        lost[a] += found[0] > found[1]
        lost[b] += found[1] > found[0]
    return lost


_found: OrderedDict[tuple[Hashable, Hashable], tuple[int, int]] = OrderedDict()
_lock = threading.Lock()  # a regroup on the window's thread, a scan on another
