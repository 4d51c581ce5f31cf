"""Where two texts differ: character level for Chinese, word level for other text.

>>> a, b = diff_spans("the cat sat", "the dog sat")
>>> [("the cat sat"[s:e]) for s, e in a], [("the dog sat"[s:e]) for s, e in b]
(['cat'], ['dog'])
"""

from __future__ import annotations

import difflib
import re

from simdup_gui.engine.text.normalize import normalize

_UNITS = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+|[^\w\s]", re.UNICODE)

Span = tuple[int, int]


def _units(text: str) -> tuple[list[str], list[Span]]:
    """Comparison units (an ideograph, a word or a punctuation mark) with their positions.

    Units are compared normalised (full-width/half-width, curly/straight quotes, case), as the
    fingerprints are, so only real differences are highlighted.
    """
    matches = list(_UNITS.finditer(text))
    return [normalize(m.group()) for m in matches], [m.span() for m in matches]


Hunk = tuple[Span, Span]  # the same passage on both sides (an empty span where it is missing)


def diff_hunks(a: str, b: str) -> list[Hunk]:
    """The passages where ``a`` and ``b`` differ, each as its range in ``a`` and in ``b``.

    A passage only one side has is an empty range on the other, at the place it would be.
    Passages at most one character apart on both sides are one.

    >>> diff_hunks("the cat sat", "the dog sat")
    [((4, 7), (4, 7))]
    """
    units_a, spans_a = _units(a)
    units_b, spans_b = _units(b)
    matcher = difflib.SequenceMatcher(None, units_a, units_b, autojunk=False)
    hunks: list[Hunk] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        left = _range(spans_a, i1, i2, len(a))
        right = _range(spans_b, j1, j2, len(b))
        if hunks and _close(hunks[-1][0], left) and _close(hunks[-1][1], right):
            (l0, _), (r0, _) = hunks[-1]
            hunks[-1] = ((l0, max(left[1], hunks[-1][0][1])), (r0, max(right[1], hunks[-1][1][1])))
        else:
            hunks.append((left, right))
    return hunks


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
