"""Where two texts differ: character level for Chinese, word level for other text.

>>> a, b = diff_spans("the cat sat", "the dog sat")
>>> [("the cat sat"[s:e]) for s, e in a], [("the dog sat"[s:e]) for s, e in b]
(['cat'], ['dog'])
"""

from __future__ import annotations

import bisect
import difflib
import re
from functools import lru_cache

from simdup_gui.engine.text.normalize import normalize

_IDEOGRAPHS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# an ideograph, a word (letters and digits, no ideograph: "2026年" is "2026" and "年"), or a mark
_UNITS = re.compile(rf"[{_IDEOGRAPHS}]|[^\W_{_IDEOGRAPHS}]+|[^\w\s]", re.UNICODE)

Span = tuple[int, int]
# A unit's normalised form: units repeat (an article's characters and words, its copy's), and
# normalising each one anew was half of an HTML report's time (OpenCC called per character).
_unit_form = lru_cache(maxsize=1 << 16)(normalize)


def units(text: str) -> list[str]:
    """The comparison units of ``text`` as written: its ideographs, words and marks."""
    return _UNITS.findall(text)


def _units(text: str) -> tuple[list[str], list[Span]]:
    """Comparison units (an ideograph, a word or a punctuation mark) with their positions.

    Units are compared normalised (full-width/half-width, curly/straight quotes, case), as the
    fingerprints are, so only real differences are highlighted.
    """
    matches = list(_UNITS.finditer(text))
    return [_unit_form(m.group()) for m in matches], [m.span() for m in matches]


Hunk = tuple[Span, Span]  # the same passage on both sides (an empty span where it is missing)


UNIT_LIMIT = 3000  # units a side diffed in one piece; longer texts are diffed sentence by sentence
_SEGMENTS = re.compile(r"[^\n。！？!?]*[\n。！？!?]?")


def diff_hunks(a: str, b: str) -> list[Hunk]:
    """The passages where ``a`` and ``b`` differ, each as its range in ``a`` and in ``b``.

    A passage only one side has is an empty range on the other, at the place it would be.
    Passages at most one character apart on both sides are one. Long texts are compared in two
    steps, so the time stays bounded: sentences and lines first, then the units inside the
    sentences that differ (a run of differing sentences longer than UNIT_LIMIT units on a side
    is one passage).

    >>> diff_hunks("the cat sat", "the dog sat")
    [((4, 7), (4, 7))]
    """
    units_a, spans_a = _units(a)
    units_b, spans_b = _units(b)
    if len(units_a) <= UNIT_LIMIT and len(units_b) <= UNIT_LIMIT:
        return _merged(_unit_hunks(units_a, spans_a, units_b, spans_b, len(a), len(b)))
    cuts_a, cuts_b = _segments(a), _segments(b)
    keys_a = [normalize(a[lo:hi].strip()) for lo, hi in cuts_a]
    keys_b = [normalize(b[lo:hi].strip()) for lo, hi in cuts_b]
    starts_a = [lo for lo, _ in spans_a]
    starts_b = [lo for lo, _ in spans_b]
    hunks: list[Hunk] = []
    matcher = difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        left = _block(cuts_a, i1, i2, len(a))
        right = _block(cuts_b, j1, j2, len(b))
        la, ha = bisect.bisect_left(starts_a, left[0]), bisect.bisect_left(starts_a, left[1])
        lb, hb = bisect.bisect_left(starts_b, right[0]), bisect.bisect_left(starts_b, right[1])
        if ha - la > UNIT_LIMIT or hb - lb > UNIT_LIMIT:
            hunks.append((left, right))
            continue
        hunks += _unit_hunks(
            units_a[la:ha], spans_a[la:ha], units_b[lb:hb], spans_b[lb:hb], left[1], right[1]
        )
    return _merged(hunks)


def _segments(text: str) -> list[Span]:
    """Sentences and lines, as character ranges covering the whole text."""
    return [m.span() for m in _SEGMENTS.finditer(text) if m.end() > m.start()]


def _block(cuts: list[Span], lo: int, hi: int, end: int) -> Span:
    """The characters of segments ``lo`` to ``hi``; empty, before segment ``lo``, if none."""
    if hi > lo:
        return cuts[lo][0], cuts[hi - 1][1]
    at = cuts[lo][0] if lo < len(cuts) else end
    return at, at


def _unit_hunks(
    units_a: list[str],
    spans_a: list[Span],
    units_b: list[str],
    spans_b: list[Span],
    end_a: int,
    end_b: int,
) -> list[Hunk]:
    """Where two runs of units differ, as character ranges (``end_*``: where each run ends)."""
    matcher = difflib.SequenceMatcher(None, units_a, units_b, autojunk=False)
    return [
        (_range(spans_a, i1, i2, end_a), _range(spans_b, j1, j2, end_b))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _merged(hunks: list[Hunk]) -> list[Hunk]:
    """Hunks at most one character apart on both sides made one."""
    out: list[Hunk] = []
    for left, right in hunks:
        if out and _close(out[-1][0], left) and _close(out[-1][1], right):
            (l0, l1), (r0, r1) = out[-1]
            out[-1] = ((l0, max(left[1], l1)), (r0, max(right[1], r1)))
        else:
            out.append((left, right))
    return out


def _range(spans: list[Span], lo: int, hi: int, end: int) -> Span:
    """The characters of units ``lo`` to ``hi``; empty, before unit ``lo``, when there are none."""
    if hi > lo:
        return spans[lo][0], spans[hi - 1][1]
    at = spans[lo][0] if lo < len(spans) else end
    return at, at


def _close(before: Span, after: Span) -> bool:
    return after[0] - before[1] <= 1


def diff_spans(a: str, b: str) -> tuple[list[Span], list[Span]]:
    """Character ranges of ``a`` and of ``b`` that the other text does not have."""
    hunks = diff_hunks(a, b)
    return [h[0] for h in hunks if h[0][1] > h[0][0]], [h[1] for h in hunks if h[1][1] > h[1][0]]
