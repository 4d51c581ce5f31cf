"""Where two texts differ: character level for Chinese, word level for other text.

>>> a, b = diff_spans("the cat sat", "the dog sat")
>>> [("the cat sat"[s:e]) for s, e in a], [("the dog sat"[s:e]) for s, e in b]
(['cat'], ['dog'])
"""

from __future__ import annotations

import difflib
import re

from simdup_gui.engine.text import normalize

_UNITS = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+|[^\w\s]", re.UNICODE)

Span = tuple[int, int]


def _units(text: str) -> tuple[list[str], list[Span]]:
    """Comparison units (an ideograph, a word or a punctuation mark) with their positions.

    Units are compared normalised (full-width/half-width, curly/straight quotes, case), as the
    fingerprints are, so only real differences are highlighted.
    """
    matches = list(_UNITS.finditer(text))
    return [normalize(m.group()) for m in matches], [m.span() for m in matches]


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in spans:
        if merged and start - merged[-1][1] <= 1:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def diff_spans(a: str, b: str) -> tuple[list[Span], list[Span]]:
    """Character ranges of ``a`` and of ``b`` that the other text does not have."""
    units_a, spans_a = _units(a)
    units_b, spans_b = _units(b)
    matcher = difflib.SequenceMatcher(None, units_a, units_b, autojunk=False)
    out_a: list[Span] = []
    out_b: list[Span] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            out_a.append((spans_a[i1][0], spans_a[i2 - 1][1]))
        if j2 > j1:
            out_b.append((spans_b[j1][0], spans_b[j2 - 1][1]))
    return _merge(out_a), _merge(out_b)
